import { BLOCK_SAMPLES, LEVELS, TOP } from "./blocks.ts";
import { summarize } from "./ranges.ts";
import type { RowReader } from "./ranges.ts";
import { emptySummary, resetSummary } from "./rollups.ts";
import type { Summary } from "./rollups.ts";
import type { VarSeries } from "./writer.ts";
import type { Part } from "./store.ts";

/** Exact ceil(a / b) for non-negative integers below 2^53 (float division can round up to an integer). */
export function ceilDiv(a: number, b: number): number {
  let q = Math.ceil(a / b);
  while (q * b < a) q++;
  while (q > 0 && (q - 1) * b >= a) q--;
  return q;
}

/**
 * Buckets of an answer, in sample indices of the fastest variable ("primary"): bucket k is
 * [g0 + k·w, g0 + (k+1)·w) cut to the requested [startUs, endUs). w is a whole number of
 * buckets of the coarsest rollup level that still gives ≥ points buckets, and g0 is a multiple
 * of w, so inner bucket edges fall on rollup edges and only the two ends need finer data.
 */
export type Plan = {
  startUs: number;
  endUs: number;
  periodUs: number;
  g0: number;
  w: number;
  size: number;
  bucketed: boolean;
};

export function planQuery(startUs: number, endUs: number, points: number | undefined, periodUs: number): Plan {
  const a0 = ceilDiv(startUs, periodUs);
  const b0 = ceilDiv(endUs, periodUs);
  const n = Math.max(b0 - a0, 0);
  const base = { startUs, endUs, periodUs, bucketed: points !== undefined };
  if (points === undefined || n <= points) return { ...base, g0: a0, w: 1, size: n };
  let level = 0;
  while (level < TOP && LEVELS[level + 1]! <= n / points) level++;
  const L = LEVELS[level]!;
  for (let m = Math.max(1, Math.ceil(n / points / L)); ; m++) {
    const w = m * L;
    const g0 = Math.floor(a0 / w) * w;
    const size = Math.ceil((b0 - g0) / w);
    if (size <= points) return { ...base, g0, w, size };
  }
}

/** Sample range [a, b) of a variable sampled every periodUs that falls in bucket k. */
export function bucketSamples(p: Plan, k: number, periodUs: number): [number, number] {
  const t0 = Math.max(p.startUs, (p.g0 + k * p.w) * p.periodUs);
  const t1 = Math.min(p.endUs, (p.g0 + (k + 1) * p.w) * p.periodUs);
  if (periodUs === p.periodUs) {
    return [Math.max(p.g0 + k * p.w, ceilDiv(p.startUs, periodUs)), Math.min(p.g0 + (k + 1) * p.w, ceilDiv(p.endUs, periodUs))];
  }
  return [ceilDiv(t0, periodUs), ceilDiv(t1, periodUs)];
}

export type BucketColumns = { mean: (number | null)[]; min: (number | null)[]; max: (number | null)[] };
export type Stat = keyof BucketColumns;

// Shortest decimal that reads back as the same float32: 23.45, not 23.450000762939453.
// Rounding to p significant digits by arithmetic (checked with fround) is several times faster
// than toPrecision, which matters for exports of hundreds of millions of values; the rare value
// the arithmetic gets wrong falls back to toPrecision.
export function f32(v: number): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const mag = Math.floor(Math.log10(Math.abs(v)));
  for (let p = 6; p <= 9; p++) {
    const k = p - 1 - mag;
    if (k < -22 || k > 22) break;
    const r = k >= 0 ? Math.round(v * POW10[k]!) / POW10[k]! : Math.round(v / POW10[-k]!) * POW10[-k]!;
    if (Math.fround(r) === v) return r;
  }
  return slowF32(v);
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

function slowF32(v: number): number {
  for (let p = 6; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return s;
  }
  return Number(v.toPrecision(9));
}

/**
 * A mean as answered: Number(v.toPrecision(9)), which was the costliest step of a bucketed answer
 * (~280 ns a value). By arithmetic: the 9 digits n are v·10^k rounded, and n / 10^k is the double
 * nearest that decimal — the very value toPrecision's text reads back as — whenever n is right.
 * The product's rounding (below 10^-7 here) can only change n near a tie (…5 after the 9th
 * digit), and there toPrecision decides; so does it outside the magnitudes 10^k covers exactly.
 */
export function mean9(v: number): number {
  if (v === 0) return 0;
  const a = Math.abs(v);
  const k = 8 - Math.floor(Math.log10(a));
  if (!(k >= 0 && k <= 22)) return Number(v.toPrecision(9));
  const scaled = a * POW10[k]!;
  const n = Math.floor(scaled);
  const frac = scaled - n;
  if (scaled < 1e8 || scaled >= 1e9 || Math.abs(frac - 0.5) < 1e-6) return Number(v.toPrecision(9));
  const r = (frac > 0.5 ? n + 1 : n) / POW10[k]!;
  return v < 0 ? -r : r;
}

/** One statistic of a bucket's summary as answered: null where nothing was recorded. */
function statOf(s: Summary, stat: Stat): number | null {
  if (s.count === 0) return null;
  if (stat === "mean") return s.count === 1 ? f32(s.sum) : mean9(s.sum / s.count);
  return f32(stat === "min" ? s.min : s.max);
}

/**
 * Visits the summary of each bucket k0 ≤ k < k1 of a variable made of parts (one part, or several
 * at different periods: a source whose rate changed). Each bucket sums the samples every part
 * holds in its stretch of time, so the extremes, sums and counts across a period change are as
 * exact as within one part. The summary object is reused: read it inside `visit`.
 */
