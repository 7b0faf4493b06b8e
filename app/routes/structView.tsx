import { useMemo } from "react";
import { useT } from "~/ui/useT";
import { Link, useSearchParams } from "react-router";
import { keptData, stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import { loadVariables, type VariableRow } from "~/services/variables.server";
import { FreshnessBadge } from "~/ui/FreshnessBadge";
import { LiveBadge, ReasonText } from "~/ui/live/LiveBadge";
import { readStamps } from "~/ui/live/stamps.server";
import type { QualitySummary } from "~/ui/live/quality";
import { useLiveValues } from "~/ui/live/useLiveValues";
import { usePolling } from "~/ui/usePolling";
import { freshnessOf, NOT_LIVE_CLASS, periodMsOf } from "~/ui/live/freshness";
import { useFormatters } from "~/ui/format";
import { VALUE_STATE_CLASS, valueState } from "~/ui/live/valueState";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/structView";

// Devices → modules → variables as native <details> (collapsible and keyboard navigable
// without JavaScript); the selected node (?node=) is shown in the details panel.
export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "structView");
  const { logger } = stateOf(args.context);
  const { variables, devices } = await loadVariables(logger);
  const node = args.url.searchParams.get("node");
  const selected = variables.find((v) => v.Id === node) ?? null;
  // The selected value judged as every live screen does (issue 26 §3): its age, and why it is not live.
  const live = selected ? await readStamps(logger, [selected.Id], [selected.Id], 0, false) : null;
  const value = (selected && live?.values[selected.Id]) ?? null;
  return keptData(args.context, { devices, variables, selectedDevice: devices.find((d) => d.ID === node) ?? null, selected, value, live, now: Date.now() });
}

