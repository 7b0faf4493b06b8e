import { z } from "zod";
import { invalidParam, notFound } from "../../http/errors.ts";
import type { RestRequest, RestRoute } from "../../http/rest.ts";
import { drainedWithin } from "../../http/pacing.ts";
import { pacedWork } from "../../http/answer-stream.ts";
import type { Work } from "../../http/answer-stream.ts";
import { HEAVY_VALUES, heavyKey } from "../../http/heavy.ts";
import { ceilDiv, finestPeriod, planQuery } from "../../store/series/query.ts";
import type { Plan } from "../../store/series/query.ts";
import type { Part, SeriesVariable } from "../../store/series/store.ts";
import type { VarSeries } from "../../store/series/writer.ts";
import type { RowReader } from "../../store/series/ranges.ts";
import { epochMs, horizonMs, storedVariable } from "./common.ts";
import type { Area } from "./common.ts";
import { CsvSettings, RowBuffer, aggregateTrack, headerLines, timeCell } from "./csv.ts";
import { BLOCK_SAMPLES } from "../../store/series/blocks.ts";
import { zoneOffset } from "./timefmt.ts";
import { continuousMeasurement, lastStored } from "./describe.ts";
import { getMeasurement } from "../../store/measurements.ts";
import type { Measurement } from "../../store/measurements.ts";
import { writeSeriesJson } from "./series-json.ts";
import { streamUdbf } from "./udbf-export.ts";
import type { SeriesHead } from "./series-json.ts";

export const MAX_POINTS = 100_000;
/** Raw JSON answers above this many values are refused: ask for Points (principle 4). */
export const MAX_RAW_JSON = 1_000_000;
/** JSON answers with more buckets than this are refused (a tiny Interval over a long range). */
export const MAX_JSON_BUCKETS = 1_000_000;
/** …and with more values (buckets × variables) than this. */
export const MAX_JSON_VALUES = 10_000_000;
/** CSV streams with flat memory, but a request for more rows than this is no export anyone waits for. */
export const MAX_CSV_ROWS = 10_000_000_000;
const CSV_SLICE = 2000;

const Selector = z.string().regex(/^(latest|mid:.+)$/, 'Selector must be "latest" or "mid:<measurement id>"');
const VarRef = z.union([
  // The vendor's history clients name bare variable ids beside a SID/MID of the request.
  z.string().min(1).transform((VID) => ({ VID, SID: undefined, Selector: undefined })),
  z.object({ SID: z.union([z.string(), z.number()]).transform(String).optional(), VID: z.string().min(1), Selector: Selector.optional() }),
]);

const HistoryData = z.object({
  Start: epochMs.default(0),
  End: epochMs.default(0),
  Variables: z.array(VarRef).min(1).max(100),
  /** The source of bare variable ids (and of every variable with POST /history/data/{sid}). */
  SID: z.union([z.string(), z.number()]).transform(String).optional(),
  /** A measurement for every variable without its own Selector. */
  MID: z.union([z.string(), z.number()]).transform(String).optional(),
  Points: z.number().int().min(1).max(MAX_POINTS).optional(),
  /** Resample at this bucket width (ms, a whole number of the fastest variable's periods) instead of Points. */
  Interval: z.number().positive().max(86_400_000 * 366).optional(),
  Type: z.enum(["equidistant", "absolute"]).default("equidistant"),
  Format: z.enum(["json", "csv", "udbf"]).default("json"),
  /** Loggia: what a resampled row of a UDBF file holds (CSV takes CSVSettings.Aggregate). */
  Aggregate: z.enum(["mean", "min", "max", "last"]).default("mean"),
  /** Decimals of every value; -1 = as stored. */
  Precision: z.number().int().min(-1).max(15).default(-1),
  TimeZone: z.string().max(64).optional(),
  /** Shifting times is left to TimeZone: only 0 is accepted, rather than ignored. */
  TimeOffset: z.literal(0, { error: "TimeOffset is not supported; give TimeZone instead" }).optional(),
  AddVarMapping: z.boolean().optional(),
  CSVSettings: CsvSettings.optional(),
});

// parts: the variable's segments that overlap the range (more than one after a rate change);
// vs and periodUs: its only part, for the raw fast paths (null when it has several or none).
type Column = { v: SeriesVariable; parts: Part[]; vs: VarSeries | null; periodUs: number };

