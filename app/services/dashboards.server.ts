import { z } from "zod";
import { ALARM_ROWS_DEFAULT, ALARM_SEVERITIES, contentSchema, type DashboardContent, type Widget } from "~/schemas/dashboards";
import type { LoggerClient } from "./logger/client.server";
import { LoggerError } from "./logger/errors";
import { alarmsAnswer, dashboardListAnswer, emptyAnswer, timeSeriesAnswer, type Alarm, type Variable } from "./logger/schemas";
import type { ChartSource } from "~/ui/dashboard/serverCharts";
import { CHART_POINTS } from "~/ui/dashboard/timeRange";
import type { AlarmItem, DashboardData, SeriesData, WidgetData } from "~/ui/dashboard/types";
import { withCurrentValues } from "./alarmFigures.server";
import { onlineVariables, readValues, selector } from "./variables.server";
import { eventsFor, loadRangeEvents } from "./chartEvents.server";
import { loadAnnotations } from "./annotations.server";
import type { AuthState } from "./auth-state.server";
import { annotationsFor } from "~/ui/dashboard/annotations";
import { limitsOf, loadLimits } from "./limits.server";

const dashboardAnswer = z.object({
  Dashboard: z.object({ ID: z.string(), Name: z.string(), IsDefault: z.boolean(), Version: z.number(), Content: z.unknown() }),
});
const savedAnswer = z.object({ ID: z.string(), Version: z.number() });

export interface StoredDashboard {
  ID: string;
  Name: string;
  IsDefault: boolean;
  Version: number;
  /** null when the stored content is not one this console can draw (another tool wrote it). */
  content: DashboardContent | null;
}

export const listDashboards = (logger: LoggerClient) => logger.readRpc("WebUIAPI.List", {}, dashboardListAnswer).then((a) => a.List);

// The stored content checked once per logger answer (the client's cache keeps its identity while
// it is valid), not once per page: every viewer of a dashboard re-parsed the same widgets.
const checkedContent = new WeakMap<object, DashboardContent | null>();

/**
 * The dashboard, or null when it does not exist (any more) — also when the logger refuses the id
 * itself (400: an address's `?edit=` with a line break or 300 characters): no dashboard has it.
 */