export default function StructView({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { devices, variables, selected, selectedDevice, value, now } = loaderData;
  const node = params.get("node");
  const byId = new Map(variables.map((v) => [v.Id, v]));
  const openDevice = (id: string, moduleVars: string[][]) => node === id || moduleVars.some((ids) => node !== null && ids.includes(node));
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{t("nav.structView")}</h1>
      <div className="grid gap-4 lg:grid-cols-[minmax(280px,1fr)_2fr]">
        <nav aria-label={t("live.struct.tree")} className="rounded-lg bg-white p-3 shadow-sm dark:bg-slate-800" data-testid="struct-tree">
          {devices.length === 0 && <p className="p-2 text-slate-500">{t("devices.noDevices")}</p>}
          <ul className="flex flex-col gap-1">
            {devices.map((d) => (
              <li key={d.ID} className="relative">
                <details open={openDevice(d.ID, d.Modules.map((m) => m.Variables)) || undefined}>
                  {/* A link may not sit inside a <summary> (axe nested-interactive): the summary keeps the name's room and the link is laid over it. */}
                  <summary className="flex items-center gap-2 rounded px-2 py-1 font-medium hover:bg-brand-light" aria-label={d.Name}>
                    <span aria-hidden="true" className={`h-2 w-2 rounded-full ${d.Connected ? "bg-green-500" : "bg-slate-400"}`} />
                    <span aria-hidden="true" className="invisible">{d.Name}</span>
                  </summary>
                  <ul className="ml-4 flex flex-col gap-1 border-l border-slate-200 pl-2 dark:border-slate-700">
                    {d.Modules.map((m) => (
                      <li key={m.ID}>
                        <details open={(node !== null && m.Variables.includes(node)) || undefined}>
                          <summary className="rounded px-2 py-1 hover:bg-brand-light">
                            {m.Name} <span className="text-xs text-slate-500">({m.Variables.length})</span>
                          </summary>
                          <ul className="ml-4 flex flex-col border-l border-slate-200 pl-2 dark:border-slate-700">
                            {m.Variables.map((id) => {
                              const v = byId.get(id);
                              if (!v) return null;
                              return (
                                <li key={id}>
                                  <Link
                                    to={`?node=${id}`}
                                    aria-current={node === id ? "true" : undefined}
                                    className={`block rounded px-2 py-0.5 text-sm hover:bg-brand-light ${node === id ? "bg-brand-light font-semibold text-brand" : ""}`}
                                  >
                                    {v.Name}
                                  </Link>
                                </li>
                              );
                            })}
                          </ul>
                        </details>
                      </li>
                    ))}
                  </ul>
                </details>
                <Link to={`?node=${d.ID}`} className="absolute left-6 top-1 font-medium hover:underline" aria-current={node === d.ID ? "true" : undefined}>
                  {d.Name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="rounded-lg bg-white p-5 shadow-sm dark:bg-slate-800" data-testid="struct-details">
          {selected && loaderData.live ? <LiveDetails v={selected} value={value} live={loaderData.live} /> : selectedDevice ? <DeviceDetails device={selectedDevice} now={now} /> : <p className="text-slate-500">{t("live.struct.choose")}</p>}
        </div>
      </div>
    </section>
  );
}

/** The selected variable's value, followed live with JavaScript and judged as the server did without. */
function LiveDetails({ v, value, live }: { v: VariableRow; value: number | null; live: { stamps: Parameters<typeof useLiveValues>[3] & object; summary: QualitySummary } }) {
  const ids = useMemo(() => [v.Id], [v.Id]);
  const initial = useMemo(() => ({ [v.Id]: value }), [v.Id, value]);
  const { values, freshness } = useLiveValues(ids, initial, undefined, live.stamps);
  const summary = freshness ?? live.summary;
  usePolling(5000, summary.state !== "live");
  return <VariableDetails v={v} value={values[v.Id] ?? null} summary={summary} at={live.stamps.times[v.Id] ?? null} />;
}

/** The value with its state: stale after 3 sample periods (issue 15 §1), and why (issue 26 §3). */
function VariableDetails({ v, value, summary, at }: { v: VariableRow; value: number | null; summary: QualitySummary; at: number | null }) {
  const t = useT();
  const fmt = useFormatters();
  const freshness = summary.each[v.Id] ?? "stale";
  const reason = summary.reasons[v.Id] ?? null;
  const rows: [string, React.ReactNode][] = [
    [t("live.columns.device"), `${v.deviceName}${v.moduleName ? ` / ${v.moduleName}` : ""}`],
    [
      t("live.columns.value"),
      <span key="v" data-testid="struct-value" data-freshness={freshness} data-reason={reason?.kind}>
        <span className={`font-mono ${VALUE_STATE_CLASS[valueState(value, v.RangeMin, v.RangeMax)]} ${freshness === "live" ? "" : NOT_LIVE_CLASS}`}>{`${fmt.value(value, v.Precision)} ${v.Unit}`}</span>
        <FreshnessBadge freshness={freshness} ageMs={summary.ages[v.Id] ?? null} />
        {reason && (
          <span className="block text-xs text-slate-500" data-testid="struct-reason">
            <ReasonText reason={reason} />
          </span>
        )}
      </span>,
    ],
    [t("operator.freshness.sampledAt"), at === null ? "—" : fmt.dateTime(at)],
    [t("live.columns.type"), v.DataFormat],
    [t("live.columns.direction"), t(`live.direction.${v.Direction}`)],
    [t("live.columns.range"), v.RangeMin != null && v.RangeMax != null ? `${fmt.value(v.RangeMin, v.Precision)} … ${fmt.value(v.RangeMax, v.Precision)} ${v.Unit}` : "—"],
    [t("live.columns.precision"), v.Precision ?? "—"],
    [t("live.columns.rate"), v.SampleRateHz !== undefined ? `${fmt.number(v.SampleRateHz)} Hz` : "—"],
    [t("live.columns.id"), <code key="id" className="text-xs">{v.Id}</code>],
  ];
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{v.Name}</h2>
        <LiveBadge state={summary.state} ageMs={summary.ageMs} reason={summary.reason} />
      </div>
      <DetailList rows={rows} />
    </>
  );
}

function DeviceDetails({ device: d, now }: { device: Route.ComponentProps["loaderData"]["devices"][number]; now: number }) {
  const t = useT();
  const fmt = useFormatters();
  const beat = d.LastHeartbeat == null ? null : typeof d.LastHeartbeat === "number" ? d.LastHeartbeat : Date.parse(d.LastHeartbeat);
  const freshness = freshnessOf(beat, periodMsOf(d.SampleRateHz), now, d.Connected);
  const rows: [string, React.ReactNode][] = [
    [t("live.devices.state"), d.Connected ? t("deviceState.online") : t("deviceState.offline")],
    [
      t("live.devices.heartbeat"),
      <span key="hb" data-testid="struct-heartbeat" data-freshness={freshness}>
        <span className={freshness === "live" ? "" : NOT_LIVE_CLASS}>{d.LastHeartbeat ? fmt.dateTime(d.LastHeartbeat) : "—"}</span>
        <FreshnessBadge freshness={freshness} ageMs={beat === null ? null : now - beat} />
      </span>,
    ],
    [t("live.devices.type"), d.Type],
    [t("live.devices.firmware"), d.Firmware],
    [t("live.devices.ip"), d.IPAddress],
    [t("live.devices.rate"), d.SampleRateHz !== undefined ? `${fmt.number(d.SampleRateHz)} Hz` : "—"],
    [t("live.devices.location"), d.Location ? `${fmt.number(d.Location.Lat)}, ${fmt.number(d.Location.Lon)}` : "—"],
  ];
  return (
    <>
      <h2 className="mb-3 text-lg font-semibold">{d.Name}</h2>
      <DetailList rows={rows} />
    </>
  );
}

function DetailList({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium">{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.structView");
}
