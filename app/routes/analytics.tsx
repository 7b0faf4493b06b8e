import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigate, useSearchParams } from "react-router";
import { stateOf } from "~/services/context.server";
import { userTimeZone } from "~/services/dashboards.server";
import { requireFeature } from "~/services/guards.server";
import { listMeasurements, loadSeries, loadStatistics } from "~/services/history.server";
import type { Variable, VariableStatistics } from "~/services/logger/schemas";
import { loadVariables } from "~/services/variables.server";
import { ChartWidget } from "~/ui/dashboard/ChartWidget";
import type { SeriesData, VariableInfo } from "~/ui/dashboard/types";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { resolveHistoryRange } from "~/ui/history/historyRange";
import { RangeFields } from "~/ui/history/RangeFields";
import { VariablePicker } from "~/ui/history/VariablePicker";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/analytics";

/** Variables per chart at most; more are refused with a message rather than drawn unreadably. */
const MAX_VARIABLES = 16;
/** Units per chart: uPlot and the SVG draw an axis for the first two. */
const UNITS_PER_CHART = 2;

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "analytics");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const [{ variables }, measurements, zone] = await Promise.all([loadVariables(logger), listMeasurements(logger), userTimeZone(args)]);
  const range = resolveHistoryRange(params, zone, Date.now(), measurements);
  const wanted = params.getAll("v");
  const chosen = wanted.map((id) => variables.find((v) => v.Id === id)).filter((v): v is (typeof variables)[number] => v !== undefined);
  const tooMany = chosen.length > MAX_VARIABLES;
  const shown = range.problem || tooMany ? [] : chosen;
  const compareWith = range.measurement ? (measurements.find((m) => m.ID === params.get("cmp") && m.ID !== range.measurement!.ID) ?? null) : null;
  // Aligned at their start: the same offset into the other measurement, the same length.
  const shift = compareWith && range.measurement ? compareWith.start - range.measurement.start : 0;
  const visible = { from: range.from, to: range.to };
  const other = { from: visible.from + shift, to: visible.to + shift };
  const charts = await Promise.all(
    chartGroups(shown).map(async (vars) => {
      const [main, cmp] = await Promise.all([loadSeries(logger, vars, visible), compareWith ? loadSeries(logger, vars, other) : null]);
      return { vars: vars.map(info), ...overlay(main, cmp, vars, compareWith?.Name ?? "") };
    }),
  );
  const [stats, cmpStats] = await Promise.all([loadStatistics(logger, shown, visible), compareWith ? loadStatistics(logger, shown, other) : null]);
  return {
    variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName, Precision: v.Precision })),
    measurements: measurements.map((m) => ({ ID: m.ID, Name: m.Name })),
    selected: chosen.map((v) => v.Id),
    range,
    compare: compareWith ? { ID: compareWith.ID, Name: compareWith.Name } : null,
    charts,
    stats: stats.stats,
    cmpStats: cmpStats?.stats ?? [],
    statsError: stats.error,
    tooMany,
  };
}

const info = (v: Variable): VariableInfo => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, DataFormat: v.DataFormat, Precision: v.Precision, RangeMin: v.RangeMin, RangeMax: v.RangeMax });

/** Variables in charts of at most two units each (one axis per unit), in the order chosen. */
function chartGroups(vars: Variable[]): Variable[][] {
  const units = [...new Set(vars.map((v) => v.Unit))];
  const groups: Variable[][] = [];
  for (let i = 0; i < units.length; i += UNITS_PER_CHART) {
    const these = new Set(units.slice(i, i + UNITS_PER_CHART));
    groups.push(vars.filter((v) => these.has(v.Unit)));
  }
  return groups;
}

type Loaded = { series: SeriesData | null; error: string | null };

/**
 * The compared measurement's columns drawn on the main buckets: both queries cover equally long
 * ranges, so they have the same bucket width and count (± one bucket of alignment at the start).
 */
