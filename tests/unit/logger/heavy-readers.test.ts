import type { ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLogger } from "../../../logger/server.ts";
import type { RunningLogger } from "../../../logger/server.ts";
import { startBenchLogger } from "../../support/benchLogger.ts";
import { ADMIN_PASSWORD, addUser, login, longestStall, tempDir } from "./helpers.ts";

// Issue 24 §3: a Viewer's heaviest allowed data request must not stall the logger or inflate it.
// Answers stream as they are computed (a reader holds a piece, never the answer), heavy ones take
// a place per user and in all (429 with Retry-After past a short wait), their CPU shares one lane,
// and a client that takes nothing is cut off.

const MB = 1024 * 1024;
const RATE_HZ = 1000;
const CHANNELS = 10;

type Ref = { SID: string; VID: string };

async function refs(url: string, token: string): Promise<Ref[]> {
  const vars = (await (await fetch(`${url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()).Data as { SourceId: string; Id: string; SampleRateHz: number }[];
  return vars.filter((v) => v.SampleRateHz === RATE_HZ).slice(0, CHANNELS).map((v) => ({ SID: v.SourceId, VID: v.Id }));
}

function post(url: string, token: string, path: string, body: object, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
}

/** Reads an answer to its end, keeping only its length, its head and its tail. */
async function drain(res: Response): Promise<{ bytes: number; head: string; tail: string }> {
  let bytes = 0;
  let head = "";
  let tail = "";
  for await (const chunk of res.body!) {
    const text = Buffer.from(chunk).toString("latin1");
    if (head.length < 4096) head += text.slice(0, 4096 - head.length);
    tail = (tail + text).slice(-200);
    bytes += chunk.byteLength;
  }
  return { bytes, head, tail };
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m![1]) * 1024;
}

/** The largest resident size of `pid` while `work` runs, sampled every 10 ms. */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ peak: number; result: T }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10);
  try {
    const result = await work();
    return { peak: Math.max(peak, rssOf(pid)), result };
  } finally {
    clearInterval(timer);
  }
}

describe("a heavy answer in a logger process of its own", () => {
  let child: ChildProcess;
  let url: string;
  let dataDir: string;
  let admin: string;
  let vars: Ref[];
  beforeAll(async () => {
    dataDir = tempDir();
    // 15 minutes of a 1 kHz bench with 10 channels: 900,000 samples per channel. The reads ask for
    // the 10 minutes that ended a minute before they start; the rest is a margin for a slow machine.
    ({ url, child } = await startBenchLogger({ dataDir, password: ADMIN_PASSWORD, backfill: "15m", rateHz: RATE_HZ, channels: CHANNELS, seed: 3 }));
    admin = (await login(url, "admin", ADMIN_PASSWORD)).access;
    vars = await refs(url, admin);
    expect(vars).toHaveLength(CHANNELS);
  }, 120_000);
  afterAll(async () => {
    child?.kill("SIGTERM");
    await new Promise((r) => child?.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  // 10 variables × 300,000 buckets of 2 ms: 3 million values, each with its Min and Max (~70 MB of JSON).
  const heavyBody = (end: number) => ({ Start: end - 600_000, End: end, Variables: vars, Interval: 2 });

  it("streams a JSON answer of 10 variables × 300,000 buckets: the logger grows by a fraction of it", async () => {
    // On a whole second: buckets of 2 ms then start at Start (an odd one would add a bucket before it).
    const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    // Growth from the size before the read, or (from:) from the size the previous read left if
    // that was more: 2 s after a heavy answer the logger gives memory back (memory-settle.ts), and
    // on a loaded machine the next request can come later than that — the read then refilled
    // V8's pools first (+26 MB in a fresh-clone run, against +0.3 MB alone).
    const read = async (from = 0) => {
      const before = rssOf(child.pid!);
      const { peak, result } = await peakRss(child.pid!, async () => drain(await post(url, admin, "/history/data", heavyBody(end))));
      return { growth: peak - Math.max(before, from), result, after: rssOf(child.pid!) };
    };
    // The first read of these rows also fills SQLite's page cache (up to 32 MB, PRAGMA
    // cache_size) and compiles the code it runs: +16…30 MB, the same for any size of answer. In
    // one fresh-clone run on PostgreSQL it was +49 MB of the 91 MB answer (13–21 MB alone, 8–21
    // with four busy loops beside it: what else of that run's load did it is not known). An answer
    // built whole costs more than its own size; the tight bound is the second read's.
    const first = await read();
    expect(first.growth).toBeLessThan(first.result.bytes * 0.75);
    const { growth, result } = await read(first.after);
    expect(result.head).toMatch(/^\{"Success":true,"Data":\[\{"TimeSeries":\{"Type":"equidistant","Format":"json","Unit":"ms","Start":\d+,"AbsoluteStart":\d+,"Delta":2,"End":\d+,"Size":300000,"MeasurementId":"","Updating":false,"Values":\[\[/);
    expect(result.tail).toMatch(/\]\]\}\}\],"ReturnState":\{"Value":0,"Description":"OK"\}\}$/);
    expect(result.bytes).toBeGreaterThan(50 * MB);
    // Built whole, the columns alone were ~100 MB of numbers (and the issue saw 460 MB for 10 × 1 M):
    // more than the answer's size. Streamed, +0.3–21 MB alone; a fresh-clone run with both suites
    // side by side saw +25 and +29 MB of 91 (the logger's collector starved of CPU), so the bound
    // is half the answer: well below what an answer built whole costs.
    expect(growth).toBeLessThan(result.bytes / 2);
  }, 120_000);

  it("five Viewers that stop reading hold a piece each, and the memory is back when they leave", async () => {
    const end = Date.now() - 60_000;
    const viewers = await Promise.all(Array.from({ length: 5 }, (_, i) => addUser(url, admin, `slow${i}`, "Viewer")));
    const before = rssOf(child.pid!);
    const aborts = viewers.map(() => new AbortController());
    const { peak } = await peakRss(child.pid!, async () => {
      // Each reads the answer's first piece, then nothing more.
      await Promise.all(viewers.map(async (v, i) => {
        const res = await post(url, v.token, "/history/data", heavyBody(end), aborts[i]!.signal);
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        expect((await reader.read()).done).toBe(false);
      }));
    });
    // Built whole, each answer was in memory before its first byte went out: 5 × ~100 MB.
    expect(peak - before).toBeLessThan(60 * MB);
    for (const a of aborts) a.abort();
    await expect.poll(() => rssOf(child.pid!), { timeout: 20_000, interval: 200 }).toBeLessThan(before + 20 * MB);
  }, 120_000);
});

it("four heavy answers at once hold the event loop no longer than ~50 ms, and /revision stays quick", async () => {
  const dataDir = tempDir();
  // The answers ask for the 5 minutes that ended a minute before: 7 minutes of history.
  const lg = await startLogger({ port: 0, dataDir, log: () => {}, adminPassword: ADMIN_PASSWORD, simulator: { seed: 4, benchRateHz: RATE_HZ, benchChannels: 4, backfillSec: 420 } });
  try {
    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const vars = (await refs(lg.url, admin)).slice(0, 4);
    const viewers = await Promise.all(Array.from({ length: 4 }, (_, i) => addUser(lg.url, admin, `busy${i}`, "Viewer")));
    const end = Date.now() - 60_000;
    const pings: number[] = [];
    let running = true;
    const stall = await longestStall(async () => {
      const pinger = (async () => {
        while (running) {
          const t0 = performance.now();
          await (await fetch(`${lg.url}/revision`)).json();
          pings.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      // 4 × (4 variables × 150,000 buckets, with Min and Max): 7.2 million values in all.
      const answers = await Promise.all(viewers.map(async (v) => drain(await post(lg.url, v.token, "/history/data", { Start: end - 300_000, End: end, Variables: vars, Interval: 2 }))));
      running = false;
      await pinger;
      for (const a of answers) expect(a.tail).toMatch(/"Description":"OK"\}\}$/);
      // The fourth longest: a garbage collection of the test worker's heap (49 ms once in a
      // fresh-clone run with both Vitest suites loading the machine; 17–21 alone) holds the loop
      // once or twice, answers that are not paced hold it at every round of their turns.
    }, 4);
    pings.sort((a, b) => a - b);
    const p99 = pings[Math.floor(pings.length * 0.99)]!;
    console.log(`4 heavy answers: 4th longest event-loop stall ${stall.toFixed(1)} ms of CPU; /revision p50 ${pings[pings.length >> 1]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${pings.length} pings`);
    expect(pings.length).toBeGreaterThan(50);
    // One lane turn (5 ms) plus this process's own client work; each answer paced on its own (before) held it 54 ms.
    expect(stall).toBeLessThan(35);
  } finally {
    await lg.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);

// Their logger computes the answers in the test's own process: on a loaded machine (the suites
// run side by side) one case took longer than the 20-s default while every answer was right.
describe("places for heavy answers", { timeout: 60_000 }, () => {
  let lg: RunningLogger;
  let dataDir: string;
  let admin: string;
  let vars: Ref[];
  const users: { token: string }[] = [];
  beforeAll(async () => {
    dataDir = tempDir();
    lg = await startLogger({
      port: 0,
      dataDir,
      log: () => {},
      adminPassword: ADMIN_PASSWORD,
      simulator: { seed: 4, benchRateHz: RATE_HZ, benchChannels: 2, backfillSec: 600 },
      heavy: { perUser: 1, total: 2, waitMs: 1500, queuePerUser: 2, queueTotal: 3, retryAfterSec: 7, idleMs: 60_000 },
    });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    vars = (await refs(lg.url, admin)).slice(0, 2);
    for (let i = 0; i < 3; i++) users.push(await addUser(lg.url, admin, `user${i}`, "Viewer"));
  }, 60_000);
  afterAll(async () => {
    await lg?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // 2 variables × 500,000 raw samples as CSV: heavy (over 100,000 cells), and far more than a socket holds.
  const csv = () => ({ Start: Date.now() - 560_000, End: Date.now() - 60_000, Variables: vars, Format: "csv" });
  const json = () => ({ Start: Date.now() - 560_000, End: Date.now() - 60_000, Variables: vars, Interval: 2 });

  /** An answer whose client read its first piece and now reads nothing. */
  async function stalled(token: string, body: object) {
    const ac = new AbortController();
    const res = await post(lg.url, token, "/history/data", body, ac.signal);
    expect(res.status).toBe(200);
    expect((await res.body!.getReader().read()).done).toBe(false);
    return { abort: () => ac.abort() };
  }

  async function refusal(res: Response) {
    return { status: res.status, retryAfter: res.headers.get("Retry-After"), body: (await res.json()) as { ReturnState: { Value: number; Description: string } } };
  }

  it("writes exactly JSON.stringify of the answer, fields in the contract's order", async () => {
    const end = Date.now() - 60_000;
    const cases = [
      { Start: end - 500_000, End: end, Variables: vars, Interval: 2, Type: "absolute", AddVarMapping: true },
      { Start: end - 30_000, End: end, Variables: vars, Precision: 2 },
      { Start: end - 400_000, End: end, Variables: [...vars, ...vars], Points: 777 },
    ];
    for (const body of cases) {
      const res = await post(lg.url, admin, "/history/data", body);
      expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      const text = await res.text();
      const answer = JSON.parse(text);
      expect(text).toBe(JSON.stringify(answer));
      const ts = answer.Data[0].TimeSeries;
      const keys = ["Type", "Format", "Unit", "Start", "AbsoluteStart", "Delta", "End", "Size", "MeasurementId", "Updating", "Values"];
      if ("Points" in body || "Interval" in body) keys.push("Min", "Max");
      if (body.Type === "absolute") keys.push("Timestamps");
      if (body.AddVarMapping) keys.push("Variables");
      expect(Object.keys(ts)).toEqual(keys);
      for (const col of [ts.Values, ts.Min ?? [], ts.Max ?? []]) for (const c of col) expect(c).toHaveLength(ts.Size);
      if (ts.Timestamps) expect(ts.Timestamps[1] - ts.Timestamps[0]).toBe(ts.Delta);
    }
  });

  it("lets a user's next heavy answer wait for the first, then go on", async () => {
    const first = await stalled(users[0]!.token, csv());
    expect(lg.heavyStats()).toEqual({ open: 1, waiting: 0 });
    const second = post(lg.url, users[0]!.token, "/history/data", json());
    await expect.poll(() => lg.heavyStats().waiting).toBe(1);
    first.abort();
    const res = await second;
    expect(res.status).toBe(200);
    expect((await drain(res)).tail).toMatch(/"ReturnState":\{"Value":0,"Description":"OK"\}\}$/);
    await expect.poll(() => lg.heavyStats()).toEqual({ open: 0, waiting: 0 });
  });

  it("refuses with 429 and Retry-After when no place frees up in time, per user and in all", async () => {
    const mine = await stalled(users[0]!.token, csv());
    const perUser = await refusal(await post(lg.url, users[0]!.token, "/history/data", json()));
    expect(perUser.status).toBe(429);
    expect(perUser.retryAfter).toBe("7");
    expect(perUser.body.ReturnState).toEqual({ Value: -12, Description: "Too many large data requests at once (at most 1 per user and 2 in all); try again in 7 s" });
    // A light request of the same user is not held up.
    expect((await post(lg.url, users[0]!.token, "/history/data", { Start: -10_000, End: 0, Variables: vars, Points: 100 })).status).toBe(200);

    const theirs = await stalled(users[1]!.token, csv());
    const total = await refusal(await post(lg.url, users[2]!.token, "/history/statistics", { Start: Date.now() - 590_000, End: Date.now() - 1000, Variables: vars }));
    expect(total.status).toBe(429);
    expect(total.retryAfter).toBe("7");
    mine.abort();
    theirs.abort();
    await expect.poll(() => lg.heavyStats()).toEqual({ open: 0, waiting: 0 });
  });

  it("refuses at once when too many wait, and forgets a waiting client that went away", async () => {
    const held = [await stalled(users[0]!.token, csv()), await stalled(users[1]!.token, csv())];
    const gone = new AbortController();
    const waiting = [post(lg.url, users[2]!.token, "/history/data", json(), gone.signal).catch(() => null), post(lg.url, users[2]!.token, "/history/data", json())];
    await expect.poll(() => lg.heavyStats().waiting).toBe(2);
    // The user's queue (2) is full: refused without waiting.
    const started = performance.now();
    expect((await post(lg.url, users[2]!.token, "/history/data", json())).status).toBe(429);
    expect(performance.now() - started).toBeLessThan(1000);
    gone.abort();
    await expect.poll(() => lg.heavyStats().waiting).toBe(1);
    for (const h of held) h.abort();
    const last = (await waiting[1])!;
    expect(last.status).toBe(200);
    await drain(last);
    await expect.poll(() => lg.heavyStats()).toEqual({ open: 0, waiting: 0 });
  });

});

it("cuts off a client that takes nothing of a heavy answer, and frees its place", async () => {
  const dataDir = tempDir();
  const lg = await startLogger({ port: 0, dataDir, log: () => {}, adminPassword: ADMIN_PASSWORD, simulator: { seed: 4, benchRateHz: RATE_HZ, benchChannels: 2, backfillSec: 600 }, heavy: { idleMs: 1000 } });
  try {
    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const vars = (await refs(lg.url, admin)).slice(0, 2);
    const ac = new AbortController();
    const res = await post(lg.url, admin, "/history/data", { Start: Date.now() - 560_000, End: Date.now() - 60_000, Variables: vars, Format: "csv" }, ac.signal);
    await res.body!.getReader().read();
    expect(lg.heavyStats().open).toBe(1);
    // idleMs is 1 s here (30 s by default): once the socket is full the logger waits that long, ends the answer and frees the place.
    await expect.poll(() => lg.heavyStats().open, { timeout: 15_000 }).toBe(0);
    ac.abort();
  } finally {
    await lg.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
