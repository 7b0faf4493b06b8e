import { BLOCK_SAMPLES, TOP } from "./blocks.ts";
import { summarize } from "./ranges.ts";
import type { RowReader } from "./ranges.ts";
import { emptySummary } from "./rollups.ts";
import type { VarSeries } from "./writer.ts";
import { partSamples } from "./query.ts";
import type { Part, SeriesStore } from "./store.ts";

/** Statistics of samples [a, b) of one variable; null fields when the range holds no sample. */
export type Statistics = {
  count: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  /** Population standard deviation (divides by count). */
  std: number | null;
  rms: number | null;
  first: { index: number; value: number } | null;
  last: { index: number; value: number } | null;
};

/** Raw blocks a fresh reader may cache before it is replaced: bounds memory on long scans. */
const READER_BLOCKS = 256;

/**
 * min, max, count and the sum (hence the mean) come from the rollups (exact: float32 extremes,
 * float64 sums). The rollups hold no sum of squares, so the spread is a second pass over the raw
 * samples around that exact mean — numerically stable — done only when the range holds at most
 * `maxRaw` samples; beyond that std and rms are null.
 */
export function statistics(reader: () => RowReader, vs: VarSeries | null, a: number, b: number, maxRaw: number): Statistics {
  const out: Statistics = { count: 0, min: null, max: null, mean: null, std: null, rms: null, first: null, last: null };
  if (!vs || vs.end < 0) return out;
  a = Math.max(a, 0);
  b = Math.min(b, vs.end);
  if (a >= b) return out;
  const s = emptySummary();
  summarize(reader(), vs, a, b, TOP, s);
  if (s.count === 0) return out;
  const mean = s.sum / s.count;
  Object.assign(out, { count: s.count, min: s.min, max: s.max, mean });
  out.first = edgeSample(reader, vs, a, b, 1);
  out.last = edgeSample(reader, vs, a, b, -1);
  if (b - a <= maxRaw) {
    let squares = 0;
    scan(reader, vs, a, b, (v) => {
      const d = v - mean;
      squares += d * d;
    });
    const variance = squares / s.count;
    out.std = Math.sqrt(variance);
    out.rms = Math.sqrt(variance + mean * mean);
  }
  return out;
}

/** The raw blocks of samples [a, b): each block's data with the index range inside it. */
function* blocksOf(reader: () => RowReader, vs: VarSeries, a: number, b: number): Generator<{ data: Float32Array; from: number; to: number }> {
  let rows = reader();
  const last = Math.floor((b - 1) / BLOCK_SAMPLES);
  for (let blk = Math.floor(a / BLOCK_SAMPLES), n = 0; blk <= last; blk++, n++) {
    if (n % READER_BLOCKS === READER_BLOCKS - 1) rows = reader();
    const data = rows.block(vs, blk);
    if (!data) continue;
    const base = blk * BLOCK_SAMPLES;
    yield { data, from: Math.max(a - base, 0), to: Math.min(b - base, data.length) };
  }
}

function scan(reader: () => RowReader, vs: VarSeries, a: number, b: number, visit: (v: number) => void): void {
  for (const { data, from, to } of blocksOf(reader, vs, a, b)) {
    for (let i = from; i < to; i++) {
      const v = data[i]!;
      if (v === v) visit(v);
    }
  }
}

/** scan(), giving the event loop a turn (`pace`) between blocks: a long pass blocks no other request. */
async function scanPaced(reader: () => RowReader, vs: VarSeries, a: number, b: number, visit: (v: number) => void, pace: () => Promise<void>): Promise<void> {
  for (const { data, from, to } of blocksOf(reader, vs, a, b)) {
    for (let i = from; i < to; i++) {
      const v = data[i]!;
      if (v === v) visit(v);
    }
    await pace();
  }
}

// The first (dir 1) or last (dir -1) sample that is not a gap; the summary said one exists.
function edgeSample(reader: () => RowReader, vs: VarSeries, a: number, b: number, dir: 1 | -1): { index: number; value: number } | null {
  let rows = reader();
  const lo = Math.floor(a / BLOCK_SAMPLES);
  const hi = Math.floor((b - 1) / BLOCK_SAMPLES);
  for (let blk = dir === 1 ? lo : hi, n = 0; blk >= lo && blk <= hi; blk += dir, n++) {
    if (n % READER_BLOCKS === READER_BLOCKS - 1) rows = reader();
    const data = rows.block(vs, blk);
    if (!data) continue;
    const base = blk * BLOCK_SAMPLES;
    const from = Math.max(a - base, 0);
    const to = Math.min(b - base, data.length);
    for (let i = dir === 1 ? from : to - 1; i >= from && i < to; i += dir) {
      const v = data[i]!;
      if (v === v) return { index: base + i, value: v };
    }
  }
  return null;
}

/** Statistics over time [fromUs, toUs) of a variable made of parts; first/last carry their time in ms. */
export type TrackStatistics = Omit<Statistics, "first" | "last"> & {
  first: { timeMs: number; value: number } | null;
  last: { timeMs: number; value: number } | null;
};

/**
 * Like statistics(), across the parts of a variable whose source changed its period: the
 * summaries of the parts merge exactly (min, max, count, sum), the spread is one pass around
 * the merged mean, and first/last come from the first/last part that holds a sample.
 */
export function trackStatistics(reader: () => RowReader, parts: readonly Part[], fromUs: number, toUs: number, maxRaw: number): TrackStatistics {
  const t = trackSummary(reader, parts, fromUs, toUs);
  if (!t.spread || t.rawCount > maxRaw) return t.out;
  let squares = 0;
  for (const r of t.ranges) {
    scan(reader, r.part.vs, r.a, r.b, (v) => {
      const d = v - t.spread!;
      squares += d * d;
    });
  }
  return withSpread(t.out, squares);
}

