import { geoBounds, geoMercator, geoPath, type GeoPermissibleObjects } from "d3-geo";
import type { FeatureCollection, Geometry } from "geojson";
import { feature } from "topojson-client";

// The Map without JavaScript: Natural Earth country shapes (world-atlas, 1:50m) projected with
// d3-geo onto an SVG, fitted to the devices' extent. The builder returns numbers and path
// strings only; React renders them (and escapes every name) in app/ui/map/SvgMap.tsx.

export type SvgPoint = { id: string; lat: number; lon: number };
export type SvgMarker = { id: string; x: number; y: number };
export type SvgMapData = { width: number; height: number; countries: { id: string; name: string; d: string }[]; markers: SvgMarker[] };

type Countries = FeatureCollection<Geometry, { name?: string }>;

let countries: Promise<Countries> | null = null;

/** Natural Earth 1:50m countries as GeoJSON, converted once per process. */
export function loadCountries(): Promise<Countries> {
  countries ??= import("world-atlas/countries-50m.json").then((m) => {
    const topology = (m.default ?? m) as unknown as Parameters<typeof feature>[0];
    return feature(topology, topology.objects.countries!) as unknown as Countries;
  });
  return countries;
}

export type SvgMapOptions = {
  width?: number;
  height?: number;
  /** Pixels kept free around the devices' extent. */
  padding?: number;
  /** The smallest extent shown, in degrees: one device alone is not zoomed in to a street. */
  minSpanDeg?: number;
};

const built = new WeakMap<Countries, Map<string, SvgMapData>>();
const KEEP = 16;

/** Projects the countries and the points; the projection is fitted to the points (or the world when none). */
export function buildSvgMap(points: readonly SvgPoint[], shapes: Countries, opts: SvgMapOptions = {}): SvgMapData {
  // The page refreshes every few seconds with the same devices in the same places: reuse.
  const key = JSON.stringify([points, opts]);
  let cache = built.get(shapes);
  if (!cache) built.set(shapes, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) return hit;
  const map = project(points, shapes, opts);
  if (cache.size >= KEEP) cache.delete(cache.keys().next().value!);
  cache.set(key, map);
  return map;
}

function project(points: readonly SvgPoint[], shapes: Countries, opts: SvgMapOptions): SvgMapData {
  const width = opts.width ?? 960;
  const height = opts.height ?? 540;
  const padding = opts.padding ?? 48;
  const minSpan = opts.minSpanDeg ?? 4;
  const projection = geoMercator();
  const extent: [[number, number], [number, number]] = [
    [padding, padding],
    [width - padding, height - padding],
  ];
  if (points.length === 0) {
    projection.fitExtent(extent, { type: "Sphere" });
  } else {
    const lons = points.map((p) => p.lon);
    const lats = points.map((p) => p.lat);
    const [west, east] = widen(Math.min(...lons), Math.max(...lons), minSpan);
    const [south, north] = widen(Math.min(...lats), Math.max(...lats), minSpan);
    const box: GeoPermissibleObjects = { type: "MultiPoint", coordinates: [[west, south], [east, north], [west, north], [east, south]] };
    projection.fitExtent(extent, box);
  }
  // Shapes outside the picture are clipped away, so the page carries only what is seen.
  projection.clipExtent([
    [0, 0],
    [width, height],
  ]);
  const path = geoPath(projection).digits(1);
  // Only shapes whose bounds meet the picture are projected (a few instead of 241).
  const window = points.length ? visibleWindow(projection, width, height) : null;
  const paths = shapes.features
    .filter((f) => !window || meets(boundsOf(f), window))
    .map((f, i) => ({ id: String(f.id ?? i), name: f.properties?.name ?? "", d: path(f) ?? "" }))
    .filter((c) => c.d !== "");
  const markers = points.map((p) => {
    const [x, y] = projection([p.lon, p.lat]) ?? [Number.NaN, Number.NaN];
    return { id: p.id, x: round(x), y: round(y) };
  });
  return { width, height, countries: paths, markers };
}

type Box = [[number, number], [number, number]];

const bounds = new WeakMap<object, Box>();
function boundsOf(f: Countries["features"][number]): Box {
  let b = bounds.get(f);
  if (!b) bounds.set(f, (b = geoBounds(f)));
  return b;
}

function visibleWindow(projection: ReturnType<typeof geoMercator>, width: number, height: number): Box {
  const [west, north] = projection.invert!([0, 0])!;
  const [east, south] = projection.invert!([width, height])!;
  return [
    [west, south],
    [east, north],
  ];
}

function meets([[w, s], [e, n]]: Box, [[vw, vs], [ve, vn]]: Box): boolean {
  if (n < vs || s > vn) return false;
  // A shape across the antimeridian has west > east: keep it rather than reason about it.
  return w > e || (e >= vw && w <= ve);
}

function widen(min: number, max: number, span: number): [number, number] {
  if (max - min >= span) return [min, max];
  const mid = (min + max) / 2;
  return [mid - span / 2, mid + span / 2];
}

const round = (n: number) => Math.round(n * 10) / 10;
