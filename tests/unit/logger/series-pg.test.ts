import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOCK_SAMPLES } from "../../../logger/store/series/blocks.ts";
import { PARTITION_US, PgSeries } from "../../../logger/store/series/pg.ts";
import { planQuery, trackColumns } from "../../../logger/store/series/query.ts";
import { summarize } from "../../../logger/store/series/ranges.ts";
import { emptySummary } from "../../../logger/store/series/rollups.ts";
import { trackStatisticsOf } from "../../../logger/store/series/statistics.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";
import { tempDir } from "./helpers.ts";

// The series store on a real, throwaway PostgreSQL (issue 17): the same answers as the embedded
// store for the same samples, recovery after a reopen, retention by dropped partitions, and two
// loggers' schemas that never see each other's series.

const missing = postgresMissing();
let server: Postgres;

// Deterministic samples with gaps (NaN) so min/max/count differ per range.
function samples(seed: number, n: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out[i] = i % 997 === 5 ? Number.NaN : (x / 2 ** 31) * 100 - 50;
  }
  return out;
}

function fill(store: SeriesStore, start: number, data: Float32Array): void {
  store.defineSource({ Id: "s", Name: "Source", PeriodUs: 1000 });
  store.defineVariable({ Id: "v", SourceId: "s", Name: "V", Unit: "" });
  // In pieces, as an acquisition appends them.
  for (let i = 0; i < data.length; i += 777) store.append("v", start + i, data.subarray(i, Math.min(data.length, i + 777)));
}

