import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useRef, useState } from "react";
import { feature } from "topojson-client";
import countriesUrl from "world-atlas/countries-50m.json?url";
import { STATE_COLOURS, type DeviceState } from "~/services/deviceState";
import { useT } from "~/ui/useT";

// The Map with JavaScript: Leaflet, loaded only in the browser through a dynamic import (the
// route's own chunk stays small). The base layer is either an administrator's tile server or,
// by default and with no internet, the same Natural Earth shapes the server's SVG map uses.

export type LeafletDevice = {
  id: string;
  name: string;
  state: DeviceState;
  lat: number;
  lon: number;
  label: string;
  /** Popup lines: state, site, key values (already formatted and translated). */
  lines: string[];
};

export type LeafletMapProps = {
  devices: LeafletDevice[];
  tiles: { url: string; attribution: string } | null;
  title: string;
  projectStateLink: { href: string; text: string };
  shapesAttribution: string;
  onReady?: () => void;
};

export default function LeafletMap({ devices, tiles, title, projectStateLink, shapesAttribution, onReady }: LeafletMapProps) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const markers = useRef<L.LayerGroup | null>(null);
  const [ready, setReady] = useState(false);

  // The map and its base layer: rebuilt only when the base layer's settings change.
  useEffect(() => {
    if (!box.current) return;
    // Leaflet's own controls are titled in English ("Zoom in", a prefix with an English title):
    // ours are in the user's language.
    const m = L.map(box.current, { worldCopyJump: true, attributionControl: false, zoomControl: false });
    L.control.zoom({ zoomInTitle: t("map.zoomIn"), zoomOutTitle: t("map.zoomOut") }).addTo(m);
    L.control.attribution({ prefix: '<a href="https://leafletjs.com" rel="noreferrer">Leaflet</a>' }).addTo(m);
    map.current = m;
    markers.current = L.layerGroup().addTo(m);
    let cancelled = false;
    if (tiles) {
      L.tileLayer(tiles.url, { attribution: escapeHtml(tiles.attribution), maxZoom: 19, className: "loggia-tiles" }).addTo(m);
    } else {
      fetch(countriesUrl)
        .then((r) => r.json())
        .then((topology: Parameters<typeof feature>[0]) => {
          if (cancelled) return;
          const shapes = feature(topology, topology.objects.countries!);
          L.geoJSON(shapes, {
            style: { color: "#a8a29e", weight: 1, fillColor: "#f5f5f4", fillOpacity: 1 },
            interactive: false,
            attribution: escapeHtml(shapesAttribution),
          })
            .addTo(m)
            .bringToBack();
        })
        .catch(() => {
          /* The markers still work without shapes; nothing else to do offline. */
        });
    }
    setReady(true);
    onReady?.();
    return () => {
      cancelled = true;
      m.remove();
      map.current = null;
      markers.current = null;
      byId.current.clear();
      fitted.current = false;
      setReady(false);
    };
    // onReady and the shapes' attribution text are not reasons to rebuild the map.
    // Nor is t: the controls keep the titles of the language the map was built in.
  }, [tiles?.url, tiles?.attribution]);

  // Markers follow the data (the page revalidates every few seconds): updated in place, so an
  // open popup stays open; the view is fitted once.
  const byId = useRef(new Map<string, L.CircleMarker>());
  const latest = useRef(new Map<string, LeafletDevice>());
  const fitted = useRef(false);
  useEffect(() => {
    const m = map.current;
    const group = markers.current;
    if (!ready || !m || !group) return;
    // Fitted first: Leaflet draws layers only once the map has a view.
    if (!fitted.current) {
      fitted.current = true;
      if (devices.length > 0) m.fitBounds(L.latLngBounds(devices.map((d) => [d.lat, d.lon] as [number, number])), { padding: [48, 48], maxZoom: tiles ? 14 : 7, animate: false });
      else m.setView([20, 0], 2, { animate: false });
    }
    const seen = new Set<string>();
    for (const d of devices) {
      seen.add(d.id);
      latest.current.set(d.id, d);
      let marker = byId.current.get(d.id);
      if (!marker) {
        const id = d.id;
        marker = L.circleMarker([d.lat, d.lon], { radius: 10, color: "#ffffff", weight: 3, fillOpacity: 1, className: "loggia-marker" });
        marker.bindTooltip(d.label);
        marker.bindPopup(() => popup(latest.current.get(id)!, projectStateLink));
        marker.addTo(group);
        byId.current.set(id, marker);
      }
      marker.setLatLng([d.lat, d.lon]);
      marker.setStyle({ fillColor: STATE_COLOURS[d.state] });
      marker.setTooltipContent(d.label);
      if (marker.isPopupOpen()) marker.setPopupContent(popup(d, projectStateLink));
      // Leaflet draws the marker as an SVG path: give it an accessible name and the state.
      const el = marker.getElement();
      el?.setAttribute("role", "img"); // aria-label is not allowed on a bare <path>
      el?.setAttribute("aria-label", d.label);
      el?.setAttribute("data-device", d.name);
      el?.setAttribute("data-state", d.state);
    }
    for (const [id, marker] of byId.current) {
      if (seen.has(id)) continue;
      marker.remove();
      byId.current.delete(id);
      latest.current.delete(id);
    }
  }, [ready, devices, projectStateLink, tiles]);

  // With the offline shapes, the sea is the container's background (as in the server's SVG map).
  return <div ref={box} role="region" aria-label={title} className="h-[60vh] min-h-80 w-full rounded-lg" style={tiles ? undefined : { background: "#e0f2fe" }} data-testid="leaflet-map" />;
}

/** Leaflet shows attributions as HTML; ours are text (an administrator's setting among them). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The popup's content as DOM nodes: names are text, never HTML. */
function popup(d: LeafletDevice, link: { href: string; text: string }): HTMLElement {
  const root = document.createElement("div");
  root.setAttribute("data-testid", "map-popup");
  const title = document.createElement("strong");
  title.textContent = d.name;
  root.append(title);
  const list = document.createElement("ul");
  list.style.margin = "0.25rem 0";
  list.style.paddingLeft = "1rem";
  for (const line of d.lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  root.append(list);
  const a = document.createElement("a");
  a.href = link.href;
  a.textContent = link.text;
  root.append(a);
  return root;
}
