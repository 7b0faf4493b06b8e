import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLogger } from "../../../logger/server.ts";
import type { RunningLogger } from "../../../logger/server.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";
import { ADMIN_PASSWORD, login, rpc, tempDir } from "./helpers.ts";

// Issue 24 §7 and docs/storage.md "Store outages": PostgreSQL stops for longer than the outage
// buffer holds. Checked, as the page promises: the fill level in the trace (and on stdout) while
// it fills, "full" once a bound is reached, then new samples are not kept; when PostgreSQL is back
// everything acquired before the buffer filled is stored, the samples from the moment it filled
// to the first write that succeeds are a gap at every resolution, and the loss is stated (trace
// and ProjectAPI.GetState's Store.LastLoss) with its times and its count.

const missing = postgresMissing();

type Lg = RunningLogger & { dir: string; lines: string[] };
type Series = { AbsoluteStart: number; Delta: number; Size: number; Values: (number | null)[][] };

async function logger(pg: Postgres, id: string, sim: object, storeBuffer: object): Promise<Lg> {
  const dir = tempDir();
  const lines: string[] = [];
  const lg = await startLogger({ port: 0, dataDir: dir, log: (l) => lines.push(l), adminPassword: ADMIN_PASSWORD, storeUrl: pg.url, loggerId: id, simulator: sim, storeBuffer });
  return Object.assign(lg, { dir, lines });
}