describe.skipIf(missing)("series store on PostgreSQL", () => {
  beforeAll(async () => {
    server = await startPostgres({ port: 55452 });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers like the embedded store, and again after a reopen", async () => {
    const dir = tempDir();
    const pgb = await PgSeries.connect(server.url, "loggia_same");
    const onPg = await SeriesStore.open(pgb);
    const onFile = new SeriesStore(dir);
    const start = 1_700_000_000_000; // ms at 1 kHz: sample g is at g ms
    const data = samples(7, 600_000);
    try {
      fill(onPg, start, data);
      fill(onFile, start, data);
      await onPg.flush();
      onFile.flush();
      const v = onPg.variable("v")!;
      const fromUs = (start + 1234) * 1000;
      const toUs = (start + 590_000) * 1000;
      const plan = planQuery(fromUs, toUs, 1000, 1000);
      const want = trackColumns(onFile.reader(), onFile.partsOf(onFile.variable("v")!, fromUs, toUs), plan, 0, plan.size);
      const got = await onPg.read((rows) => trackColumns(rows, onPg.partsOf(v, fromUs, toUs), plan, 0, plan.size));
      expect(got).toEqual(want);
      const st = await trackStatisticsOf(onPg, onPg.partsOf(v, fromUs, toUs), fromUs, toUs, Infinity);
      const stFile = await trackStatisticsOf(onFile, onFile.partsOf(onFile.variable("v")!, fromUs, toUs), fromUs, toUs, Infinity);
      expect(st).toEqual(stFile);
      await onPg.close();

      // Reopened: the registry and the write state come back; appending carries on.
      const again = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_same"));
      try {
        const vs = again.seriesOf(again.variable("v")!);
        expect(vs.end).toBe(start + data.length);
        expect(vs.first).toBe(start);
        const more = samples(8, 10_000);
        again.append("v", vs.end, more);
        onFile.append("v", start + data.length, more);
        await again.flush();
        const all = [start * 1000, (start + data.length + 10_000) * 1000] as const;
        const p2 = planQuery(all[0], all[1], 1000, 1000);
        const w2 = trackColumns(onFile.reader(), onFile.partsOf(onFile.variable("v")!), p2, 0, p2.size);
        const g2 = await again.read((rows) => trackColumns(rows, again.partsOf(again.variable("v")!), p2, 0, p2.size));
        expect(g2).toEqual(w2);
        // Rollups agree with the raw samples after recovery.
        // A read may run its function more than once: each run starts from an empty summary.
        const sum = (top: number) => again.read((rows) => {
          const s = emptySummary();
          summarize(rows, vs, vs.first, vs.end, top, s);
          return s;
        });
        const a = await sum(3);
        const b = await sum(0);
        expect([a.count, a.min, a.max]).toEqual([b.count, b.min, b.max]);
      } finally {
        await again.close();
      }
    } finally {
      onFile.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs a read once more after fetching the rows it missed, and says which run missed them", async () => {
    const dir = tempDir();
    const onPg = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_missed"));
    const onFile = new SeriesStore(dir);
    const start = 1_700_000_000_000;
    const data = samples(3, 5 * BLOCK_SAMPLES);
    try {
      fill(onPg, start, data);
      fill(onFile, start, data);
      await onPg.flush();
      onFile.flush();
      const blk = Math.floor(start / BLOCK_SAMPLES) + 1;
      // The same stored block asked for twice in a row, as fine buckets do: the second answer is the first's.
      const runs = (s: SeriesStore) => {
        const seen: { before: boolean; first: number | null; again: number | null; after: boolean }[] = [];
        return s
          .read((rows) => {
            const vs = s.seriesOf(s.variable("v")!);
            const before = rows.missed();
            const first = rows.block(vs, blk)?.[7] ?? null;
            const again = rows.block(vs, blk)?.[7] ?? null;
            seen.push({ before, first, again, after: rows.missed() });
            return first;
          })
          .then((value) => ({ value, seen }));
      };
      const want = data[blk * BLOCK_SAMPLES + 7 - start]!;
      const pg = await runs(onPg);
      expect(pg.value).toBe(want);
      expect(pg.seen).toEqual([
        { before: false, first: null, again: null, after: true },
        { before: false, first: want, again: want, after: false },
      ]);
      const file = await runs(onFile);
      expect(file.value).toBe(want);
      expect(file.seen).toEqual([{ before: false, first: want, again: want, after: false }]);
    } finally {
      await onPg.close();
      onFile.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("drops whole partitions for retention and keeps two loggers' series apart", async () => {
    const a = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_a"));
    const b = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_b"));
    try {
      // 1 sample per second over five weeks on logger a; logger b has the same ids, other values.
      const periodUs = 1_000_000;
      const t0 = 3 * PARTITION_US;
      for (const [store, seed] of [[a, 1], [b, 2]] as const) {
        store.defineSource({ Id: "s", Name: "Source", PeriodUs: periodUs, RetentionSec: null });
        store.defineVariable({ Id: "v", SourceId: "s", Name: "V", Unit: "" });
        store.append("v", t0 / periodUs, samples(seed, (5 * PARTITION_US) / periodUs));
        await store.flush();
      }
      const pga = a.backend as PgSeries;
      expect(pga.partitionList().length).toBeGreaterThanOrEqual(5);
      const before = await a.size();

      const g0 = t0 / periodUs;
      const first = (s: SeriesStore) => s.read((rows) => rows.block(s.seriesOf(s.variable("v")!), Math.floor(g0 / BLOCK_SAMPLES))![g0 % BLOCK_SAMPLES]);
      expect(await first(a)).toBe(samples(1, 1)[0]);
      expect(await first(b)).toBe(samples(2, 1)[0]);

      // Keep two weeks: the partitions of the first three weeks go; nothing is deleted row by row.
      const nowMs = (t0 + 5 * PARTITION_US) / 1000;
      a.setRetention("s", (2 * PARTITION_US) / 1e6);
      const removed = await a.retain(nowMs);
      expect(removed).toBeGreaterThan(0);
      expect(pga.partitionList()[0]).toBeGreaterThanOrEqual(3 + 3 - 1);
      expect(await a.size()).toBeLessThan(before);
      const vs = a.seriesOf(a.variable("v")!);
      const horizon = (nowMs * 1000 - 2 * PARTITION_US) / periodUs;
      // What is left starts at most one partition before the horizon, never after it.
      expect(vs.first).toBeLessThanOrEqual(horizon);
      expect(vs.first).toBeGreaterThan(horizon - PARTITION_US / periodUs - BLOCK_SAMPLES);

      // Logger b still has all of its samples.
      expect(b.seriesOf(b.variable("v")!).first).toBe(t0 / periodUs);
      expect(await first(b)).toBe(samples(2, 1)[0]);
      const vb = b.seriesOf(b.variable("v")!);
      const s = await b.read((rows) => {
        const out = emptySummary();
        summarize(rows, vb, vb.first, vb.end, 3, out);
        return out;
      });
      expect(s.count).toBe((5 * PARTITION_US) / periodUs - Math.ceil(((5 * PARTITION_US) / periodUs - 5) / 997));
    } finally {
      await a.close();
      await b.close();
    }
  });
  it("keeps samples queued while PostgreSQL is down and writes them when it returns", async () => {
    const store = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_outage"));
    const events: string[] = [];
    store.onEvent = (level, message) => events.push(`${level}: ${message}`);
    try {
      store.defineSource({ Id: "s", Name: "Source", PeriodUs: 1000 });
      store.defineVariable({ Id: "v", SourceId: "s", Name: "V", Unit: "" });
      store.append("v", 0, samples(3, 5000));
      await store.flush();
      expect(store.lastWriteError).toBeNull();
      await server.pause();
      store.append("v", 5000, samples(4, 5000));
      await store.flush();
      expect(store.lastWriteError).not.toBeNull();
      expect(events.some((e) => e.startsWith("warn:"))).toBe(true);
      // Queued rows are still read from memory.
      const vs = store.seriesOf(store.variable("v")!);
      expect(vs.end).toBe(10_000);
      await server.resume();
      await store.flush();
      expect(store.lastWriteError).toBeNull();
      expect(events.at(-1)).toMatch(/^info:/);
    } finally {
      await store.close();
    }
    const again = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_outage"));
    try {
      const vs = again.seriesOf(again.variable("v")!);
      expect(vs.end).toBe(10_000);
      const got = await again.read((rows) => rows.block(vs, 1)![5007 - BLOCK_SAMPLES]);
      expect(got).toBe(samples(4, 8)[7]);
    } finally {
      await again.close();
    }
  }, 60_000);
});