export async function getDashboard(logger: LoggerClient, id: string): Promise<StoredDashboard | null> {
  try {
    const { Dashboard: d } = await logger.readRpc("WebUIAPI.GetDashboard", { ID: id }, dashboardAnswer);
    let content = checkedContent.get(d);
    if (content === undefined) {
      const parsed = contentSchema.safeParse(d.Content);
      content = parsed.success ? parsed.data : null;
      checkedContent.set(d, content);
    }
    return { ID: d.ID, Name: d.Name, IsDefault: d.IsDefault, Version: d.Version, content };
  } catch (error) {
    if (error instanceof LoggerError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export const saveDashboard = (logger: LoggerClient, d: { ID?: string; Name: string; Content: DashboardContent; Version?: number }) =>
  logger.rpc("WebUIAPI.SaveDashboard", { Dashboard: d }, savedAnswer);
export const removeDashboard = (logger: LoggerClient, id: string) => logger.rpc("WebUIAPI.RemoveDashboard", { ID: id }, emptyAnswer);

// ---- History (WebUIAPI.ListDashboardVersions, GetDashboard {Version}, RestoreDashboardVersion) ----

const versionsAnswer = z.object({ Current: z.number(), Kept: z.number().optional(), Versions: z.array(z.object({ Version: z.number(), Name: z.string(), Updated: z.string(), Author: z.string().default("") })) });
const versionAnswer = z.object({ Dashboard: z.object({ ID: z.string(), Name: z.string(), Version: z.number(), Updated: z.string(), Author: z.string().default(""), Content: z.unknown() }) });

export const listDashboardVersions = (logger: LoggerClient, id: string) => logger.readRpc("WebUIAPI.ListDashboardVersions", { ID: id }, versionsAnswer);

/** A kept version with its content checked (null: not kept any more, or not drawable by this console). */
export async function getDashboardVersion(logger: LoggerClient, id: string, version: number): Promise<{ Name: string; Version: number; Updated: string; Author: string; Content: DashboardContent } | null> {
  try {
    const { Dashboard: d } = await logger.readRpc("WebUIAPI.GetDashboard", { ID: id, Version: version }, versionAnswer);
    const content = contentSchema.safeParse(d.Content);
    return content.success ? { Name: d.Name, Version: d.Version, Updated: d.Updated, Author: d.Author, Content: content.data } : null;
  } catch (error) {
    if (error instanceof LoggerError && error.status === 404) return null;
    throw error;
  }
}

export const restoreDashboardVersion = (logger: LoggerClient, id: string, version: number, current?: number) =>
  logger.rpc("WebUIAPI.RestoreDashboardVersion", { ID: id, Version: version, ...(current ? { CurrentVersion: current } : {}) }, savedAnswer);
export const setDefaultDashboard = (logger: LoggerClient, id: string) => logger.rpc("WebUIAPI.SetDefaultDashboard", { ID: id }, emptyAnswer);

/** All variables, or an error text; the manager and the dashboard both live with a logger without data API. */
export async function tryVariables(logger: LoggerClient): Promise<{ variables: Variable[]; error: string | null }> {
  try {
    return { variables: await onlineVariables(logger), error: null };
  } catch (error) {
    return { variables: [], error: failureText(error) };
  }
}

// ---- Widget data ----

export { CHART_POINTS };
export const SPARK_POINTS = 60;
/** Current values drawn into a page may be this old: the page goes live (JS) or refreshes (≥ 5 s) anyway. */
const VALUES_MAX_AGE_MS = 1000;

/**
 * Everything the widgets show, fetched in parallel; one failing query fails only its widget.
 * `mayAlarms`: whether the viewer may see alarms (UseRulesNotifications); if not, alarm lists
 * say so and the logger is not asked.
 */
export async function loadDashboardData(logger: LoggerClient, content: DashboardContent, range: { from: number; to: number }, mayAlarms = false, auth?: AuthState): Promise<DashboardData> {
  const alarmLists = content.Widgets.filter((w) => w.Type === "alarms");
  const alarmsRead = alarmLists.length && mayAlarms ? readAlarms(logger) : null;
  const used = new Set(content.Widgets.flatMap((w) => w.Variables));
  const listed = used.size ? await tryVariables(logger) : { variables: [], error: null };
  const variables: Record<string, Variable> = {};
  for (const v of listed.variables) if (used.has(v.Id)) variables[v.Id] = v;

  // Chart events (alarms, measurements) in the range, read beside the data.
  const charts = content.Widgets.filter((w) => w.Type === "chart");
  const eventsRead = charts.length ? loadRangeEvents(logger, range, mayAlarms) : null;
  // Operator annotations in the range, each on the charts of its variables (all, when it names none).
  const notesRead = charts.length && auth ? loadAnnotations(logger, auth, range) : null;
  // Charts' variables too: their times say whether a chart that runs up to now is live (issue 15 §1).
  const current = [...new Set(content.Widgets.filter((w) => w.Type !== "alarms").flatMap((w) => w.Variables))].filter((id) => variables[id]);
  // Alarm limits of every variable shown (issue 26 §6), drawn on its charts, gauges and bars.
  const limitsRead = loadLimits(logger, Object.values(variables));
  const [values, series] = await Promise.all([
    current.length
      ? readValues(logger, current, VALUES_MAX_AGE_MS).then(
          (v) => ({ values: v, error: null }),
          (error: unknown) => ({ values: {}, error: failureText(error) }),
        )
      : { values: {}, error: null },
    Promise.all(content.Widgets.map((w) => widgetSeries(logger, w, variables, range))),
  ]);
  const widgets: Record<string, WidgetData> = {};
  content.Widgets.forEach((w, i) => (widgets[w.ID] = series[i]!));
  const alarms = alarmsRead && (await alarmsRead);
  await Promise.all(
    alarmLists.map(async (w) => {
      if (!alarms) widgets[w.ID] = { state: "forbidden" };
      else widgets[w.ID] = "error" in alarms ? { state: "error", error: alarms.error } : { state: "ok", alarms: await withCurrentValues(logger, alarmRows(alarms.list, w)) };
    }),
  );
  const events = eventsRead && (await eventsRead);
  const chartEvents = events ? Object.fromEntries(charts.map((w) => [w.ID, eventsFor(events, w.Variables)])) : undefined;
  const notes = notesRead && (await notesRead);
  const chartAnnotations = notes ? Object.fromEntries(charts.map((w) => [w.ID, annotationsFor(notes, w.Variables)])) : undefined;
  return {
    chartEvents,
    chartAnnotations,
    limits: await limitsRead,
    variables: Object.fromEntries(Object.values(variables).map((v) => [v.Id, { Id: v.Id, Name: v.Name, Unit: v.Unit, DataFormat: v.DataFormat, Precision: v.Precision, RangeMin: v.RangeMin, RangeMax: v.RangeMax }])),
    variablesError: listed.error,
    values: values.values,
    valuesError: values.error,
    widgets,
  };
}

/** The logger's alarms, one cached read for every alarm list on the page. */
export function readAlarms(logger: LoggerClient): Promise<{ list: Alarm[] } | { error: string }> {
  // Never an old answer: alarms from before the logger went away could be untrue now.
  return logger.readRpc("AlarmAPI.GetAlarms", {}, alarmsAnswer, { keep: false }).then(
    (a) => ({ list: a.Alarms }),
    (error: unknown) => ({ error: failureText(error) }),
  );
}

/** Alarm states a list shows: what is active, awaits acknowledgement or was shelved (not Normal, not out of service). */
const LISTED_STATES = new Set(["ActiveUnacknowledged", "ReturnedUnacknowledged", "ActiveAcknowledged", "Shelved"]);
const UNACKNOWLEDGED = new Set(["ActiveUnacknowledged", "ReturnedUnacknowledged"]);

/** An alarm list's rows: its filters, most severe first, then newest first; at most MaxRows. */
export function alarmRows(alarms: Alarm[], w: Widget): { rows: AlarmItem[]; total: number } {
  const o = w.Options;
  const worst = ALARM_SEVERITIES.indexOf(o.MinSeverity ?? "low");
  const vars = w.Variables.length ? new Set(w.Variables) : null;
  const rank = (a: Alarm) => ALARM_SEVERITIES.indexOf(a.Severity);
  const time = (a: Alarm) => Date.parse(a.Since) || 0;
  const matching = alarms
    .filter((a) => (o.OnlyUnacknowledged ? UNACKNOWLEDGED : LISTED_STATES).has(a.State) && rank(a) <= worst && (!vars || vars.has(a.VariableId)))
    .toSorted((a, b) => rank(a) - rank(b) || time(b) - time(a) || a.ID - b.ID);
  const rows = matching
    .slice(0, o.MaxRows ?? ALARM_ROWS_DEFAULT)
    .map((a) => ({ ID: a.ID, Name: a.Name, Severity: a.Severity, State: a.State, Value: a.Value, Unit: a.Unit, VariableId: a.VariableId, VariableName: a.VariableName, Since: a.Since, Precision: null }));
  return { rows, total: matching.length };
}

async function widgetSeries(logger: LoggerClient, w: Widget, variables: Record<string, Variable>, range: { from: number; to: number }): Promise<WidgetData> {
  const wanted = w.Type === "chart" || (w.Type === "value" && w.Options.Sparkline);
  const vars = w.Variables.map((id) => variables[id]).filter((v): v is Variable => v !== undefined);
  if (!wanted || vars.length === 0) return { state: "ok" };
  const points = w.Type === "chart" ? CHART_POINTS : SPARK_POINTS;
  try {
    const answer = await logger.readRest(
      "POST",
      "/history/data",
      {
        Start: Math.round(range.from),
        End: Math.round(range.to),
        Variables: vars.map(selector),
        Points: points,
        Type: "equidistant",
        Format: "json",
      },
      timeSeriesAnswer,
      // Buckets already complete do not change; the newest may, within one bucket width.
      (range.to - range.from) / points,
      // Large, and keyed by a range that moves on: an outage draws the remembered page's (decision 0011).
      { keep: false },
    );
    return { state: "ok", series: seriesOf(answer.Data.TimeSeries) };
  } catch (error) {
    return { state: "error", error: failureText(error) };
  }
}

type TimeSeries = z.output<typeof timeSeriesAnswer>["Data"]["TimeSeries"];
// One answer (cached by the logger client) is rounded once, and keeps its identity for the SVG cache.
const rounded = new WeakMap<TimeSeries, SeriesData>();

function seriesOf(ts: TimeSeries): SeriesData {
  let series = rounded.get(ts);
  if (!series) {
    // Columns follow the widget's variable order, so deleted variables leave no hole.
    const digits = ts.Values.map((col, i) => decimalsFor([col, ts.Min?.[i], ts.Max?.[i]]));
    const round = (cols: (number | null)[][] | undefined) => cols?.map((col, i) => roundColumn(col, digits[i]!));
    series = { start: ts.AbsoluteStart, delta: ts.Delta, size: ts.Size, values: round(ts.Values)!, min: round(ts.Min), max: round(ts.Max) };
    rounded.set(ts, series);
  }
  return series;
}

/**
 * The page's share of the data: charts travel as a summary only. Their SVG is drawn into the
 * HTML on the server and uPlot fetches the buckets itself (/dashboard/series), so a page never
 * carries 8,000 numbers per chart twice.
 */
export function pageData(data: DashboardData, content: DashboardContent): DashboardData {
  const widgets: Record<string, WidgetData> = {};
  for (const w of content.Widgets) {
    const d = data.widgets[w.ID];
    if (w.Type === "chart" && d?.state === "ok" && d.series) {
      const s = d.series;
      widgets[w.ID] = { state: "ok", chart: { size: s.size, empty: s.values.every((col) => col.every((v) => v === null)) } };
    } else if (d) widgets[w.ID] = d;
  }
  // Chart events travel with the buckets (/dashboard/series), not in the page.
  return { ...data, widgets, chartEvents: undefined, chartAnnotations: undefined };
}

/** The charts the server draws as SVG into this page. */
export function chartSources(data: DashboardData, content: DashboardContent, range: { from: number; to: number }): Map<string, ChartSource> {
  const charts = new Map<string, ChartSource>();
  for (const w of content.Widgets) {
    const d = data.widgets[w.ID];
    if (w.Type !== "chart" || d?.state !== "ok" || !d.series) continue;
    const vars = w.Variables.map((id) => data.variables[id]).filter((v) => v !== undefined);
    charts.set(w.ID, {
      series: d.series,
      vars,
      from: range.from,
      to: range.to,
      thresholds: w.Options.Thresholds,
      events: data.chartEvents?.[w.ID],
      limits: limitsOf(data.limits, w.Variables),
      annotations: data.chartAnnotations?.[w.ID],
    });
  }
  return charts;
}

/**
 * Decimals that keep 1/20,000 of a series' own span: far below a pixel, but float32 values
 * printed in full (88.12345886230469) would make the page several times larger.
 */
function decimalsFor(cols: ((number | null)[] | undefined)[]): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const col of cols) for (const v of col ?? []) if (v !== null) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
  const span = hi - lo || Math.abs(hi) || 1;
  return Math.min(12, Math.max(0, -Math.floor(Math.log10(span / 20_000))));
}

function roundColumn(col: (number | null)[], digits: number): (number | null)[] {
  const f = 10 ** digits;
  return col.map((v) => (v === null ? null : Math.round(v * f) / f));
}

/** A logger refusal in its own words (spec §8); unreachable or garbled answers as an i18n key. */
export function failureText(error: unknown): string {
  // The logger's places for large reads are all taken (429, docs/logger-api.md "Heavy requests").
  if (error instanceof LoggerError && error.status === 429) return "dashboards.widget.busy";
  if (error instanceof LoggerError) return error.message;
  const reason = (error as { data?: { reason?: string } } | null)?.data?.reason;
  if (reason === "logger-bad-answer") return "dashboards.widget.badAnswer";
  if (reason === "logger-unavailable") return "dashboards.widget.unreachable";
  return "dashboards.widget.failed";
}
