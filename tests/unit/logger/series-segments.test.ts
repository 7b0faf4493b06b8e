import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../../logger/sim/prng.ts";
import { bucketTime, f32, finestPeriod, planQuery, trackColumn, trackColumns } from "../../../logger/store/series/query.ts";
import { trackStatistics } from "../../../logger/store/series/statistics.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { tempDir } from "./helpers.ts";
import { brute, fillRandom, newTruth, openSeries, type Truth } from "./seriesFixture.ts";

// A source whose sample rate changes (docs/decisions/0008): queries, statistics and rollups
// across the boundaries must be exactly what the samples say, also after a restart.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T0 = Date.UTC(2026, 0, 1) * 1000; // µs
/** n samples at the current period from sample index g, random values with a few NaN gaps; times in µs. */
function fill(store: SeriesStore, periodUs: number, g: number, n: number, seed: number, truth: Truth) {
  return fillRandom(store, { from: g, count: n, seed, maxBatch: 5000, flushChance: 0.3, exact: true, unit: periodUs }, truth);
}

/** 1 kHz, then 100 Hz, then 500 Hz: three segments with different periods. */
function build(store: SeriesStore, truth: Truth) {
  let g = fill(store, 1000, T0 / 1000, 50_000, 1, truth);
  const s1 = store.changePeriod("src", 10_000, 0);
  expect(s1.StartUs).toBe(Math.ceil((g * 1000) / 10_000) * 10_000);
  // A late sample of the old rate, before the new segment starts, is dropped.
  store.append("v", s1.StartUs / 10_000 - 1, new Float32Array([123456]));
  g = fill(store, 10_000, s1.StartUs / 10_000, 20_000, 2, truth);
  const s2 = store.changePeriod("src", 2000, (g * 10_000) + 3_000_000); // a 3 s pause before the new rate
  fill(store, 2000, s2.StartUs / 2000, 30_000, 3, truth);
  store.flush();
}

function check(store: SeriesStore, truth: Truth, seed: number) {
  const rnd = mulberry32(seed);
  const v = store.variable("v")!;
  const span = truth.at[truth.at.length - 1]! - truth.at[0]! + 2_000_000;
  for (let q = 0; q < 40; q++) {
    const t0 = truth.at[0]! - 1_000_000 + Math.floor(rnd() * span);
    const t1 = t0 + 1000 + Math.floor(rnd() * (span / 2));
    const parts = store.partsOf(v, t0, t1);
    const points = 1 + Math.floor(rnd() * 300);
    const plan = planQuery(t0, t1, points, finestPeriod([parts], 1000));
    const cols = trackColumns(store.reader(), parts, plan, 0, plan.size);
    // One statistic alone (what streamed answers and exports ask for) is that column of all three.
    for (const stat of ["mean", "min", "max"] as const) expect(trackColumn(store.reader(), parts, plan, 0, plan.size, stat), `query ${q} ${stat}`).toEqual(cols[stat]);
    for (let k = 0; k < plan.size; k++) {
      const [b0, b1] = bucketTime(plan, k);
      const want = brute(truth, b0, b1);
      const where = `query ${q} bucket ${k}`;
      if (want.count === 0) {
        expect(cols.mean[k], where).toBeNull();
        continue;
      }
      expect(cols.min[k], where).toBe(f32(want.min));
      expect(cols.max[k], where).toBe(f32(want.max));
      expect(cols.mean[k]!, where).toBeCloseTo(want.sum / want.count, 3);
    }
    const st = trackStatistics(() => store.reader(), parts, t0, t1, Infinity);
    const want = brute(truth, t0, t1);
    expect(st.count, `statistics ${q}`).toBe(want.count);
    if (want.count > 0) {
      expect(st.min).toBe(want.min);
      expect(st.max).toBe(want.max);
      expect(st.mean!).toBeCloseTo(want.sum / want.count, 6);
      expect(st.std!).toBeCloseTo(want.std, 6);
      expect(st.first!.timeMs).toBe(want.first! / 1000);
      expect(st.last!.timeMs).toBe(want.last! / 1000);
    }
  }
}