/** The measurement the selectors name (one for the whole request), checked against each variable. */
async function selectedMeasurement(r: RestRequest, refs: { SID: string; VID: string; Selector: string }[]): Promise<Measurement | null> {
  const ids = new Set(refs.filter((x) => x.Selector !== "latest").map((x) => x.Selector.slice(4)));
  if (ids.size === 0) return null;
  if (ids.size > 1) throw invalidParam("All variables of one request must select the same measurement");
  const id = [...ids][0]!;
  const m = (await getMeasurement(r.ctx.db, id)) ?? (await continuousMeasurement(r.ctx.data, r.ctx.db, r.ctx.data.store.source(id)));
  // Never data from elsewhere: the measurement must exist, on this source, with this variable.
  if (!m) throw notFound(`Unknown measurement ${id}`);
  for (const x of refs) {
    if (x.Selector === "latest") throw invalidParam("All variables of one request must select the same measurement");
    if (x.SID !== m.SourceId || !m.Variables.includes(x.VID)) throw notFound(`Measurement ${id} has no variable ${x.VID} of source ${x.SID}`);
  }
  return m;
}

async function history(r: RestRequest, area: Area, pathSid?: string): Promise<void> {
  const p = await r.input(HistoryData);
  const data = r.ctx.data;
  const now = data.now();
  const refs = p.Variables.map((x) => ({
    VID: x.VID,
    SID: pathSid ?? x.SID ?? p.SID ?? "",
    Selector: x.Selector ?? (p.MID !== undefined ? `mid:${p.MID}` : "latest"),
  }));
  if (pathSid && p.Variables.some((x) => x.SID !== undefined && x.SID !== pathSid)) throw invalidParam(`Every variable must be of source ${pathSid}`);
  for (const x of refs) if (!x.SID) throw invalidParam(`Variable ${x.VID} needs a SID`);
  const m = await selectedMeasurement(r, refs);

  // A measurement's own range when Start and End are 0; with one, 0 means its start or end.
  const mEnd = m ? (m.End ?? now) : now;
  let end = p.End === 0 ? mEnd : p.End;
  let start = p.Start < 0 ? end + p.Start : p.Start === 0 && m ? m.Start : p.Start;
  if (m) {
    start = Math.max(start, m.Start);
    end = Math.min(end, mEnd);
    if (!(end > start)) throw invalidParam(`The range lies outside measurement ${m.Name}`);
  }
  if (!(end > start)) throw invalidParam("End must be after Start");
  if (start < 0) throw invalidParam("Start lies before 1970");

  const columns: Column[] = refs.map(({ SID, VID }) => {
    const { v, src } = storedVariable(data, SID, VID);
    const horizon = horizonMs(data, src, area);
    if (end <= horizon) {
      throw invalidParam(`The range ends before ${new Date(horizon).toISOString()}, the oldest data ${area === "buffer" ? "the buffer" : "source " + src.Name} keeps`);
    }
    const parts = data.store.partsOf(v, start * 1000, end * 1000);
    const only = parts.length === 1 ? parts[0]! : null;
    return { v, parts, vs: only?.vs ?? null, periodUs: only?.periodUs ?? src.PeriodUs };
  });
  const zone = p.TimeZone ?? "UTC";
  if (!zoneOffset(zone)) throw invalidParam(`Unknown TimeZone ${zone}`);

  // The finest period any column has in the range: raw answers use its grid.
  const primary = finestPeriod(columns.map((c) => c.parts), Math.min(...columns.map((c) => c.periodUs)));
  if (p.Interval !== undefined && p.Points !== undefined) throw invalidParam("Give Points or Interval, not both");
  const plan = p.Interval !== undefined ? planInterval(Math.round(start * 1000), Math.round(end * 1000), p.Interval, primary) : planQuery(Math.round(start * 1000), Math.round(end * 1000), p.Points, primary);
  // Every answer has a cap, decided from the plan before any work; answers stream as they are
  // computed (memory stays flat), so the caps bound the time one request takes, not its memory.
  const values = plan.size * columns.length;
  if (p.Format === "json" && !plan.bucketed && values > MAX_RAW_JSON) {
    throw invalidParam(`The range holds ${values} samples (${columns.length} variables × ${plan.size}), more than ${MAX_RAW_JSON} (the cap on raw values per JSON answer); set Points (at most ${MAX_POINTS}) or Format csv`);
  }
  if (p.Format === "json" && plan.bucketed && plan.size > MAX_JSON_BUCKETS) {
    throw invalidParam(`The range holds ${plan.size} buckets of ${(plan.w * plan.periodUs) / 1000} ms, more than ${MAX_JSON_BUCKETS} buckets (the cap per JSON answer); choose a larger Interval, fewer Points or a shorter range`);
  }
  if (p.Format === "json" && plan.bucketed && values > MAX_JSON_VALUES) {
    throw invalidParam(`The answer would hold ${values} values (${columns.length} variables × ${plan.size} buckets), more than ${MAX_JSON_VALUES} values (the cap on buckets × variables per JSON answer); choose fewer variables, a larger Interval, fewer Points or a shorter range`);
  }
  if (p.Format !== "json" && plan.size > MAX_CSV_ROWS) {
    throw invalidParam(`The range holds ${plan.size} rows, more than ${MAX_CSV_ROWS} (the cap on rows per CSV or UDBF answer); choose a larger Interval or a shorter range`);
  }
  const round = rounder(p.Precision);
  const settings = p.Format === "csv" ? (p.CSVSettings ?? CsvSettings.parse({})) : null;
  const cell = settings ? timeCell(settings, zone) : null;
  if (cell && "problem" in cell) throw invalidParam(cell.problem);

  // Heavy answers (many values, long exports) take a place per user and in all, and share one lane of CPU.
  const heavy = (p.Format !== "json" ? plan.size * (columns.length + 1) : values) > HEAVY_VALUES;
  const release = heavy ? await data.heavy.gate.admit(heavyKey(r.caller, r.req), r.res) : null;
  try {
    const work: Work = heavy ? (w) => data.heavy.lane.run(w) : pacedWork();
    const idleMs = data.heavy.gate.limits.idleMs;
    if (settings && cell) return await streamCsv(r, plan, columns, settings, cell, round, work, idleMs);
    if (p.Format === "udbf") return await streamUdbf(r, plan, columns, p.Aggregate, work, idleMs);

    const first = (plan.g0 * plan.periodUs) / 1000;
    // More may still arrive inside the range: it reaches the newest sample of a source still written.
    const updating = m ? m.End === null : columns.some((c) => {
      const last = lastStored(data, c.v.SourceId);
      return last !== null && end >= last && data.model.sources.some((s) => s.Id === c.v.SourceId);
    });
    const head: SeriesHead = {
      Type: p.Type,
      Format: "json",
      Unit: "ms",
      // The time of the first value (the family's client indexes value k at Start + k × Delta), as AbsoluteStart.
      Start: first,
      AbsoluteStart: first,
      Delta: (plan.w * plan.periodUs) / 1000,
      End: end,
      Size: plan.size,
      MeasurementId: m?.ID ?? "",
      Updating: updating,
    };
    const variables = p.AddVarMapping ? columns.map((c) => ({ SID: c.v.SourceId, VID: c.v.Id, Name: c.v.Name, Unit: c.v.Unit })) : undefined;
    await writeSeriesJson(r.res, { head, plan, columns, store: data.store, round, work, idleMs, timestamps: p.Type === "absolute", variables });
  } finally {
    release?.();
  }
}

