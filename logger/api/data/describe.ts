import type { DataContext } from "../../model/context.ts";
import type { DataFormat, Variable } from "../../model/types.ts";
import { hasMeasurements } from "../../store/measurements.ts";
import type { Measurement } from "../../store/measurements.ts";
import type { Db } from "../../store/db.ts";
import type { SeriesSource, SeriesVariable } from "../../store/series/store.ts";
import { horizonMs } from "./common.ts";
import type { Area } from "./common.ts";

// The objects of the data contract (LOGGER-API.md, "Data"): every listed field present with its
// type, numbers never null. Loggia's own fields ride beside them.

/** A stored variable the model no longer (or never) described: an imported or removed one. */
const FLOAT32_MAX = 3.4028234663852886e38;

type Direction = Variable["Direction"];

/** Position among inputs and among outputs (-1 where the variable is not one), in list order. */
function directionIndexes<T extends { Direction: Direction }>(vars: readonly T[]): (T & { IndexIn: number; IndexOut: number })[] {
  let ins = 0;
  let outs = 0;
  return vars.map((v) => ({
    ...v,
    IndexIn: v.Direction === "O" ? -1 : ins++,
    IndexOut: v.Direction === "I" ? -1 : outs++,
  }));
}

/**
 * Index is the position in the whole listing, as IndexIn/IndexOut are among its inputs/outputs:
 * a data source numbers its variables from 0 (logger/sources/manager.ts), so with two sources, or
 * one beside the simulator, the model's own Index repeats.
 */
export const onlineVariables = (vars: readonly Variable[]) => directionIndexes(vars.map((v, Index) => ({ ...v, Index })));

export type SourceInfo = {
  Id: string;
  Name: string;
  Index: number;
  SampleRateHz: number;
  AbsoluteStart: number;
  LastTimeStamp: number;
  AvailableTimeSec: number;
  Variables: string[];
};

/** First and last stored sample of a source in ms (over every segment), or null before the first. */
function storedRange(data: DataContext, sourceId: string): { first: number; last: number } | null {
  let first = Infinity;
  let last = -Infinity;
  for (const v of data.store.variablesOf(sourceId)) {
    for (const part of data.store.partsOf(v)) {
      const vs = part.vs;
      if (vs.end < 0 || vs.first < 0) continue;
      first = Math.min(first, (vs.first * part.periodUs) / 1000);
      last = Math.max(last, ((vs.end - 1) * part.periodUs) / 1000);
    }
  }
  return Number.isFinite(last) ? { first, last } : null;
}

/** Newest stored sample of a source in ms (null before the first). */
export const lastStored = (data: DataContext, sourceId: string): number | null => storedRange(data, sourceId)?.last ?? null;

export function describeSource(data: DataContext, src: SeriesSource, area: Area, index: number): SourceInfo {
  const range = storedRange(data, src.Id);
  // Before the first sample both times are "now": clients parse them as numbers, never null.
  const end = range?.last ?? data.now();
  const start = range ? Math.min(end, Math.max(range.first, horizonMs(data, src, area))) : end;
  return {
    Id: src.Id,
    Name: src.Name,
    Index: index,
    SampleRateHz: 1e6 / src.PeriodUs,
    AbsoluteStart: start,
    LastTimeStamp: end,
    AvailableTimeSec: Math.max(0, (end - start) / 1000),
    Variables: data.store.variablesOf(src.Id).map((v) => v.Id),
  };
}

export type SourceVariable = {
  Id: string;
  Name: string;
  Index: number;
  Unit: string;
  DataFormat: DataFormat;
  Direction: Direction;
  IndexIn: number;
  IndexOut: number;
  Precision: number;
  RangeMin: number;
  RangeMax: number;
  /** "Digital" for BOOL, else "Analog". */
  Type: "Analog" | "Digital";
};