const traceOf = (lg: Lg) =>
  readFileSync(join(lg.dir, "trace.log"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { Component: string; Level: string; Message: string })
    .filter((e) => e.Component === "store");

describe.skipIf(missing)("PostgreSQL away for longer than the outage buffer", () => {
  let pg: Postgres;
  let byTime: Lg;
  let bySize: Lg;
  beforeAll(async () => {
    pg = await startPostgres({ port: 55473 });
    // One bound each: 3 s of samples (at 100 Hz), and 2 MB (at 10 kHz × 8 channels, ~300 KB/s of raw blocks).
    byTime = await logger(pg, "outage_time", { seed: 2, benchRateHz: 100 }, { maxMs: 3000 });
    bySize = await logger(pg, "outage_size", { seed: 2, benchRateHz: 10_000, benchChannels: 8 }, { maxBytes: 2 * 1024 * 1024, maxMs: 600_000 });
  }, 90_000);
  afterAll(async () => {
    for (const lg of [byTime, bySize]) {
      await lg?.close();
      if (lg) rmSync(lg.dir, { recursive: true, force: true });
    }
    await pg?.stop();
  });

  it("fills, says so, drops only what came after it was full, and states the loss", async () => {
    // Both loggers store normally first.
    for (const lg of [byTime, bySize]) await expect.poll(() => lg.storeStatus().Writing && lg.storeStatus().UnsavedBytes < 1_000_000, { timeout: 10_000 }).toBe(true);
    const stopped = Date.now();
    await pg.pause();
    try {
      for (const lg of [byTime, bySize]) {
        await expect.poll(() => lg.storeStatus().Full, { timeout: 30_000, interval: 100 }).toBe(true);
        const s = lg.storeStatus();
        expect(s).toMatchObject({ Engine: "postgres", Writing: false, Full: true, Fill: 1 });
        expect(s.FailingSince).toBeGreaterThanOrEqual(stopped - 1000);
        // Full when a bound is reached, not before and not long after.
        if (lg === byTime) {
          expect(s.FullSince! - stopped).toBeGreaterThanOrEqual(3000 - 1000);
          expect(s.FullSince! - stopped).toBeLessThan(3000 + 5000);
        } else {
          expect(s.UnsavedBytes).toBeGreaterThanOrEqual(2 * 1024 * 1024);
          // Past the bound nothing more is queued: at most the rows of one flush beyond it.
          expect(s.UnsavedBytes).toBeLessThan(2 * 1024 * 1024 + 1024 * 1024);
        }
        await expect.poll(() => lg.storeStatus().DroppedSamples, { timeout: 10_000 }).toBeGreaterThan(0);
        // The trace (and stdout) says it fails, how full the buffer gets and that it is full.
        const trace = traceOf(lg).map((e) => e.Message);
        expect(trace.some((m) => /^Series store: writes fail \(.+\); samples are kept in memory, up to .+, and written when the database is back$/.test(m))).toBe(true);
        expect(trace.some((m) => /% of the outage buffer/.test(m))).toBe(true);
        expect(trace.some((m) => /^Series store: the outage buffer is full .+: new samples are not kept until the database takes writes again$/.test(m))).toBe(true);
        expect(lg.lines.some((l) => l.startsWith("logger: Series store: the outage buffer is full"))).toBe(true);
      }
      // Memory does not grow past the bound while the outage goes on.
      const held = bySize.storeStatus().UnsavedBytes;
      await expect.poll(() => bySize.storeStatus().DroppedSamples, { timeout: 10_000 }).toBeGreaterThan(200_000);
      expect(bySize.storeStatus().UnsavedBytes).toBe(held);
    } finally {
      await pg.resume();
    }

    for (const lg of [byTime, bySize]) {
      await expect.poll(() => lg.storeStatus().Writing, { timeout: 30_000, interval: 200 }).toBe(true);
      const s = lg.storeStatus();
      expect(s).toMatchObject({ Full: false, FullSince: null, DroppedSamples: 0, FailingSince: null });
      const loss = s.LastLoss!;
      expect(loss.Samples).toBeGreaterThan(0);
      expect(loss.To).toBeGreaterThan(loss.From);
      const trace = traceOf(lg).map((e) => e.Message);
      const said = trace.find((m) => m.startsWith("Series store: writing again after"));
      expect(said).toBe(
        said!.replace(/were not kept \(\d+ samples/, `were not kept (${loss.Samples} samples`).replace(/from \S+ to \S+ were/, `from ${new Date(loss.From).toISOString()} to ${new Date(loss.To).toISOString()} were`),
      );
      expect(said).toMatch(/the samples acquired from \S+ to \S+ were not kept \(\d+ samples, a gap in the history\): the outage buffer was full$/);

      // What the history holds now, for the bench's first channel (raw samples).
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const state = await rpc(lg.url, "ProjectAPI.GetState", {}, admin);
      expect(state.body.State.Store).toMatchObject({ Engine: "postgres", Writing: true, LastLoss: loss });
      const vars = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()).Data as { Id: string; SourceId: string; SampleRateHz: number }[];
      const bench = vars.filter((v) => v.SampleRateHz === (lg === byTime ? 100 : 10_000));
      const v = bench[0]!;
      const periodUs = 1e6 / v.SampleRateHz;
      const mine = loss.Sources.find((x) => x.SourceId === v.SourceId)!;
      // Over all sources: the earliest and the latest sample not kept, and every one of them counted.
      expect(loss.From).toBe(Math.min(...loss.Sources.map((x) => x.From)));
      expect(loss.To).toBe(Math.max(...loss.Sources.map((x) => x.To)));
      expect(loss.Samples).toBe(loss.Sources.reduce((n, x) => n + x.Samples, 0));
      // Samples acquired after the store is back are written again.
      await expect.poll(async () => lastSample(lg.url, admin, v), { timeout: 10_000 }).toBeGreaterThan(mine.To + 500);
      // From a second before PostgreSQL stopped (or the first sample, for a logger that started later).
      const ts = await history(lg.url, admin, v, Math.max(stopped - 1000, await firstSample(lg.url, admin, v)), mine.To + 500);
      // Sample times exactly as the logger computes them (index × period).
      const first = Math.round((ts.AbsoluteStart * 1000) / periodUs);
      const at = (k: number) => ((first + k) * periodUs) / 1000;
      let before = 0;
      let gap = 0;
      let after = 0;
      ts.Values[0]!.forEach((x, k) => {
        const t = at(k);
        if (t < mine.From) {
          // Everything acquired before the buffer was full (the outage's first part included) is stored.
          expect(x, `sample at ${t}, before the loss`).not.toBeNull();
          before++;
        } else if (t <= mine.To) {
          expect(x, `sample at ${t}, in the loss`).toBeNull();
          gap++;
        } else {
          expect(x, `sample at ${t}, after the loss`).not.toBeNull();
          after++;
        }
      });
      expect(before * periodUs).toBeGreaterThan((mine.From - stopped) * 1000);
      expect(gap).toBe(Math.round(((mine.To - mine.From) * 1000) / periodUs) + 1);
      expect(after).toBeGreaterThan(0);
      // The count is every sample of the source's variables in its stretch.
      expect(mine.Samples).toBe(gap * bench.length);
      // A gap at every resolution: buckets wholly inside it are null in a bucketed read (rollups) too.
      const coarse = await history(lg.url, admin, v, mine.From, mine.To, { Points: 5 });
      const inside = coarse.Values[0]!.filter((_, k) => coarse.AbsoluteStart + k * coarse.Delta >= mine.From && coarse.AbsoluteStart + (k + 1) * coarse.Delta <= mine.To);
      expect(inside.length).toBeGreaterThan(0);
      for (const x of inside) expect(x).toBeNull();
    }
  }, 180_000);
});

async function history(url: string, token: string, v: { Id: string; SourceId: string }, start: number, end: number, extra: object = {}): Promise<Series> {
  const res = await fetch(`${url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Start: start, End: end, Variables: [{ SID: v.SourceId, VID: v.Id }], ...extra }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { Data: [{ TimeSeries: Series }] }).Data[0].TimeSeries;
}

async function firstSample(url: string, token: string, v: { Id: string; SourceId: string }): Promise<number> {
  const res = await fetch(`${url}/history/statistics`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Start: Date.now() - 600_000, End: 0, Variables: [{ SID: v.SourceId, VID: v.Id }] }) });
  return ((await res.json()) as { Data: { Statistics: { FirstTime: number | null }[] } }).Data.Statistics[0]!.FirstTime ?? 0;
}

async function lastSample(url: string, token: string, v: { Id: string; SourceId: string }): Promise<number> {
  const res = await fetch(`${url}/history/statistics`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Start: Date.now() - 120_000, End: 0, Variables: [{ SID: v.SourceId, VID: v.Id }] }) });
  return ((await res.json()) as { Data: { Statistics: { LastTime: number | null }[] } }).Data.Statistics[0]!.LastTime ?? 0;
}
