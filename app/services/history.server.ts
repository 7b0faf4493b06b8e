import type { LoggerClient } from "./logger/client.server";
import { selector } from "./variables.server";
import { measurement, measurementsAnswer, sourcesAnswer, statisticsAnswer, timeSeriesAnswer, type Measurement, type Source, type Variable, type VariableStatistics } from "./logger/schemas";
import { toLocalInput } from "~/ui/dashboard/timeRange";
import { CHART_POINTS, failureText } from "./dashboards.server";
import type { SeriesData } from "~/ui/dashboard/types";
import { z } from "zod";
import type { MetaType } from "~/schemas/metadata";

// Reads of the logger's history for Analytics, the Measurement Explorer and Export.

export type MeasurementRow = Measurement & { start: number; end: number | null };

/**
 * Measurements by start, newest first (at most 10,000, the logger's cap). With `meta`, only those
 * whose own, a variable's or their device's metadata has the key (case-insensitive) and a value
 * containing the text: the logger searches, and says in MatchedOn where it matched.
 */
export async function listMeasurements(logger: LoggerClient, range: { from?: number; to?: number; meta?: { key: string; value: string } } = {}): Promise<MeasurementRow[]> {
  const search = range.meta && (range.meta.key || range.meta.value) ? { MeasMetaDataFilter: { Key: range.meta.key, Value: range.meta.value } } : {};
  const query = { Start: range.from, End: range.to, Order: "desc", Limit: MAX_MEASUREMENTS, AddMeasMetaData: true, ...search };
  // Measurements belong to sources (the contract's path): one listing per source, merged.
  const { Data: sources } = await logger.readRest("GET", "/history/structure/sources", undefined, sourcesAnswer);
  const lists = await Promise.all(sources.map((s) => logger.readFresh("POST", `/history/structure/sources/${encodeURIComponent(s.Id)}/measurements`, query, measurementsAnswer)));
  return lists
    .flatMap((l) => l.Data)
    // A source's whole recording (Loggia's "Continuous") is what the range picker already offers.
    .filter((m) => m.Kind !== "Continuous")
    .map((m) => ({ ...m, start: m.Start, end: m.End }))
    .sort((a, b) => b.start - a.start || (a.ID < b.ID ? -1 : 1))
    .slice(0, MAX_MEASUREMENTS);
}

/** The logger's cap per listing, and the console's over all sources. */
const MAX_MEASUREMENTS = 10_000;

export async function deleteMeasurement(logger: LoggerClient, id: string) {
  return logger.rest("DELETE", `/history/structure/measurements/${encodeURIComponent(id)}`, undefined, z.object({}).loose());
}

export async function setMeasurementMetaData(logger: LoggerClient, id: string, entries: { Key: string; Value: string }[]) {
  return logger.rest("POST", `/history/structure/measurements/${encodeURIComponent(id)}/metadata`, { MetaData: entries }, z.object({ Data: measurement }));
}


/** Bucketed series (exact min/mean/max per bucket) of some variables over a range. */
export async function loadSeries(logger: LoggerClient, vars: Variable[], range: { from: number; to: number }, points = CHART_POINTS): Promise<{ series: SeriesData | null; error: string | null }> {
  if (vars.length === 0) return { series: null, error: null };
  try {
    const { Data } = await logger.rest("POST", "/history/data", { Start: Math.round(range.from), End: Math.round(range.to), Variables: vars.map(selector), Points: points, Type: "equidistant", Format: "json" }, timeSeriesAnswer);
    const ts = Data.TimeSeries;
    return { series: { start: ts.AbsoluteStart, delta: ts.Delta, size: ts.Size, values: ts.Values, min: ts.Min, max: ts.Max }, error: null };
  } catch (error) {
    return { series: null, error: failureText(error) };
  }
}

/** Exact statistics per variable over [from, to), computed by the logger. */
export async function loadStatistics(logger: LoggerClient, vars: Variable[], range: { from: number; to: number }): Promise<{ stats: VariableStatistics[]; error: string | null }> {
  if (vars.length === 0) return { stats: [], error: null };
  try {
    const { Data } = await logger.rest("POST", "/history/statistics", { Start: Math.round(range.from), End: Math.round(range.to), Variables: vars.map(selector) }, statisticsAnswer);
    return { stats: Data.Statistics, error: null };
  } catch (error) {
    return { stats: [], error: failureText(error) };
  }
}

const metaRows = z.object({ MetaData: z.array(z.object({ Type: z.string(), ID: z.string(), Key: z.string(), Value: z.string() })) });
export type MetaRow = z.infer<typeof metaRows>["MetaData"][number];

export const getMetaData = (logger: LoggerClient, filter: { Type?: MetaType; ID?: string } = {}) => logger.readFreshRpc("MetaDataAPI.GetMetaData", filter, metaRows).then((a) => a.MetaData);
export const getMetaKeys = (logger: LoggerClient) => logger.readFreshRpc("MetaDataAPI.GetKeys", {}, z.object({ Keys: z.array(z.string()) })).then((a) => a.Keys);
export const setMetaData = (logger: LoggerClient, type: MetaType, id: string, entries: { Key: string; Value: string }[]) =>
  logger.rpc("MetaDataAPI.SetMetaData", { Type: type, ID: id, MetaData: entries }, z.object({ MetaData: z.array(z.object({ Key: z.string(), Value: z.string() })) }));

/** The logger's sources (their AbsoluteStart is the oldest sample kept); none when it cannot say. */
export async function loadSources(logger: LoggerClient): Promise<Source[]> {
  try {
    return (await logger.readFresh("GET", "/history/structure/sources", undefined, sourcesAnswer)).Data;
  } catch {
    return []; // the retention check is a courtesy; the data queries report an unreachable logger
  }
}

/**
 * The latest "oldest kept sample" over the chosen variables' sources (null when unknown): a range
 * ending at or before it has no data for at least one of them (retention, or before recording).
 */
export function oldestKept(vars: Pick<Variable, "SourceId">[], sources: Pick<Source, "Id" | "AbsoluteStart">[]): number | null {
  let oldest: number | null = null;
  for (const v of vars) {
    const start = sources.find((s) => s.Id === v.SourceId)?.AbsoluteStart;
    if (typeof start === "number" && (oldest === null || start > oldest)) oldest = start;
  }
  return oldest;
}

/** An instant as the user reads it in messages: "2026-01-01 10:00" in their zone. */
export const localText = (ms: number, zone: string) => toLocalInput(ms, zone).replace("T", " ");