/** A source's stored variables, completed from the live model where it still knows them. */
export function sourceVariables(data: DataContext, src: SeriesSource): SourceVariable[] {
  const model = new Map(data.model.variables.map((v) => [v.Id, v]));
  const list = data.store.variablesOf(src.Id).map((v: SeriesVariable, Index) => {
    const m = model.get(v.Id);
    const DataFormat = m?.DataFormat ?? "FLOAT";
    return {
      Id: v.Id,
      Name: v.Name,
      Index,
      Unit: v.Unit,
      DataFormat,
      Direction: m?.Direction ?? ("I" as Direction),
      Precision: m?.Precision ?? 3,
      RangeMin: m?.RangeMin ?? -FLOAT32_MAX,
      RangeMax: m?.RangeMax ?? FLOAT32_MAX,
      Type: DataFormat === "BOOL" ? ("Digital" as const) : ("Analog" as const),
    };
  });
  return directionIndexes(list);
}

/** What every measurement of one source shares: read once per listing, not once per measurement. */
export type SourceFacts = { src: SeriesSource | undefined; last: number | null; vars: SourceVariable[] | null };

export function sourceFacts(data: DataContext, sourceId: string, withVars: boolean): SourceFacts {
  const src = data.store.source(sourceId);
  return { src, last: lastStored(data, sourceId), vars: withVars && src ? sourceVariables(data, src) : null };
}

/**
 * A measurement as the contract lists it. AbsoluteStart/LastTimeStamp are what can still be read
 * (retention and the buffer's hour cut the start; a running one ends at its newest sample);
 * Loggia adds End (null while running).
 */
export function describeMeasurement(
  data: DataContext,
  m: Measurement & { MatchedOn?: string[]; Kind?: MeasurementKind },
  area: Area,
  index: number,
  add: { vars: boolean; meta: boolean },
  source: SourceFacts = sourceFacts(data, m.SourceId, add.vars),
) {
  const { src, last: stored, vars: sourceVars } = source;
  const last = stored ?? m.Start;
  // The time of its last sample: End is exclusive (a stop, or one period past an import's last row).
  const lastInside = m.End === null || !src ? last : Math.min(last, (Math.ceil((m.End * 1000) / src.PeriodUs) - 1) * (src.PeriodUs / 1000));
  const end = Math.max(m.Start, lastInside);
  const start = src ? Math.min(end, Math.max(m.Start, horizonMs(data, src, area))) : m.Start;
  const vars = add.vars && sourceVars ? sourceVars.filter((v) => m.Variables.includes(v.Id)) : null;
  return {
    Id: m.ID,
    Name: m.Name,
    Index: index,
    Kind: m.Kind ?? "Measurement",
    SourceId: m.SourceId,
    SampleRateHz: src ? 1e6 / src.PeriodUs : 0,
    AbsoluteStart: start,
    LastTimeStamp: end,
    AvailableTimeSec: Math.max(0, (end - start) / 1000),
    StartDate: new Date(m.Start).toISOString(),
    End: m.End,
    Variables: vars ?? m.Variables,
    ...(add.meta ? { MetaData: m.MetaData } : {}),
    ...(m.MatchedOn ? { MatchedOn: m.MatchedOn } : {}),
  };
}

export type MeasurementKind = "Measurement" | "Continuous";

/**
 * The continuous recording of a source as a measurement (Kind "Continuous", Id = the source's
 * Id): everything the source stored, ongoing while it acquires. Clients of the family read
 * history by measurement (`mid:`), so data recorded outside any started measurement stays
 * readable to them. null before the first sample, and for a source the logger does not acquire
 * that has measurements (an imported one: its imports are its measurements).
 */
export async function continuousMeasurement(data: DataContext, db: Db, src: SeriesSource | undefined): Promise<(Measurement & { Kind: MeasurementKind }) | null> {
  if (!src) return null;
  const range = storedRange(data, src.Id);
  if (!range) return null;
  const acquiring = data.model.sources.some((s) => s.Id === src.Id);
  if (!acquiring && (await hasMeasurements(db, src.Id))) return null;
  return {
    ID: src.Id,
    Name: `${src.Name} (continuous)`,
    Kind: "Continuous",
    Start: range.first,
    End: acquiring ? null : range.last,
    SourceId: src.Id,
    Variables: data.store.variablesOf(src.Id).map((v) => v.Id),
    MetaData: [],
  };
}
