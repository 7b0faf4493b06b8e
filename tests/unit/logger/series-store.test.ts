import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { BLOCK_SAMPLES, CHUNK_BUCKETS, decodeBlock, decodeChunk, emptyChunk, encodeBlock, encodeChunk } from "../../../logger/store/series/blocks.ts";
import { bucketColumn, bucketColumns, bucketSamples, ceilDiv, mean9, planQuery } from "../../../logger/store/series/query.ts";
import { summarize } from "../../../logger/store/series/ranges.ts";
import { emptySummary } from "../../../logger/store/series/rollups.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { mulberry32 } from "../../../logger/sim/prng.ts";
import { tempDir } from "./helpers.ts";
import { brute, fillRandom, newTruth, openSeries, type Truth } from "./seriesFixture.ts";

const dirs: string[] = [];
const newDir = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Appends random batches with random gaps and NaNs to `v`; the truth keeps every sample by its index. */
function fill(store: SeriesStore, start: number, total: number, seed: number, truth: Truth): number {
  return fillRandom(store, { from: start, count: total, seed, maxBatch: 3000, flushChance: 0.2, gaps: true }, truth);
}

function expectSame(got: { min: number; max: number; sum: number; count: number }, want: ReturnType<typeof brute>, where: string) {
  expect(got.count, where).toBe(want.count);
  if (want.count === 0) return;
  expect(got.min, where).toBe(want.min);
  expect(got.max, where).toBe(want.max);
  expect(got.sum / got.count, where).toBeCloseTo(want.sum / want.count, 6);
}


describe("series blocks", () => {
  it("round-trips raw blocks and rollup chunks, including partial ones and NaN gaps", () => {
    const raw = new Float32Array(BLOCK_SAMPLES).map((_, i) => (i % 7 === 0 ? Number.NaN : i * 0.25 - 100));
    const back = decodeBlock(encodeBlock(raw, 1234));
    expect(back.length).toBe(1234);
    for (let i = 0; i < 1234; i++) expect(Object.is(back[i], raw[i])).toBe(true);

    const c = emptyChunk();
    for (let i = 0; i < 300; i++) {
      c.min[i] = -i;
      c.max[i] = i * 2;
      c.sum[i] = i * 1.5e9 + 0.125;
      c.count[i] = i % 65;
    }
    c.length = 300;
    const d = decodeChunk(encodeChunk(c));
    expect(d.length).toBe(300);
    expect(Array.from(d.sum.subarray(0, 300))).toEqual(Array.from(c.sum.subarray(0, 300)));
    expect(Array.from(d.count.subarray(0, 300))).toEqual(Array.from(c.count.subarray(0, 300)));
    expect(d.count[300]).toBe(0);
    expect(CHUNK_BUCKETS * 20).toBe(BLOCK_SAMPLES * 4);
  });
});

describe("answered means", () => {
  it("are rounded to 9 significant digits exactly as toPrecision(9) reads back, ties and edges too", () => {
    const want = (v: number) => Number(v.toPrecision(9));
    const rnd = mulberry32(11);
    const values: number[] = [0, -0, 1, -1, 0.1, 1e-12, 123456789, 999999999.5, 9.999999995, 1e9, 1e10, 1e-30, 5e-324, Number.MAX_VALUE];
    for (let k = 0; k <= 22; k++) {
      const p = 10 ** k;
      // Powers of ten and their neighbours, where the estimate of the magnitude may be off by one.
      for (const x of [p, 1 / p]) values.push(x, x * (1 + 2 ** -52), x * (1 - 2 ** -53));
      // Ties after the 9th digit and the doubles beside them: where the arithmetic cannot decide alone.
      for (let i = 0; i < 200; i++) {
        const n = 1e8 + Math.floor(rnd() * 9e8);
        const tie = (n + 0.5) / 10 ** (k - 8 + Math.floor(rnd() * 3));
        values.push(tie, tie * (1 + 2 ** -52), tie * (1 - 2 ** -53));
      }
    }
    // Means as the store makes them: sums of float32 samples over a count, every magnitude, both signs.
    for (let i = 0; i < 200_000; i++) {
      const scale = 10 ** (Math.floor(rnd() * 25) - 12);
      let sum = 0;
      const count = 1 + Math.floor(rnd() * 100);
      for (let j = 0; j < Math.min(count, 4); j++) sum += Math.fround((rnd() - 0.3) * scale);
      values.push(sum / count, (rnd() - 0.5) * scale);
    }
    for (const v of values) for (const x of [v, -v]) if (!Object.is(mean9(x), want(x))) expect(mean9(x), `${x}`).toBe(want(x));
    expect(values.length).toBeGreaterThan(400_000);
  });
});

