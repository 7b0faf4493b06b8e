import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { trackStatistics, trackStatisticsPaced } from "../../../logger/store/series/statistics.ts";
import { ADMIN_PASSWORD, login, longestStall, start, tempDir, type TestLogger } from "./helpers.ts";

// Data requests have caps decided before any work, and long ones give other requests turns:
// no one request holds the logger's event loop (the target is ~50 ms; the bound tested here is
// looser, for a shared test machine, and still far below the seconds it took before).

let lg: TestLogger;
let token: string;
let ref: { SID: string; VID: string }[];
const HOUR = 3_600_000;
beforeAll(async () => {
  // An hour of a 1 kHz bench: 3.6 million samples per channel.
  lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, benchRateHz: 1000, benchChannels: 1, backfillSec: 3600 } });
  token = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  const vars = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()).Data as { SourceId: string; Id: string; Name: string }[];
  const sources = (await (await fetch(`${lg.url}/history/structure/sources`, { headers: { Authorization: `Bearer ${token}` } })).json()).Data as { Id: string; SampleRateHz: number }[];
  // The fastest source's first variable (the 1 kHz bench).
  const fastest = [...sources].sort((a, b) => b.SampleRateHz - a.SampleRateHz)[0]!;
  expect(fastest.SampleRateHz).toBe(1000);
  const v = vars.find((x) => x.SourceId === fastest.Id)!;
  ref = [{ SID: v.SourceId, VID: v.Id }];
}, 120_000);
afterAll(() => lg.stop());

async function post(path: string, body: object) {
  const res = await fetch(`${lg.url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  // Read and drop: the client keeps no copy of a large answer.
  let bytes = 0;
  let head = "";
  for await (const chunk of res.body!) {
    if (head.length < 2000) head += Buffer.from(chunk).toString("utf8");
    bytes += chunk.byteLength;
  }
  return { status: res.status, bytes, head };
}

describe("data request caps", () => {
  it("refuses a JSON answer of more than a million buckets before computing any", async () => {
    const end = Date.now();
    // 1 ms buckets over an hour: 3.6 million (this took 16 s and 2.6 GB before).
    const res = await post("/history/data", { Start: end - HOUR, End: end, Variables: ref, Interval: 1 });
    expect(res.status).toBe(400);
    expect(res.head).toMatch(/more than 1000000 buckets/);
    // Two variables of half a million buckets each are under both caps.
    const ok = await post("/history/data", { Start: end - HOUR / 8, End: end, Variables: [...ref, ...ref], Interval: 1 });
    expect(ok.status).toBe(200);
  });

  it("refuses a CSV of more rows than any export", async () => {
    const res = await post("/history/data", { Start: 1000, End: Date.now(), Variables: ref, Interval: 1, Format: "csv" });
    expect(res.status).toBe(400);
    expect(res.head).toMatch(/rows, more than/);
  });
});

describe("long data requests give other requests turns", () => {
  const STALL_MS = 250;
  it("a JSON answer of half a million buckets", async () => {
    const end = Date.now() - 1000;
    let status = 0;
    const stall = await longestStall(async () => {
      status = (await post("/history/data", { Start: end - HOUR + 60_000, End: end, Variables: ref, Interval: 7 })).status;
    });
    expect(status).toBe(200);
    expect(stall).toBeLessThan(STALL_MS);
  });

  it("a CSV export of 3.5 million rows", async () => {
    const end = Date.now() - 1000;
    let res = { status: 0, bytes: 0 };
    const stall = await longestStall(async () => {
      res = await post("/history/data", { Start: end - HOUR + 60_000, End: end, Variables: ref, Format: "csv" });
    });
    expect(res.status).toBe(200);
    expect(res.bytes).toBeGreaterThan(3_000_000 * 20);
    expect(stall).toBeLessThan(STALL_MS);
  }, 60_000);

  it("statistics over 6 × 3.5 million samples", async () => {
    const end = Date.now() - 1000;
    let res = { status: 0, head: "" };
    const stall = await longestStall(async () => {
      res = await post("/history/statistics", { Start: end - HOUR + 60_000, End: end, Variables: Array.from({ length: 6 }, () => ref[0]!) });
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.head).Data.Statistics[0].StdDev).not.toBeNull();
    expect(stall).toBeLessThan(STALL_MS);
  });
});

describe("trackStatisticsPaced", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  it("gives the same statistics as trackStatistics, with a turn per block", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = new SeriesStore(dir);
    store.defineSource({ Id: "src", Name: "Source", PeriodUs: 1000 });
    store.defineVariable({ Id: "v", SourceId: "src", Name: "Value", Unit: "" });
    const n = 300_000;
    store.append("v", 1_700_000_000_000, Float32Array.from({ length: n }, (_, i) => Math.sin(i / 100) * 10 + (i % 7)));
    store.flush();
    const parts = store.partsOf(store.variable("v")!, 0, Number.MAX_SAFE_INTEGER);
    const sync = trackStatistics(() => store.reader(), parts, 0, Number.MAX_SAFE_INTEGER, Infinity);
    let turns = 0;
    const paced = await trackStatisticsPaced(() => store.reader(), parts, 0, Number.MAX_SAFE_INTEGER, Infinity, async () => void turns++);
    expect(paced).toEqual(sync);
    expect(sync.std).not.toBeNull();
    expect(turns).toBeGreaterThan(10);
    store.close();
  });
});
