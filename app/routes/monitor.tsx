import { useCallback, useMemo, useState } from "react";
import { VariablePicker } from "~/ui/history/VariablePicker";
import { useT } from "~/ui/useT";
import { Form, useSearchParams } from "react-router";
import { keptData, stateOf } from "~/services/context.server";
import { requireFeature } from "~/services/guards.server";
import type { LoggerClient } from "~/services/logger/client.server";
import { timeSeriesAnswer } from "~/services/logger/schemas";
import { loadVariables, selector, type VariableRow } from "~/services/variables.server";
import { buttonClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { NOT_LIVE_CLASS, type Freshness } from "~/ui/live/freshness";
import { LiveBadge } from "~/ui/live/LiveBadge";
import { readStamps } from "~/ui/live/stamps.server";
import { Sparkline } from "~/ui/live/Sparkline";
import { useLiveValues, type LiveSample } from "~/ui/live/useLiveValues";
import { VALUE_STATE_CLASS, valueState } from "~/ui/live/valueState";
import { pageTitle } from "~/ui/title";
import { usePolling } from "~/ui/usePolling";
import type { Route } from "./+types/monitor";

const MAX_TILES = 24;
const SPARK_MS = 60_000;
const SPARK_POINTS = 60;
/** Without JavaScript the page refreshes itself this often (seconds). */
const NOJS_REFRESH_S = 5;

interface Trend {
  values: (number | null)[];
  min?: (number | null)[];
  max?: (number | null)[];
  error?: string;
}

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "monitor");
  const { logger } = stateOf(args.context);
  const { variables } = await loadVariables(logger);
  const wanted = args.url.searchParams.getAll("v").slice(0, MAX_TILES);
  const selected = wanted.map((id) => variables.find((v) => v.Id === id)).filter((v): v is VariableRow => v !== undefined);
  const ids = selected.map((v) => v.Id);
  // Values with their times: the tiles say live / stale / offline without JavaScript too.
  const [live, trends] = await Promise.all([readStamps(logger, ids, ids, 0, false), Promise.all(selected.map((v) => trend(logger, v)))]);
  return keptData(args.context, {
    variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName })),
    selected,
    values: live.values,
    live: { stamps: live.stamps, summary: live.summary },
    trends: Object.fromEntries(selected.map((v, i) => [v.Id, trends[i]])),
  });
}

/** The last minute, bucketed by the logger; one failing variable only breaks its own tile. */
async function trend(logger: LoggerClient, v: VariableRow): Promise<Trend> {
  try {
    const { Data } = await logger.rest("POST", "/buffer/data", { Start: -SPARK_MS, End: 0, Variables: [selector(v)], Points: SPARK_POINTS, Type: "equidistant", Format: "json" }, timeSeriesAnswer);
    const ts = Data.TimeSeries;
    return { values: ts.Values[0] ?? [], min: ts.Min?.[0], max: ts.Max?.[0] };
  } catch (error) {
    return { values: [], error: error instanceof Error ? error.message : String(error) };
  }
}

export default function Monitor({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { selected, variables, trends } = loaderData;
  const ids = useMemo(() => selected.map((v) => v.Id), [selected]);
  const [recent, setRecent] = useState<Record<string, (number | null)[]>>({});
  const onSample = useCallback((sample: LiveSample) => {
    // Live values extend the sparkline with JavaScript on; the server trend stays underneath.
    setRecent((r) => {
      const next = { ...r };
      for (const [id, v] of Object.entries(sample.values)) next[id] = [...(next[id] ?? []), v].slice(-SPARK_POINTS);
      return next;
    });
  }, []);
  const { values, freshness } = useLiveValues(ids, loaderData.values, onSample, loaderData.live.stamps);
  // Before hydration (and without JavaScript) the server's judgement; then the live one.
  const summary = freshness ?? loaderData.live.summary;
  // With values not live, the page asks again now and then: the reason (who stopped, which device) may change.
  usePolling(5000, summary.state !== "live");
  const chosen = new Set(params.getAll("v"));
  return (
    <section className="flex flex-col gap-4">
      {selected.length > 0 && (
        <noscript>
          <meta httpEquiv="refresh" content={String(NOJS_REFRESH_S)} />
        </noscript>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t("nav.monitor")}</h1>
        {selected.length > 0 && <LiveBadge state={summary.state} ageMs={summary.ageMs} reason={summary.reason} />}
      </div>
      {selected.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">{t("live.monitor.empty")}</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="monitor-tiles">
          {selected.map((v) => (
            <Tile key={v.Id} v={v} value={values[v.Id] ?? null} trend={trends[v.Id]} recent={recent[v.Id]} freshness={summary.each[v.Id]} />
          ))}
        </div>
      )}
      <details open={selected.length === 0 || undefined} className="rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800">
        <summary className="font-semibold">{t("live.monitor.choose")}</summary>
        {/* The one variable picker of the console (issue 28 §7), as in Analytics and Export. */}
        <Form method="get" className="mt-3 flex flex-col gap-3">
          <VariablePicker variables={variables} selected={[...chosen]} filterAction="." />
          <div>
            <button type="submit" className={buttonClass}>
              {t("live.monitor.show")}
            </button>
          </div>
        </Form>
      </details>
    </section>
  );
}

function Tile({ v, value, trend, recent, freshness }: { v: VariableRow; value: number | null; trend: Trend; recent?: (number | null)[]; freshness?: Freshness }) {
  const t = useT();
  const fmt = useFormatters();
  const state = valueState(value, v.RangeMin, v.RangeMax);
  const hasRange = v.RangeMin != null && v.RangeMax != null && v.RangeMax > v.RangeMin;
  const fill = hasRange && value !== null ? Math.min(100, Math.max(0, ((value - v.RangeMin!) / (v.RangeMax! - v.RangeMin!)) * 100)) : null;
  const line = recent?.length ? [...trend.values, ...recent].slice(-SPARK_POINTS * 2) : trend.values;
  return (
    <article className="flex flex-col gap-2 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="monitor-tile" data-variable={v.Name} data-freshness={freshness}>
      <header className="flex items-baseline justify-between gap-2">
        <h2 className="truncate font-medium" title={v.Name}>
          {v.Name}
        </h2>
        <span className="text-xs text-slate-500">
          {freshness && freshness !== "live" && <span className="mr-2 font-semibold text-amber-800 dark:text-amber-300">{t(`liveState.${freshness}`)}</span>}
          {v.deviceName}
        </span>
      </header>
      <div className={`font-mono text-3xl tabular-nums ${VALUE_STATE_CLASS[state]} ${freshness && freshness !== "live" ? NOT_LIVE_CLASS : ""}`} data-testid="tile-value" data-state={state}>
        {fmt.value(value, v.Precision)} <span className="text-base text-slate-500">{v.Unit}</span>
      </div>
      {fill !== null && (
        <div className={`h-2 w-full overflow-hidden rounded bg-slate-100 dark:bg-slate-700 ${freshness && freshness !== "live" ? NOT_LIVE_CLASS : ""}`} role="meter" aria-valuemin={v.RangeMin!} aria-valuemax={v.RangeMax!} aria-valuenow={value ?? undefined} aria-label={v.Name}>
          <div className={`h-full ${state === "ok" ? "bg-brand" : "bg-red-500"}`} style={{ width: `${fill}%` }} />
        </div>
      )}
      {trend.error ? <p className="text-xs text-red-700">{t("live.monitor.trendError", { error: trend.error })}</p> : <Sparkline values={line} min={recent?.length ? undefined : trend.min} max={recent?.length ? undefined : trend.max} />}
    </article>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.monitor");
}