/** Values rounded to the request's Precision (the identity for -1). */
type Round = <T extends number | null>(values: T[]) => T[];
const identity: Round = (values) => values;
function rounder(precision: number): Round {
  if (precision < 0) return identity;
  const f = 10 ** precision;
  return (values) => values.map((v) => (v === null ? v : Math.round(v * f) / f)) as typeof values;
}

function planInterval(startUs: number, endUs: number, intervalMs: number, periodUs: number): Plan {
  const w = (intervalMs * 1000) / periodUs;
  if (!Number.isInteger(w)) throw invalidParam(`Interval must be a whole multiple of the sample period (${periodUs / 1000} ms)`);
  const a0 = ceilDiv(startUs, periodUs);
  const b0 = ceilDiv(endUs, periodUs);
  const g0 = Math.floor(a0 / w) * w;
  return { startUs, endUs, periodUs, g0, w, size: Math.max(0, ceilDiv(b0 - g0, w)), bucketed: true };
}

// Slice by slice, waiting for the socket to drain: memory stays flat however long the export.
async function streamCsv(r: RestRequest, plan: Plan, columns: Column[], s: CsvSettings, time: (ms: number) => string, round: Round, work: Work, idleMs: number): Promise<void> {
  const { res, ctx } = r;
  res.writeHead(200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="history.csv"', "Cache-Control": "no-store" });
  res.write(headerLines(s, columns.map((c) => (c.v.Unit ? `${c.v.Name} [${c.v.Unit}]` : c.v.Name))));
  const delimiter = s.ColumnSeparator.charCodeAt(0);
  // Raw samples of the fastest variables come straight from their blocks; others via buckets.
  const direct = columns.map((c) => c.vs !== null && !plan.bucketed && plan.w === 1 && c.periodUs === plan.periodUs && round === identity);
  for (let k0 = 0; k0 < plan.size; k0 += CSV_SLICE) {
    if (res.destroyed) return;
    const k1 = Math.min(plan.size, k0 + CSV_SLICE);
    // The slice's rows in one read (on PostgreSQL it may run twice: fetch, then fill; no side
    // effects). work() gives other requests their turns even to a client that reads as fast as we write.
    const out = await work(() => ctx.data.store.read((rows) => csvSlice(rows, plan, columns, s, time, round, direct, delimiter, k0, k1), { transient: true }));
    if (!res.write(out.buf.subarray(0, out.pos)) && !(await drainedWithin(res, idleMs))) return;
  }
  res.end();
}

function csvSlice(rows: RowReader, plan: Plan, columns: Column[], s: CsvSettings, time: (ms: number) => string, round: Round, direct: boolean[], delimiter: number, k0: number, k1: number): RowBuffer {
  const cols = columns.map((c, i) => (direct[i] ? null : aggregateTrack(rows, c.parts, plan, k0, k1, s.Aggregate)));
  // The direct columns' blocks asked for first: a run that missed rows (PostgreSQL's first,
  // thrown away) then writes no text.
  for (let i = 0; i < columns.length; i++) {
    const vs = columns[i]!.vs;
    if (!direct[i] || !vs) continue;
    const g0 = Math.max(0, plan.g0 + k0 * plan.w);
    const g1 = Math.min(vs.end, plan.g0 + k1 * plan.w);
    if (g0 >= g1) continue;
    for (let b = Math.floor(g0 / BLOCK_SAMPLES); b * BLOCK_SAMPLES < g1; b++) rows.block(vs, b);
  }
  if (rows.missed()) return new RowBuffer(0, s.DecimalSeparator);
  for (let i = 0; i < cols.length; i++) if (cols[i]) cols[i] = round(cols[i]!);
  const out = new RowBuffer((k1 - k0) * (48 + 26 * columns.length), s.DecimalSeparator);
  const blockIdx = columns.map(() => -1);
  const blocks: (Float32Array | null)[] = columns.map(() => null);
  for (let k = k0; k < k1; k++) {
    const g = plan.g0 + k * plan.w;
    out.text(time((g * plan.periodUs) / 1000));
    for (let i = 0; i < columns.length; i++) {
      out.byte(delimiter);
      const col = cols[i];
      if (col) {
        out.value(col[k - k0]);
        continue;
      }
      const vs = columns[i]!.vs!;
      if (g < 0 || g >= vs.end) continue;
      const b = Math.floor(g / BLOCK_SAMPLES);
      // One lookup per block and column, not per sample (row keys are BigInts).
      if (blockIdx[i] !== b) (blockIdx[i] = b), (blocks[i] = rows.block(vs, b));
      const block = blocks[i];
      if (block && g - b * BLOCK_SAMPLES < block.length) out.value(block[g - b * BLOCK_SAMPLES]!);
    }
    out.byte(13);
    out.byte(10);
  }
  return out;
}

export const historyRoutes: RestRoute[] = [
  {
    method: "POST",
    pattern: /^\/(buffer|history)\/data$/,
    handler: (r) => history(r, r.args[0] as Area),
  },
  {
    method: "POST",
    // (import sessions live under /history/data/import)
    pattern: /^\/history\/data\/(?!import$)([^/]+)$/,
    handler: (r) => history(r, "history", r.args[0]),
  },
];
