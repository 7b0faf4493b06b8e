import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { mulberry32 } from "../../../logger/sim/prng.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { statistics } from "../../../logger/store/series/statistics.ts";
import { ADMIN_PASSWORD, login, sleep, start, tempDir } from "./helpers.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function brute(g: number[], v: number[], a: number, b: number) {
  const xs = v.filter((_, i) => g[i]! >= a && g[i]! < b);
  if (xs.length === 0) return null;
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
  const firstIdx = g.findIndex((x) => x >= a && x < b);
  const lastIdx = g.findLastIndex((x) => x >= a && x < b);
  return { count: xs.length, min: Math.min(...xs), max: Math.max(...xs), mean, std: Math.sqrt(variance), rms: Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length), first: { index: g[firstIdx]!, value: v[firstIdx]! }, last: { index: g[lastIdx]!, value: v[lastIdx]! } };
}

describe("statistics over the series store", () => {
  it("match brute force over random ranges with gaps and NaNs, across rollup levels", () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = new SeriesStore(dir);
    store.defineSource({ Id: "src", Name: "Source", PeriodUs: 1000 });
    store.defineVariable({ Id: "v", SourceId: "src", Name: "Value", Unit: "V" });
    const rnd = mulberry32(11);
    const g: number[] = [];
    const v: number[] = [];
    const start = 1_700_000_000_000;
    let at = start;
    while (at - start < 600_000) {
      const n = 1 + Math.floor(rnd() * 3000);
      const batch = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        batch[i] = rnd() < 0.01 ? Number.NaN : 50 + (rnd() - 0.5) * 10;
        if (!Number.isNaN(batch[i]!)) g.push(at + i), v.push(batch[i]!);
      }
      store.append("v", at, batch);
      at += n;
      if (rnd() < 0.1) at += Math.floor(rnd() * 300_000);
    }
    store.flush();
    const vs = store.seriesOf(store.variable("v")!);
    for (let t = 0; t < 30; t++) {
      const a = start - 1000 + Math.floor(rnd() * (at - start));
      const b = a + 1 + Math.floor(rnd() * [50, 5000, 300_000][t % 3]!);
      const got = statistics(() => store.reader(), vs, a, b, Infinity);
      const want = brute(g, v, a, b);
      if (!want) {
        expect(got.count).toBe(0);
        continue;
      }
      expect(got.count).toBe(want.count);
      expect(got.min).toBe(want.min);
      expect(got.max).toBe(want.max);
      expect(got.mean!).toBeCloseTo(want.mean, 9);
      expect(got.std!).toBeCloseTo(want.std, 9);
      expect(got.rms!).toBeCloseTo(want.rms, 9);
      expect(got.first).toEqual(want.first);
      expect(got.last).toEqual(want.last);
    }
    const capped = statistics(() => store.reader(), vs, start, at, 10);
    expect(capped.count).toBeGreaterThan(0);
    expect(capped.std).toBeNull();
    store.close();
  });
});

describe("POST /history/statistics", () => {
  it("answers per variable and refuses bad ranges", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 } });
    try {
      const token = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const call = async (body: unknown) => {
        const res = await fetch(`${lg.url}/history/statistics`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
        return { status: res.status, body: await res.json() };
      };
      const vars = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()).Data;
      const oil = vars.find((x: { Name: string }) => x.Name === "Oil temperature");
      await sleep(1200);
      const end = Date.now() - 200;
      const ref = [{ SID: oil.SourceId, VID: oil.Id }];
      const stats = await call({ Start: end - 1000, End: end, Variables: ref });
      expect(stats.status).toBe(200);
      const s = stats.body.Data.Statistics[0];
      const raw = await fetch(`${lg.url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Start: end - 1000, End: end, Variables: ref }) }).then((r) => r.json());
      const xs: number[] = raw.Data[0].TimeSeries.Values[0].filter((x: number | null) => x !== null);
      expect(s.Count).toBe(xs.length);
      expect(s.Min).toBe(Math.min(...xs));
      expect(s.Max).toBe(Math.max(...xs));
      expect(s.First).toBe(xs[0]);
      expect(s.Last).toBe(xs.at(-1));
      expect(s.Mean).toBeCloseTo(xs.reduce((a, b) => a + b, 0) / xs.length, 4);
      expect(s.RMS).toBeGreaterThanOrEqual(Math.abs(s.Mean));
      expect((await call({ Start: end, End: end - 10, Variables: ref })).status).toBe(400);
      expect((await call({ Start: end - 10, End: end, Variables: [] })).status).toBe(400);
      expect((await call({ Start: end - 10, End: end, Variables: [{ SID: oil.SourceId, VID: "nope" }] })).status).toBe(404);
    } finally {
      await lg.stop();
    }
  });
});