/** trackStatistics() for request handlers: the pass over raw samples gives the event loop turns. */
export async function trackStatisticsPaced(reader: () => RowReader, parts: readonly Part[], fromUs: number, toUs: number, maxRaw: number, pace: () => Promise<void>): Promise<TrackStatistics> {
  const t = trackSummary(reader, parts, fromUs, toUs);
  if (!t.spread || t.rawCount > maxRaw) return t.out;
  let squares = 0;
  for (const r of t.ranges) {
    await scanPaced(reader, r.part.vs, r.a, r.b, (v) => {
      const d = v - t.spread!;
      squares += d * d;
    }, pace);
  }
  return withSpread(t.out, squares);
}

/** Raw blocks a PostgreSQL pass fetches and scans at a time (64 × 16 KB). */
const PG_WINDOW_BLOCKS = 64;

/**
 * trackStatistics() on either engine of the store: on SQLite reading as it goes (with `pace`,
 * the raw pass gives other requests turns); on PostgreSQL the summary's rows are fetched first
 * (SeriesStore.read), then the raw pass fetches and scans PG_WINDOW_BLOCKS blocks at a time, with
 * `pace` between windows — one read of all of them held up to 20 M samples (80 MB) at once and the
 * event loop for the whole pass (issue 24 §3).
 */
export async function trackStatisticsOf(store: SeriesStore, parts: readonly Part[], fromUs: number, toUs: number, maxRaw: number, pace?: () => Promise<void>): Promise<TrackStatistics> {
  if (store.engine === "sqlite") {
    return pace ? trackStatisticsPaced(() => store.reader(), parts, fromUs, toUs, maxRaw, pace) : trackStatistics(() => store.reader(), parts, fromUs, toUs, maxRaw);
  }
  const t = await store.read((rows) => trackSummary(() => rows, parts, fromUs, toUs));
  const mean = t.spread;
  if (mean === null || t.rawCount > maxRaw) return t.out;
  let squares = 0;
  for (const r of t.ranges) {
    for (let blk = Math.floor(r.a / BLOCK_SAMPLES), last = Math.floor((r.b - 1) / BLOCK_SAMPLES); blk <= last; blk += PG_WINDOW_BLOCKS) {
      const a = Math.max(r.a, blk * BLOCK_SAMPLES);
      const b = Math.min(r.b, (blk + PG_WINDOW_BLOCKS) * BLOCK_SAMPLES);
      // Carried through the windows (not summed per window): the same order of additions, so the
      // same bits, as the embedded engine's one pass.
      const before = squares;
      squares = await store.read((rows) => {
        let q = before;
        scan(() => rows, r.part.vs, a, b, (v) => {
          const d = v - mean;
          q += d * d;
        });
        return q;
      });
      if (pace) await pace();
    }
  }
  return withSpread(t.out, squares);
}

/** Raw samples a spread over [fromUs, toUs) of these parts reads (before the maxRaw cutoff). */
export function rawSamplesOf(parts: readonly Part[], fromUs: number, toUs: number): number {
  let n = 0;
  for (const part of parts) {
    const [a0, b0] = partSamples(part, fromUs, toUs);
    if (part.vs.end >= 0) n += Math.max(0, Math.min(b0, part.vs.end) - Math.max(a0, part.vs.first, 0));
  }
  return n;
}

function withSpread(out: TrackStatistics, squares: number): TrackStatistics {
  const mean = out.mean!;
  const variance = squares / out.count;
  out.std = Math.sqrt(variance);
  out.rms = Math.sqrt(variance + mean * mean);
  return out;
}

// Everything but the spread (from the rollups, cheap at any range), the ranges to scan for it,
// how many raw samples that pass would read, and the mean it is taken around (null: nothing to scan).
function trackSummary(reader: () => RowReader, parts: readonly Part[], fromUs: number, toUs: number) {
  const out: TrackStatistics = { count: 0, min: null, max: null, mean: null, std: null, rms: null, first: null, last: null };
  const ranges = parts
    .map((part) => {
      const [a0, b0] = partSamples(part, fromUs, toUs);
      // Nothing lies before a part's first sample: scans start there, not at the range's start.
      return { part, a: Math.max(a0, part.vs.first, 0), b: Math.min(b0, part.vs.end) };
    })
    .filter((r) => r.part.vs.end >= 0 && r.a < r.b);
  const none = { out, ranges, rawCount: 0, spread: null as number | null };
  if (ranges.length === 0) return none;
  const s = emptySummary();
  for (const r of ranges) summarize(reader(), r.part.vs, r.a, r.b, TOP, s);
  if (s.count === 0) return none;
  const mean = s.sum / s.count;
  Object.assign(out, { count: s.count, min: s.min, max: s.max, mean });
  const at = (r: (typeof ranges)[number], e: { index: number; value: number } | null) => (e ? { timeMs: (e.index * r.part.periodUs) / 1000, value: e.value } : null);
  for (const r of ranges) if ((out.first = at(r, edgeSample(reader, r.part.vs, r.a, r.b, 1)))) break;
  for (const r of [...ranges].reverse()) if ((out.last = at(r, edgeSample(reader, r.part.vs, r.a, r.b, -1)))) break;
  return { out, ranges, rawCount: ranges.reduce((n, r) => n + (r.b - r.a), 0), spread: mean };
}