function eachBucket(rows: RowReader, parts: readonly Part[], p: Plan, k0: number, k1: number, visit: (s: Summary) => void): void {
  const s = emptySummary();
  if (parts.length === 1) {
    const { vs, periodUs } = parts[0]!;
    for (let k = k0; k < k1; k++) {
      const [a, b] = bucketSamples(p, k, periodUs);
      resetSummary(s);
      summarize(rows, vs, a, b, TOP, s);
      visit(s);
    }
    return;
  }
  for (let k = k0; k < k1; k++) {
    resetSummary(s);
    const [t0, t1] = bucketTime(p, k);
    for (const part of parts) {
      const [a, b] = partSamples(part, t0, t1);
      if (a < b) summarize(rows, part.vs, a, b, TOP, s);
    }
    visit(s);
  }
}

/** The parts of a single-period variable (vs null = never recorded). */
const single = (vs: VarSeries | null, periodUs: number): Part[] => (vs ? [{ vs, periodUs, fromUs: Number.NEGATIVE_INFINITY, toUs: Number.POSITIVE_INFINITY }] : []);

/** Buckets k0 ≤ k < k1 of one variable (vs null = never recorded: all gaps). */
export function bucketColumns(rows: RowReader, vs: VarSeries | null, periodUs: number, p: Plan, k0: number, k1: number): BucketColumns {
  return trackColumns(rows, single(vs, periodUs), p, k0, k1);
}

/** One statistic of bucketColumns: what a streamed answer or an export writes, only it computed and rounded. */
export function bucketColumn(rows: RowReader, vs: VarSeries | null, periodUs: number, p: Plan, k0: number, k1: number, stat: Stat): (number | null)[] {
  return trackColumn(rows, single(vs, periodUs), p, k0, k1, stat);
}

// One sample per bucket: read blocks straight through instead of one summary per sample.
function rawColumns(rows: RowReader, vs: VarSeries, p: Plan, k0: number, k1: number): BucketColumns {
  const mean: (number | null)[] = [];
  let blk = -1;
  let data: Float32Array | null = null;
  for (let k = k0; k < k1; k++) {
    const g = p.g0 + k;
    if (g >= vs.end || g < 0) {
      mean.push(null);
      continue;
    }
    const b = Math.floor(g / BLOCK_SAMPLES);
    if (b !== blk) {
      blk = b;
      data = rows.block(vs, b);
    }
    const v = data && g - b * BLOCK_SAMPLES < data.length ? data[g - b * BLOCK_SAMPLES]! : Number.NaN;
    mean.push(v === v ? f32(v) : null);
  }
  return { mean, min: mean, max: mean };
}

/** Buckets k0 ≤ k < k1 of one variable made of parts (no parts: never recorded, all gaps). */
export function trackColumns(rows: RowReader, parts: readonly Part[], p: Plan, k0: number, k1: number): BucketColumns {
  const raw = rawPart(parts, p);
  if (raw) return rawColumns(rows, raw, p, k0, k1);
  const out: BucketColumns = { mean: [], min: [], max: [] };
  if (parts.length === 0) {
    for (let k = k0; k < k1; k++) out.mean.push(null), out.min.push(null), out.max.push(null);
    return out;
  }
  eachBucket(rows, parts, p, k0, k1, (s) => {
    out.mean.push(statOf(s, "mean"));
    out.min.push(statOf(s, "min"));
    out.max.push(statOf(s, "max"));
  });
  return out;
}

/**
 * One statistic of trackColumns. A streamed answer writes its Values, then its Min, then its Max
 * of every variable: building all three each time formatted two values per bucket for nothing
 * (the rounding of means was the costliest step of a heavy answer).
 */
export function trackColumn(rows: RowReader, parts: readonly Part[], p: Plan, k0: number, k1: number, stat: Stat): (number | null)[] {
  const raw = rawPart(parts, p);
  if (raw) return rawColumns(rows, raw, p, k0, k1).mean;
  const out: (number | null)[] = [];
  if (parts.length === 0) {
    for (let k = k0; k < k1; k++) out.push(null);
    return out;
  }
  eachBucket(rows, parts, p, k0, k1, (s) => out.push(statOf(s, stat)));
  return out;
}

/** One sample per bucket of a single-period variable at the answer's period: read straight through. */
function rawPart(parts: readonly Part[], p: Plan): VarSeries | null {
  return parts.length === 1 && p.w === 1 && parts[0]!.periodUs === p.periodUs ? parts[0]!.vs : null;
}

/** Time span [t0, t1) in µs of bucket k, cut to the requested range. */
export function bucketTime(p: Plan, k: number): [number, number] {
  return [Math.max(p.startUs, (p.g0 + k * p.w) * p.periodUs), Math.min(p.endUs, (p.g0 + (k + 1) * p.w) * p.periodUs)];
}

/** Sample range [a, b) of a part that lies in [t0, t1) µs and in the part's own stretch of time. */
export function partSamples(part: Part, t0: number, t1: number): [number, number] {
  const from = Math.max(t0, part.fromUs);
  const to = Math.min(t1, part.toUs);
  if (!(from < to)) return [0, 0];
  return [ceilDiv(Math.max(from, 0), part.periodUs), ceilDiv(to, part.periodUs)];
}

/** The shortest period among the parts of the given tracks (the raw grid of a mixed answer). */
export function finestPeriod(tracks: readonly (readonly Part[])[], fallbackUs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const t of tracks) for (const part of t) best = Math.min(best, part.periodUs);
  return Number.isFinite(best) ? best : fallbackUs;
}
