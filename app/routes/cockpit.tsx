import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { useT } from "~/ui/useT";
import { Link } from "react-router";
import { isTileUrl } from "~/schemas/map";
import { keptData, stateOf } from "~/services/context.server";
import { DEVICE_STATES, STATE_COLOURS, type DeviceState } from "~/services/deviceState";
import { holds, requireFeature } from "~/services/guards.server";
import { loadMapDevices, type MapDevice } from "~/services/map.server";
import { buildSvgMap, loadCountries } from "~/services/mapSvg.server";
import { useFormatters } from "~/ui/format";
import { SvgMap } from "~/ui/map/SvgMap";
import type { LeafletDevice } from "~/ui/map/LeafletMap";
import { pageTitle } from "~/ui/title";
import { usePolling } from "~/ui/usePolling";
import type { Route } from "./+types/cockpit";

// Leaflet and its CSS load only in the browser, after the page is up.
const LeafletMap = lazy(() => import("~/ui/map/LeafletMap"));

/** With JavaScript the states refresh this often; without, a reload shows the current ones. */
const REFRESH_MS = 10_000;

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "cockpit");
  const { logger } = stateOf(args.context);
  const [devices, shapes] = await Promise.all([loadMapDevices(logger, auth), loadCountries()]);
  const located = devices.filter((d) => d.location);
  const svg = located.length ? buildSvgMap(located.map((d) => ({ id: d.id, lat: d.location!.lat, lon: d.location!.lon })), shapes) : null;
  const url = auth.settings?.MapTileUrl?.trim() ?? "";
  return keptData(args.context, {
    devices,
    svg,
    tiles: isTileUrl(url) ? { url, attribution: auth.settings?.MapTileAttribution?.trim() ?? "" } : null,
    canEditLocations: holds(auth, "UseMetaData") && holds(auth, "ManageProject"),
  });
}

