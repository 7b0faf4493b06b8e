import type { Chunk } from "./blocks.ts";

// min/max/sum/count of the samples of a range; count 0 = no data (gap). NaN samples are gaps.
export type Summary = { min: number; max: number; sum: number; count: number };

export const emptySummary = (): Summary => ({ min: Infinity, max: -Infinity, sum: 0, count: 0 });

export function resetSummary(s: Summary): Summary {
  s.min = Infinity;
  s.max = -Infinity;
  s.sum = 0;
  s.count = 0;
  return s;
}

export function addSamples(s: Summary, data: Float32Array, from: number, to: number): void {
  let { min, max, sum, count } = s;
  for (let i = from; i < to; i++) {
    const v = data[i]!;
    if (v !== v) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    count++;
  }
  s.min = min;
  s.max = max;
  s.sum = sum;
  s.count = count;
}

export function addBuckets(s: Summary, c: Chunk, from: number, to: number): void {
  let { min, max, sum, count } = s;
  const cn = c.count;
  for (let i = from; i < to; i++) {
    const n = cn[i]!;
    if (n === 0) continue;
    const lo = c.min[i]!;
    const hi = c.max[i]!;
    if (lo < min) min = lo;
    if (hi > max) max = hi;
    sum += c.sum[i]!;
    count += n;
  }
  s.min = min;
  s.max = max;
  s.sum = sum;
  s.count = count;
}

export function addSummary(s: Summary, o: Summary): void {
  if (o.count === 0) return;
  if (o.min < s.min) s.min = o.min;
  if (o.max > s.max) s.max = o.max;
  s.sum += o.sum;
  s.count += o.count;
}

export function putBucket(c: Chunk, pos: number, s: Summary): void {
  if (s.count === 0) {
    c.min[pos] = Number.NaN;
    c.max[pos] = Number.NaN;
    c.sum[pos] = 0;
    c.count[pos] = 0;
  } else {
    c.min[pos] = s.min;
    c.max[pos] = s.max;
    c.sum[pos] = s.sum;
    c.count[pos] = s.count;
  }
  if (pos >= c.length) c.length = pos + 1;
}