describe("series store: period changes", () => {
  it("answers buckets and statistics across rate changes exactly, also after a restart", () => {
    const dir = tempDir();
    dirs.push(dir);
    const truth = newTruth();
    let store = openSeries(dir);
    build(store, truth);
    expect(store.segmentsOf("src").map((s) => s.PeriodUs)).toEqual([1000, 10_000, 2000]);
    expect(store.source("src")!.PeriodUs).toBe(2000);
    expect(truth.v).not.toContain(123456);
    check(store, truth, 7);
    // Raw (one sample per bucket) across a boundary: the grid of the finest period.
    const v = store.variable("v")!;
    const boundary = store.segmentsOf("src")[1]!.StartUs;
    const parts = store.partsOf(v, boundary - 50_000, boundary + 50_000);
    expect(parts.map((p) => p.periodUs)).toEqual([1000, 10_000]);
    const plan = planQuery(boundary - 50_000, boundary + 50_000, undefined, finestPeriod([parts], 1000));
    const raw = trackColumns(store.reader(), parts, plan, 0, plan.size);
    expect(plan.size).toBe(100);
    expect(raw.mean.slice(0, 50).filter((x) => x !== null).length).toBe(brute(truth, boundary - 50_000, boundary).count);
    expect(raw.mean.slice(50).filter((x) => x !== null).length).toBe(brute(truth, boundary, boundary + 50_000).count);
    store.close();

    store = openSeries(dir, 2000);
    expect(store.segmentsOf("src").map((s) => s.PeriodUs)).toEqual([1000, 10_000, 2000]);
    check(store, truth, 8);
    // Acquisition continues in the current segment after the restart.
    const end = store.seriesOf(store.variable("v")!).end;
    fill(store, 2000, end, 5000, 4, truth);
    check(store, truth, 9);
    store.close();

    // A restart at another rate starts a new segment after what is stored.
    store = openSeries(dir, 20_000);
    expect(store.segmentsOf("src").map((s) => s.PeriodUs)).toEqual([1000, 10_000, 2000, 20_000]);
    const seg = store.segmentsOf("src")[3]!;
    fill(store, 20_000, seg.StartUs / 20_000 + 10, 3000, 5, truth);
    check(store, truth, 10);
    store.close();
  });

  it("changes the period of a source that holds no samples in place", () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = openSeries(dir);
    store.changePeriod("src", 5000, 0);
    expect(store.segmentsOf("src")).toEqual([{ Seq: 0, StartUs: 0, PeriodUs: 5000 }]);
    const truth = newTruth();
    fill(store, 5000, T0 / 5000, 1000, 6, truth);
    const s = trackStatistics(() => store.reader(), store.partsOf(store.variable("v")!), 0, Number.MAX_SAFE_INTEGER, Infinity);
    expect(s.count).toBe(truth.v.length);
    store.close();
  });

  it("drops whole segments that fall behind the retention horizon", () => {
    const dir = tempDir();
    dirs.push(dir);
    const truth = newTruth();
    const store = openSeries(dir);
    build(store, truth);
    const segs = store.segmentsOf("src");
    // Keep from just after the second boundary: the first two segments go.
    const nowMs = (segs[2]!.StartUs + 10_000_000) / 1000;
    store.setRetention("src", 10);
    store.applyRetention(nowMs);
    const v = store.variable("v")!;
    const old = trackStatistics(() => store.reader(), store.partsOf(v, 0, segs[1]!.StartUs), 0, segs[1]!.StartUs, Infinity);
    // The block being filled when the segment closed may stay in memory; nothing else remains.
    expect(old.count).toBeLessThan(4080);
    const kept = trackStatistics(() => store.reader(), store.partsOf(v, segs[2]!.StartUs, Number.MAX_SAFE_INTEGER), segs[2]!.StartUs, Number.MAX_SAFE_INTEGER, Infinity);
    expect(kept.count).toBe(brute(truth, segs[2]!.StartUs, Number.MAX_SAFE_INTEGER).count);
    store.close();
  });
});