export default function Cockpit({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { devices, svg, tiles, canEditLocations } = loaderData;
  usePolling(REFRESH_MS);
  const located = devices.filter((d) => d.location);
  return (
    <section className="flex flex-col gap-4" data-wide>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("nav.cockpit")}</h1>
        <Legend />
      </div>
      {located.length === 0 ? (
        <div role="status" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800" data-testid="map-empty">
          <p>{devices.length ? t("map.empty") : t("map.noDevices")}</p>
          {devices.length > 0 && canEditLocations && (
            <p className="mt-2 text-sm">
              <Link to="/metadata" className="text-brand hover:underline">
                {t("map.emptyHint")}
              </Link>
            </p>
          )}
        </div>
      ) : (
        <MapView devices={devices} svg={svg!} tiles={tiles} />
      )}
      <DeviceList devices={devices} canEditLocations={canEditLocations} />
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function MapView({ devices, svg, tiles }: { devices: MapDevice[]; svg: NonNullable<LoaderData["svg"]>; tiles: LoaderData["tiles"] }) {
  const t = useT();
  const fmt = useFormatters();
  // The SVG stays until Leaflet is up, so the page never shows an empty box.
  const [mounted, setMounted] = useState(false);
  const [leafletReady, setLeafletReady] = useState(false);
  useEffect(() => setMounted(true), []);
  const stateText = (s: DeviceState) => t(`deviceState.${s}`);
  const label = (d: MapDevice) => t("map.markerLabel", { name: d.name, state: stateText(d.state) });
  const byId = new Map(devices.map((d) => [d.id, d]));
  const markers = svg.markers.flatMap((m) => {
    const d = byId.get(m.id);
    return d ? [{ ...m, name: d.name, state: d.state, label: label(d) }] : [];
  });
  const leafletDevices = useMemo<LeafletDevice[]>(
    () =>
      devices.flatMap((d) =>
        d.location
          ? [
              {
                id: d.id,
                name: d.name,
                state: d.state,
                lat: d.location.lat,
                lon: d.location.lon,
                label: label(d),
                lines: [
                  t("map.popupState", { state: stateText(d.state) }),
                  ...(d.location.site ? [d.location.site] : []),
                  ...d.values.map((v) => keyValueText(v, fmt.value)),
                ],
              },
            ]
          : [],
      ),
    // Rebuilt when the data or the language change (not on every render: markers update then).
    [devices, t],
  );
  const link = useMemo(() => ({ href: "/devices", text: t("map.openProjectState") }), [t]);
  return (
    <div className="relative">
      <div hidden={leafletReady}>
        <SvgMap title={t("map.svgTitle")} width={svg.width} height={svg.height} countries={svg.countries} markers={markers} />
      </div>
      {mounted && (
        <div className={leafletReady ? "" : "absolute inset-0 opacity-0"}>
          <Suspense fallback={null}>
            <LeafletMap
              devices={leafletDevices}
              tiles={tiles}
              title={t("map.leafletTitle")}
              projectStateLink={link}
              shapesAttribution={t("map.shapesAttribution")}
              onReady={() => setLeafletReady(true)}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}

function keyValueText(v: MapDevice["values"][number], format: (value: number | null | undefined, precision?: number) => string): string {
  return `${v.name}: ${format(v.value, v.precision)}${v.unit && v.value !== null ? ` ${v.unit}` : ""}`;
}

function Legend() {
  const t = useT();
  return (
    <ul className="flex flex-wrap gap-4 text-sm" aria-label={t("map.legend")} data-testid="map-legend">
      {DEVICE_STATES.map((s) => (
        <li key={s} className="flex items-center gap-1.5">
          <StateDot state={s} />
          {t(`deviceState.${s}`)}
        </li>
      ))}
    </ul>
  );
}

function StateDot({ state }: { state: DeviceState }) {
  return <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full ring-2 ring-white" style={{ backgroundColor: STATE_COLOURS[state] }} />;
}

function DeviceList({ devices, canEditLocations }: { devices: MapDevice[]; canEditLocations: boolean }) {
  const t = useT();
  const fmt = useFormatters();
  return (
    <div className="relative overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
      <table className="w-full text-left text-sm" data-testid="map-devices">
        <caption className="px-4 pt-3 text-left text-lg font-semibold">{t("map.list")}</caption>
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            {(["name", "state", "location", "values"] as const).map((c) => (
              <th key={c} scope="col" className="px-4 py-2">
                {t(`map.columns.${c}`)}
              </th>
            ))}
            <th scope="col" className="px-4 py-2">
              <span className="sr-only">{t("map.columns.link")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {devices.length === 0 && (
            <tr>
              <td colSpan={5} className="px-4 py-6 text-center text-slate-500">
                {t("map.noDevices")}
              </td>
            </tr>
          )}
          {devices.map((d) => (
            <tr key={d.id} id={`device-${d.id}`} className="border-t border-slate-100 align-top target:bg-amber-50 dark:border-slate-700 dark:target:bg-slate-700" data-device={d.name}>
              <th scope="row" className="px-4 py-2 font-medium">
                {d.name}
                {d.type && <div className="text-xs font-normal text-slate-500">{d.type}</div>}
              </th>
              <td className="px-4 py-2">
                <span className="flex items-center gap-2" data-testid="map-device-state" data-state={d.state}>
                  <StateDot state={d.state} />
                  {t(`deviceState.${d.state}`)}
                </span>
              </td>
              <td className="px-4 py-2" data-testid="map-device-location">
                {d.location ? (
                  <>
                    {d.location.site && <div>{d.location.site}</div>}
                    <div className="text-xs text-slate-500">
                      {fmt.number(d.location.lat, 4)}, {fmt.number(d.location.lon, 4)}
                    </div>
                  </>
                ) : (
                  <span className="text-slate-500">{t("map.noLocation")}</span>
                )}
                {canEditLocations && (
                  <div>
                    <Link to={`/metadata?type=device&id=${encodeURIComponent(d.id)}`} className="text-xs text-brand hover:underline" aria-label={t("map.editLocationOf", { name: d.name })}>
                      {t("map.editLocation")}
                    </Link>
                  </div>
                )}
              </td>
              <td className="px-4 py-2" data-testid="map-device-values">
                {d.values.length ? (
                  <ul>
                    {d.values.map((v) => (
                      <li key={v.id}>{keyValueText(v, fmt.value)}</li>
                    ))}
                  </ul>
                ) : (
                  "—"
                )}
              </td>
              <td className="px-4 py-2">
                <Link to="/devices" className="text-brand hover:underline" aria-label={t("map.projectStateOf", { name: d.name })}>
                  {t("nav.devices")}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.cockpit");
}