function overlay(main: Loaded, cmp: Loaded | null, vars: Variable[], cmpName: string): { series: SeriesData | null; error: string | null; extra: VariableInfo[] } {
  if (!main.series || !cmp?.series) return { series: main.series, error: main.error ?? cmp?.error ?? null, extra: [] };
  const size = main.series.size;
  const fit = (cols: (number | null)[][] | undefined) => cols?.map((c) => Array.from({ length: size }, (_, k) => c[k] ?? null)) ?? [];
  const extra = vars.map((v) => ({ ...info(v), Id: `${v.Id}~cmp`, Name: `${v.Name} · ${cmpName}` }));
  const s = main.series;
  const both = (a: (number | null)[][] | undefined, b: (number | null)[][] | undefined) => (a && b ? [...a, ...fit(b)] : undefined);
  return { series: { ...s, values: [...s.values, ...fit(cmp.series.values)], min: both(s.min, cmp.series.min), max: both(s.max, cmp.series.max) }, error: null, extra };
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const fmt = useFormatters();
  const { range, charts, compare } = loaderData;
  const onZoom = useCallback(
    (from: number, to: number) => {
      const next = new URLSearchParams(params);
      next.set("zf", String(from));
      next.set("zt", String(to));
      void navigate(`?${next}`, { preventScrollReset: true });
    },
    [params, navigate],
  );
  const onReset = useCallback(() => {
    const next = new URLSearchParams(params);
    next.delete("zf");
    next.delete("zt");
    void navigate(`?${next}`, { preventScrollReset: true });
  }, [params, navigate]);
  const problems = [range.problem ? t(range.problem) : null, loaderData.tooMany ? t("history.analytics.tooMany", { max: MAX_VARIABLES }) : null].filter((p): p is string => p !== null);
  const resetHref = (() => {
    const next = new URLSearchParams(params);
    next.delete("zf");
    next.delete("zt");
    return `?${next}`;
  })();
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{t("nav.analytics")}</h1>
      <Form method="get" className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="analytics-form">
        <VariablePicker variables={loaderData.variables} selected={loaderData.selected} />
        <RangeFields range={range} measurements={loaderData.measurements} idPrefix="analytics" />
        <label className="flex max-w-md flex-col gap-1 text-sm font-medium">
          {t("history.analytics.compare")}
          <select name="cmp" defaultValue={compare?.ID ?? ""} className={inputClass}>
            <option value="">{t("history.analytics.noCompare")}</option>
            {loaderData.measurements.map((m) => (
              <option key={m.ID} value={m.ID}>
                {m.Name}
              </option>
            ))}
          </select>
          <span className="text-xs font-normal text-slate-500">{t("history.analytics.compareHint")}</span>
        </label>
        <div>
          <button type="submit" className={buttonClass}>
            {t("history.analytics.show")}
          </button>
        </div>
      </Form>
      <FormErrors errors={problems.length ? problems : undefined} />
      {charts.length === 0 && problems.length === 0 && <p className="text-slate-600 dark:text-slate-300">{t("history.analytics.pick")}</p>}
      {charts.length > 0 && (
        <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="visible-range">
          <span>
            {fmt.dateTime(range.from)} – {fmt.dateTime(range.to)}
          </span>
          {range.zoomed && (
            <Link to={resetHref} preventScrollReset className="text-brand hover:underline">
              {t("history.analytics.resetZoom")}
            </Link>
          )}
        </div>
      )}
      {charts.map((c, i) => (
        <div key={i} className="rounded-lg bg-white p-3 shadow-sm dark:bg-slate-800">
          {c.error || !c.series ? (
            <p role="alert" className="text-red-700 dark:text-red-300">
              {t(c.error ?? "dashboards.widget.failed")}
            </p>
          ) : (
            <div className="h-80">
              <ChartWidget series={c.series} vars={[...c.vars, ...c.extra]} from={range.from} to={range.to} follow={false} approx={{ width: 1100, height: 300 }} syncKey="analytics" onZoom={onZoom} onReset={onReset} />
            </div>
          )}
        </div>
      ))}
      {loaderData.stats.length > 0 && <StatisticsTable stats={loaderData.stats} cmpStats={loaderData.cmpStats} compareName={compare?.Name ?? null} variables={loaderData.variables} />}
      {loaderData.statsError && <FormErrors errors={[t(loaderData.statsError)]} />}
    </section>
  );
}

function StatisticsTable({ stats, cmpStats, compareName, variables }: { stats: VariableStatistics[]; cmpStats: VariableStatistics[]; compareName: string | null; variables: { Id: string; Name: string; Unit: string; Precision?: number }[] }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const rows = [...stats.map((s) => ({ s, suffix: "" })), ...cmpStats.map((s) => ({ s, suffix: compareName ? ` · ${compareName}` : "" }))];
  const cols = ["Min", "Max", "Mean", "StdDev", "RMS", "First", "Last"] as const;
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
      <table className="w-full text-left text-sm" data-testid="statistics">
        <caption className="px-4 py-2 text-left font-semibold">{t("history.analytics.statistics")}</caption>
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            <th className="px-4 py-2">{t("history.stats.variable")}</th>
            {cols.map((c) => (
              <th key={c} className="px-4 py-2 text-right">
                {t(`history.stats.${c}`)}
              </th>
            ))}
            <th className="px-4 py-2 text-right">{t("history.stats.Count")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ s, suffix }) => {
            const v = variables.find((x) => x.Id === s.VID);
            const digits = v?.Precision === undefined ? undefined : v.Precision + 1;
            return (
              <tr key={`${s.VID}${suffix}`} className="border-t border-slate-100 dark:border-slate-700" data-variable={`${v?.Name ?? s.VID}${suffix}`}>
                <th scope="row" className="px-4 py-2 font-medium">
                  {v ? `${v.Name}${v.Unit ? ` [${v.Unit}]` : ""}` : s.VID}
                  {suffix}
                </th>
                {cols.map((c) => (
                  <td key={c} className="px-4 py-2 text-right font-mono tabular-nums" data-stat={c}>
                    {fmt.value(s[c], digits)}
                  </td>
                ))}
                <td className="px-4 py-2 text-right font-mono tabular-nums" data-stat="Count">
                  {fmt.number(s.Count)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.analytics");
}
