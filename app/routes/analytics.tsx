import { useCallback } from "react";
import { useT } from "~/ui/useT";
import { Form, Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { keptData, stateOf } from "~/services/context.server";
import { userTimeZone } from "~/services/zoned.server";
import { requireFeature } from "~/services/guards.server";
import { featureOpen } from "~/services/header.server";
import { eventsFor, loadRangeEvents } from "~/services/chartEvents.server";
import { loadAnnotations, mayAddAnnotations } from "~/services/annotations.server";
import { annotationsFor, annotationsHref, noteLabel } from "~/ui/dashboard/annotations";
import { ChartNotesContext } from "~/ui/dashboard/notesContext";
import { listMeasurements, loadSeries, loadSources, loadStatistics, localText, oldestKept } from "~/services/history.server";
import { getInstance } from "~/services/i18n.server";
import type { Variable } from "~/services/logger/schemas";
import { loadVariables } from "~/services/variables.server";
import { ChartWidget } from "~/ui/dashboard/ChartWidget";
import { parseRangeToken, QuickRanges, rangeToken, zoomedOut } from "~/ui/dashboard/QuickRanges";
import type { RangePreset } from "~/schemas/dashboardConstants";
import { SvgChart } from "~/ui/dashboard/SvgChart";
import type { SeriesData, VariableInfo } from "~/ui/dashboard/types";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { DateTimeField } from "~/ui/DateTimeField";
import { useFormatters } from "~/ui/format";
import { cmpAtInput, COMPARE_PRESETS, resolveComparison } from "~/ui/history/compare";
import { resolveHistoryRange } from "~/ui/history/historyRange";
import { RangeFields } from "~/ui/history/RangeFields";
import { FieldsetError, VariablePicker } from "~/ui/history/VariablePicker";
import { StatisticsTable } from "~/ui/history/StatisticsTable";
import { pageTitle } from "~/ui/title";
import { limitsOf, loadLimits } from "~/services/limits.server";
import type { Route } from "./+types/analytics";

/** Variables per chart at most; more are refused with a message rather than drawn unreadably. */
const MAX_VARIABLES = 16;
/** Units per chart: uPlot and the SVG draw an axis for the first two. */
const UNITS_PER_CHART = 2;

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "analytics");
  const { logger } = stateOf(args.context);
  const { t } = getInstance(args.context);
  const params = args.url.searchParams;
  const [{ variables }, measurements, zone, sources] = await Promise.all([loadVariables(logger, { stored: true }), listMeasurements(logger), userTimeZone(args), loadSources(logger)]);
  const range = resolveHistoryRange(params, zone, Date.now(), measurements);
  const wanted = params.getAll("v");
  const chosen = wanted.map((id) => variables.find((v) => v.Id === id)).filter((v): v is (typeof variables)[number] => v !== undefined);
  const tooMany = chosen.length > MAX_VARIABLES;
  // A submitted form (it always sends span) without variables is a bad request, not a first visit.
  const noVariables = params.has("span") && chosen.length === 0;
  const { compare, problem: compareProblem } = resolveComparison(params, range, zone, measurements);
  const visible = { from: range.from, to: range.to };
  const shift = compare?.shift ?? 0;
  const other = { from: visible.from + shift, to: visible.to + shift };
  // Retention: a range that ends before the oldest data the chosen variables' sources keep.
  const oldest = oldestKept(chosen, sources);
  const beyond = !range.problem && oldest !== null && visible.to <= oldest ? oldest : null;
  const cmpBeyond = compare && oldest !== null && other.to <= oldest ? oldest : null;
  // Each problem goes with the part of the form it concerns.
  const only = (...texts: (string | null)[]) => texts.filter((p): p is string => p !== null);
  const problems = {
    v: only(noVariables ? t("history.analytics.noVariables") : null, tooMany ? t("history.analytics.tooMany", { max: MAX_VARIABLES }) : null),
    range: only(range.problem ? t(range.problem) : null, beyond !== null ? t("history.analytics.beyondRetention", { oldest: localText(beyond, zone) }) : null),
    cmp: only(compareProblem ? t(compareProblem) : null, cmpBeyond !== null ? t("history.analytics.cmpBeyondRetention", { oldest: localText(cmpBeyond, zone) }) : null),
  };
  // A bad comparison still shows A (the problem is named next to the comparison fields).
  const shown = range.problem || tooMany || beyond !== null ? [] : chosen;
  const withB = compare && cmpBeyond === null ? compare : null;
  const cmpName = withB ? (withB.measurement?.Name ?? t(`history.analytics.cmpLabel.${withB.kind}`, { start: localText(withB.from, zone) })) : "";
  // Alarm and measurement events in the visible range, marked on the charts of their variables.
  // The operator annotations over that range, and the alarm rules' limits of those variables (issue 26 §6).
  const [events, notes, limits] = shown.length
    ? await Promise.all([loadRangeEvents(logger, visible, featureOpen(auth, "alarming")), loadAnnotations(logger, auth, visible), loadLimits(logger, shown)])
    : [null, [], {}];
  const charts = await Promise.all(
    chartGroups(shown).map(async (vars) => {
      const [main, cmp] = await Promise.all([loadSeries(logger, vars, visible), withB ? loadSeries(logger, vars, other) : null]);
      const ids = vars.map((v) => v.Id);
      return { vars: vars.map(info), events: events ? eventsFor(events, ids) : [], annotations: annotationsFor(notes, ids), limits: limitsOf(limits, ids), ...overlay(main, cmp, vars, cmpName) };
    }),
  );
  const [stats, cmpStats] = await Promise.all([loadStatistics(logger, shown, visible), withB ? loadStatistics(logger, shown, other) : null]);
  return keptData(args.context, {
    variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName, Precision: v.Precision })),
    measurements: measurements.map((m) => ({ ID: m.ID, Name: m.Name })),
    selected: chosen.map((v) => v.Id),
    range,
    /** The compare choice as typed (kept on errors), and the comparison drawn. */
    cmpChoice: { cmp: params.get("cmp") ?? "", cmpAt: cmpAtInput(params.get("cmpAt"), zone) },
    compare: withB ? { kind: withB.kind, name: cmpName, from: other.from, to: other.to, baseFrom: withB.from } : null,
    problems,
    charts,
    stats: stats.stats,
    cmpStats: cmpStats?.stats ?? [],
    statsError: stats.error ?? cmpStats?.error ?? null,
    mayAnnotate: mayAddAnnotations(auth),
  });
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
  const t = useT();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const fmt = useFormatters();
  const location = useLocation();
  const { range, charts, compare, problems, cmpChoice } = loaderData;
  const here = `${location.pathname}${location.search}`;
  const hasProblems = problems.v.length + problems.range.length + problems.cmp.length > 0;
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
  // Quick ranges, zoom out and back: links that keep the variables and comparison, `back` the range left.
  const current = { from: range.from, to: range.to, preset: range.span === "preset" && !range.zoomed ? range.preset : null };
  const withRange = (set: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    for (const k of ["zf", "zt", "from", "to", "m", "range", "back"]) next.delete(k);
    next.set("back", rangeToken(current));
    set(next);
    return `?${next}`;
  };
  const presetHref = (p: RangePreset) => withRange((n) => (n.set("span", "preset"), n.set("range", p)));
  const out = zoomedOut(current);
  const zoomOutHref = withRange((n) => (n.set("span", "absolute"), n.set("from", String(out.from)), n.set("to", String(out.to))));
  const back = parseRangeToken(params.get("back"));
  const backHref = back
    ? (() => {
        const next = new URLSearchParams(params);
        for (const k of ["zf", "zt", "from", "to", "m", "range", "back"]) next.delete(k);
        if ("preset" in back) (next.set("span", "preset"), next.set("range", back.preset));
        else (next.set("span", "absolute"), next.set("from", String(back.from)), next.set("to", String(back.to)));
        return `?${next}`;
      })()
    : null;
  const resetHref = (() => {
    const next = new URLSearchParams(params);
    next.delete("zf");
    next.delete("zt");
    return `?${next}`;
  })();
  return (
    <ChartNotesContext.Provider value={{ mayAdd: loaderData.mayAnnotate, back: here }}>
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{t("nav.analytics")}</h1>
      {/* The one way to pick a relative range: the quick ranges (links that keep the choice). */}
      <QuickRanges current={current.preset} presetHref={presetHref} zoomOutHref={zoomOutHref} backHref={backHref} />
      <Form method="get" className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="analytics-form">
        <VariablePicker variables={loaderData.variables} selected={loaderData.selected} errors={problems.v} />
        <RangeFields range={range} measurements={loaderData.measurements} idPrefix="analytics" errors={problems.range} quickRanges />
        <fieldset className="flex flex-wrap items-end gap-4" aria-invalid={problems.cmp.length ? true : undefined} aria-describedby={problems.cmp.length ? "compare-error" : undefined} data-testid="compare-fields">
          <legend className="mb-1 text-sm font-medium">{t("history.analytics.compareLegend")}</legend>
          {problems.cmp.length > 0 && (
            <div className="basis-full">
              <FieldsetError id="compare-error" errors={problems.cmp} />
            </div>
          )}
          <label className="flex max-w-md flex-col gap-1 text-sm font-medium">
            {t("history.analytics.compare")}
            <select name="cmp" defaultValue={cmpChoice.cmp} className={inputClass}>
              <option value="">{t("history.analytics.noCompare")}</option>
              <optgroup label={t("history.analytics.compareRanges")}>
                {COMPARE_PRESETS.map((p) => (
                  <option key={p} value={p}>
                    {t(`history.analytics.cmpChoice.${p}`)}
                  </option>
                ))}
                <option value="at">{t("history.analytics.cmpChoice.at")}</option>
              </optgroup>
              <optgroup label={t("history.analytics.compareMeasurements")}>
                {loaderData.measurements.map((m) => (
                  <option key={m.ID} value={m.ID}>
                    {m.Name}
                  </option>
                ))}
              </optgroup>
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.analytics.cmpAt")}
            <DateTimeField name="cmpAt" label={t("history.analytics.cmpAt")} value={cmpChoice.cmpAt} />
          </label>
          <p className="basis-full text-xs font-normal text-slate-500">{t("history.analytics.compareHint")}</p>
        </fieldset>
        <div>
          <button type="submit" className={buttonClass}>
            {t("history.analytics.show")}
          </button>
        </div>
      </Form>
      {charts.length === 0 && !hasProblems && <p className="text-slate-600 dark:text-slate-300">{t("history.analytics.pick")}</p>}
      {charts.length > 0 && (
        <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="visible-range">
          <span data-testid="range-a">
            {compare ? `${t("history.analytics.rangeA")}: ` : ""}
            {fmt.dateTime(range.from)} – {fmt.dateTime(range.to)}
          </span>
          {compare && (
            <span data-testid="range-b">
              {t("history.analytics.rangeB", { name: compare.name })}: {fmt.dateTime(compare.from)} – {fmt.dateTime(compare.to)}
            </span>
          )}
          {range.zoomed && (
            <Link to={resetHref} preventScrollReset className="text-brand hover:underline">
              {t("history.analytics.resetZoom")}
            </Link>
          )}
          <Link to={annotationsHref({ from: range.from, to: range.to, variables: loaderData.selected, back: here })} className="text-brand hover:underline" data-testid="analytics-notes">
            {t("history.analytics.notes", { count: charts.reduce((n, c) => n + c.annotations.length, 0) })}
          </Link>
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
              <ChartWidget
                series={c.series}
                vars={[...c.vars, ...c.extra]}
                from={range.from}
                to={range.to}
                follow={false}
                events={c.events}
                annotations={c.annotations}
                limits={c.limits}
                approx={{ width: 1100, height: 300 }}
                syncKey="analytics"
                onZoom={onZoom}
                onReset={onReset}
                overlay={compare && c.extra.length ? { origin: range.base.from, pairs: c.vars.length } : undefined}
                svg={(look) => (
                  <SvgChart
                    series={c.series!}
                    vars={[...c.vars, ...c.extra]}
                    from={range.from}
                    to={range.to}
                    overlay={compare && c.extra.length ? { origin: range.base.from, pairs: c.vars.length } : undefined}
                    events={c.events}
                    annotations={c.annotations}
                    annotationLabel={(a) => noteLabel(look.annotationWord, a)}
                    limits={c.limits}
                    {...look}
                  />
                )}
              />
            </div>
          )}
        </div>
      ))}
      {loaderData.stats.length > 0 && <StatisticsTable stats={loaderData.stats} cmpStats={loaderData.cmpStats} compareName={compare?.name ?? null} variables={loaderData.variables} />}
      {loaderData.statsError && <FormErrors errors={[t(loaderData.statsError)]} />}
    </section>
    </ChartNotesContext.Provider>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.analytics");
}
