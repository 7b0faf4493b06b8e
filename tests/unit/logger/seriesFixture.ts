import { mulberry32 } from "../../../logger/sim/prng.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";

// "A series store with this data" (issue 25): one source `src` with one variable `v`, random
// batches written into it, and every sample kept beside it for brute force — what the series
// tests compare the store's answers with.

export function openSeries(dir: string, periodUs = 1000): SeriesStore {
  const store = new SeriesStore(dir);
  store.defineSource({ Id: "src", Name: "Source", PeriodUs: periodUs });
  store.defineVariable({ Id: "v", SourceId: "src", Name: "Value", Unit: "V" });
  return store;
}

/** Every sample written (NaN gaps left out): its time (`at`, in the unit the test chose) and value. */
export type Truth = { at: number[]; v: number[] };
export const newTruth = (): Truth => ({ at: [], v: [] });

export type FillOptions = {
  /** The first sample index and how many to write. */
  from: number;
  count: number;
  seed: number;
  /** Largest batch appended at once. */
  maxBatch: number;
  /** Chance of a flush after a batch. */
  flushChance: number;
  /** Whether batches may leave gaps between them (one in ten does, sometimes longer than a level-3 bucket). */
  gaps?: boolean;
  /** The last batch stops at `count` samples (else it may run past it). */
  exact?: boolean;
  /** A sample's time in the truth: its index × this (1: the index itself). */
  unit?: number;
};

/** Random batches with 1 % NaN gaps into `v`; returns the sample index after the last written. */
export function fillRandom(store: SeriesStore, o: FillOptions, truth: Truth): number {
  const rnd = mulberry32(o.seed);
  const unit = o.unit ?? 1;
  let g = o.from;
  let written = 0;
  while (written < o.count) {
    const want = 1 + Math.floor(rnd() * o.maxBatch);
    const n = o.exact ? Math.min(o.count - written, want) : want;
    const batch = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      batch[i] = rnd() < 0.01 ? Number.NaN : (rnd() - 0.5) * 1000;
      if (!Number.isNaN(batch[i]!)) truth.at.push((g + i) * unit), truth.v.push(batch[i]!);
    }
    store.append("v", g, batch);
    g += n;
    written += n;
    if (o.gaps && rnd() < 0.1) g += Math.floor(rnd() * 300_000);
    if (rnd() < o.flushChance) store.flush();
  }
  return g;
}

function lowerBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What the samples in [a, b) say, by brute force: min, max, sum, count, std, first and last time. */
export function brute(truth: Truth, a: number, b: number) {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  const from = lowerBound(truth.at, a);
  const to = lowerBound(truth.at, b);
  for (let i = from; i < to; i++) {
    const v = truth.v[i]!;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
    count++;
  }
  let squares = 0;
  for (let i = from; i < to; i++) squares += (truth.v[i]! - sum / count) ** 2;
  return { min, max, sum, count, std: Math.sqrt(squares / count), first: truth.at[from], last: truth.at[to - 1] };
}