describe("series store", () => {
  it("rollups give exact min, max and mean for random ranges (brute force)", () => {
    const store = openSeries(newDir());
    const truth = newTruth();
    const start = 1_700_000_000_000;
    const end = fill(store, start, 400_000, 42, truth);
    const vs = store.seriesOf(store.variable("v")!);
    const rnd = mulberry32(7);
    for (let t = 0; t < 60; t++) {
      const a = start - 1000 + Math.floor(rnd() * (end - start + 2000));
      const len = [10, 100, 5000, 70_000, 600_000][t % 5]!;
      const b = a + Math.floor(rnd() * len) + 1;
      const s = emptySummary();
      summarize(store.reader(), vs, a, b, 3, s);
      expectSame(s, brute(truth, a, b), `[${a}, ${b})`);
    }
    store.close();
  });

  it("answers buckets whose edges match a brute-force split of the range", () => {
    const store = openSeries(newDir());
    const truth = newTruth();
    const start = 1_700_000_000_000;
    const end = fill(store, start, 300_000, 3, truth);
    const vs = store.seriesOf(store.variable("v")!);
    const rnd = mulberry32(9);
    for (const points of [1, 7, 100, 1000]) {
      const a = start + Math.floor(rnd() * 1000) * 1000 + 333; // µs, off the sample grid
      const b = (end - Math.floor(rnd() * 5000)) * 1000 + 17;
      const plan = planQuery(a, b, points, 1000);
      expect(plan.size).toBeLessThanOrEqual(points);
      expect(plan.size).toBeGreaterThanOrEqual(Math.min(points / 2, Math.ceil((b - a) / 1000)) - 1);
      const cols = bucketColumns(store.reader(), vs, 1000, plan, 0, plan.size);
      // One statistic alone (what streamed answers and exports ask for) is that column of all three;
      // so it is over raw samples (no Points: a bucket per sample).
      const raw = planQuery(a, a + 5_000_000, undefined, 1000);
      for (const stat of ["mean", "min", "max"] as const) {
        expect(bucketColumn(store.reader(), vs, 1000, plan, 0, plan.size, stat), `${points} points, ${stat}`).toEqual(cols[stat]);
        expect(bucketColumn(store.reader(), vs, 1000, raw, 0, raw.size, stat), `raw, ${stat}`).toEqual(bucketColumns(store.reader(), vs, 1000, raw, 0, raw.size)[stat]);
      }
      let covered = 0;
      for (let k = 0; k < plan.size; k++) {
        const [sa, sb] = bucketSamples(plan, k, 1000);
        // Buckets tile the requested range exactly: each starts where the previous ended.
        expect(sa).toBe(k === 0 ? ceilDiv(a, 1000) : bucketSamples(plan, k - 1, 1000)[1]);
        covered += sb - sa;
        const want = brute(truth, sa, sb);
        if (want.count === 0) {
          expect(cols.mean[k]).toBeNull();
          continue;
        }
        expect(Math.fround(cols.min[k]!)).toBe(want.min);
        expect(Math.fround(cols.max[k]!)).toBe(want.max);
        expect(cols.mean[k]!).toBeCloseTo(want.sum / want.count, 4);
      }
      expect(covered).toBe(ceilDiv(b, 1000) - ceilDiv(a, 1000));
    }
    store.close();
  });

  it("reopens mid-bucket and keeps rollups exact for data appended afterwards", () => {
    const dir = newDir();
    const truth = newTruth();
    const start = 1_700_000_000_123;
    let store = openSeries(dir);
    let g = fill(store, start, 150_000, 11, truth);
    store.close();
    store = openSeries(dir);
    const vs = store.seriesOf(store.variable("v")!);
    expect(vs.end).toBe(g);
    g = fill(store, g, 150_000, 12, truth);
    store.close();
    store = openSeries(dir);
    const s = emptySummary();
    summarize(store.reader(), store.seriesOf(store.variable("v")!), start, g, 3, s);
    expectSame(s, brute(truth, start, g), "whole range after two reopenings");
    store.close();
  });

  it("deletes blocks and rollups past the retention horizon", () => {
    const dir = newDir();
    const store = openSeries(dir);
    const now = 1_800_000_000_000;
    const g0 = (now - 3 * 86400_000) * 1; // 1 kHz: index = ms
    const day = new Float32Array(86400_000 / 100).fill(1); // every 100th ms is enough data to test with
    for (let d = 0; d < 3; d++) store.append("v", g0 + d * 86400_000, day);
    store.flush();
    const rows = () => (store.db.prepare("SELECT count(*) AS n FROM series_rows").get() as { n: number }).n;
    const before = rows();
    expect(store.applyRetention(now)).toBe(0);
    store.setRetention("src", 36 * 3600);
    const deleted = store.applyRetention(now);
    expect(deleted).toBeGreaterThan(0);
    expect(rows()).toBe(before - deleted);
    const vs = store.seriesOf(store.variable("v")!);
    const horizon = store.horizonIndex(store.source("src")!, now)!;
    expect(vs.first).toBeGreaterThanOrEqual(horizon - BLOCK_SAMPLES);
    const s = emptySummary();
    summarize(store.reader(), vs, g0, g0 + 86400_000, 0, s);
    expect(s.count).toBe(0);
    store.close();
  });
});
