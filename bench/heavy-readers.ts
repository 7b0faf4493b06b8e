// `node bench/heavy-readers.ts [--seconds 60]` (after `npm run build`): issue 24's measured target.
// Four Viewer clients (tokens from the public gibench client) each ask the heaviest data request
// the logger allows — 10 variables × 1,000,000 buckets as JSON, with Min and Max — in a loop; while
// they run, and in quiet stretches between (3 rounds alternating; medians of the rounds):
// * GET /revision every 10 ms: p50 and p99 (target p99 ≤ 50 ms under load);
// * an operator's /dashboard (8 widgets, through the built console): p50 under load ≤ 2× quiet;
// * the logger's resident memory: peak < start + 200 MB, and back within 20 MB of the start once
//   the clients are gone.
// Then five readers that take 1 KB/s of such an answer for a while (the issue's 2.5 GB, held
// afterwards), and the memory after they leave. The logger and the console are processes of their
// own; this process only generates load. Prints CPU model and load average; exits 1 on a miss.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, get as httpGet, request as httpRequest } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { machineLine, median } from "./machine.ts";
import { startBenchLogger } from "../tests/support/benchLogger.ts";
import { Jar, startConsole } from "./stack.ts";
import { saveBenchDashboard } from "./benchDashboard.ts";

const root = resolve(import.meta.dirname, "..");
const PASSWORD = "Bench-Pass-1!";
const CLIENT = `Basic ${Buffer.from("loggia-console:loggia-console-secret").toString("base64")}`;
const RATE_HZ = 1000;
const CHANNELS = 10;
const MB = 1024 * 1024;
const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    slow: { type: "string", default: "30" },
    // A file for the logger's output with V8's --trace-gc (where memory after the load went).
    "trace-gc": { type: "string" },
    // The probes run in a process of their own, so that reading the heavy answers here delays none of them.
    probe: { type: "boolean", default: false },
    logger: { type: "string" },
    page: { type: "string" },
    cookie: { type: "string" },
  },
});
/** Seconds of load in all (the issue's 60 s), in ROUNDS rounds, each after a quiet stretch of half its length. */
const LOAD_S = Number(args.seconds);
const ROUNDS = 3;
const SLOW_S = Number(args.slow);
const say = (line: string) => process.stdout.write(`${line}\n`);
const rows: string[][] = [];
const missed: string[] = [];
const row = (figure: string, value: string, target: string, met: boolean | null) => {
  rows.push([figure, value, target, met === null ? "" : met ? "PASS" : "FAIL"]);
  if (met === false) missed.push(figure);
  say(`${figure}: ${value}${target ? ` (target ${target}: ${met ? "PASS" : "FAIL"})` : ""}`);
};
const pct = (xs: number[], p: number) => (xs.length ? xs.toSorted((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : Number.NaN);
const status = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
const rss = (pid: number) => status(pid, "VmRSS");
/** ms the process's main thread has waited, runnable, for a CPU (Linux schedstat): the machine's share, not the event loop's. */
const runqueueMs = (pid: number) => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e6;
/** Resident bytes per mapping (/proc/pid/smaps), keyed by its start address and name. */
function mappings(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let key = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) key = `${head[1]} ${head[3] || "[anon]"}`;
    const rssLine = /^Rss:\s+(\d+) kB/.exec(line);
    if (rssLine) out.set(key, Number(rssLine[1]) * 1024);
  }
  return out;
}
/** Where resident memory grew between two mapping snapshots: the largest changes, and totals by kind. */
function grewWhere(before: Map<string, number>, after: Map<string, number>): string {
  const keys = new Set([...before.keys(), ...after.keys()]);
  const deltas = [...keys].map((k) => [k, (after.get(k) ?? 0) - (before.get(k) ?? 0)] as const).filter(([, d]) => d !== 0);
  const kind = (k: string) => (k.endsWith("[heap]") ? "malloc heap" : k.endsWith("[anon]") ? "anonymous maps" : k.split(" ").pop()!.split("/").pop()!);
  const byKind = new Map<string, number>();
  for (const [k, d] of deltas) byKind.set(kind(k), (byKind.get(kind(k)) ?? 0) + d);
  const top = deltas.toSorted((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 8);
  return `by kind: ${[...byKind].filter(([, d]) => Math.abs(d) >= MB / 4).map(([k, d]) => `${k} ${d > 0 ? "+" : ""}${(d / MB).toFixed(1)} MB`).join(", ")}; largest: ${top.map(([k, d]) => `${k} ${d > 0 ? "+" : ""}${(d / MB).toFixed(1)}`).join("; ")}`;
}
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 20 minutes of a 1 kHz bench with 10 channels: 1.2 million samples per channel, room for a million buckets. */
function startLoggerProcess(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const traceGc = args["trace-gc"];
  return startBenchLogger({
    dataDir,
    password: PASSWORD,
    backfill: "20m",
    rateHz: RATE_HZ,
    channels: CHANNELS,
    seed: 1,
    ...(traceGc ? { nodeFlags: ["--trace-gc"], onOutput: (d: string) => appendFileSync(traceGc, d) } : {}),
  });
}

async function tokenFor(url: string, username: string, password: string, client: string): Promise<string> {
  const res = await fetch(`${url}/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: client }, body: new URLSearchParams({ grant_type: "password", username, password }) });
  if (res.status !== 200) throw new Error(`token for ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function rpc<T>(url: string, token: string, method: string, params: object): Promise<T> {
  const res = await fetch(`${url}/rpc/${method}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(params) });
  if (!res.ok) throw new Error(`${method}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A user of the given role, signed in at the logger through the public gibench client (as a bench script is). */
async function addUser(url: string, admin: string, username: string, role: string): Promise<string> {
  const { Roles } = await rpc<{ Roles: { ID: number; Name: string }[] }>(url, admin, "GI.system/UserManagementAPI.GetRoles", {});
  const password = `pw-${username}-Bench-1`;
  await rpc(url, admin, "GI.system/UserManagementAPI.AddUser", { User: { Username: username, Role: Roles.find((r) => r.Name === role)!.ID, MustChangePassword: false }, Password: password });
  return password;
}

/** The console's session cookie of a user signed in through its form, as a browser keeps it. */
async function consoleCookie(consoleUrl: string, username: string, password: string): Promise<string> {
  const jar = new Jar();
  let res = await fetch(`${consoleUrl}/signin`, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: consoleUrl }, body: new URLSearchParams({ username, password }) });
  jar.take(res);
  for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
    res = await fetch(new URL(res.headers.get("location")!, consoleUrl), { headers: { Cookie: jar.header() }, redirect: "manual" });
    await res.arrayBuffer();
    jar.take(res);
  }
  return jar.header();
}

/** One heavy request read to its end (or until `stop`); resolves with its status and bytes. */
function heavy(url: string, token: string, body: string, stop: AbortSignal, bytesPerSec?: number): Promise<{ status: number; bytes: number }> {
  return new Promise((done) => {
    let bytes = 0;
    const req = httpRequest(`${url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => {
      if (bytesPerSec) {
        // A slow reader: takes bytesPerSec, a piece at a time.
        res.pause();
        const timer = setInterval(() => {
          const chunk = res.read(Math.max(1, Math.floor(bytesPerSec / 10)));
          if (chunk) bytes += chunk.length;
        }, 100);
        res.once("close", () => clearInterval(timer));
      } else res.on("data", (c: Buffer) => (bytes += c.length));
      res.once("close", () => done({ status: res.statusCode ?? 0, bytes }));
    });
    req.once("error", () => done({ status: 0, bytes }));
    stop.addEventListener("abort", () => req.destroy(), { once: true });
    req.end(body);
  });
}

/** GET /revision every 10 ms until stopped: each answer's latency. */
async function revisionPings(url: string, stop: AbortSignal): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  while (!stop.aborted) {
    const t0 = performance.now();
    await new Promise<void>((done) => httpGet(`${url}/revision`, { agent }, (res) => res.resume().once("end", () => done())).once("error", () => done()));
    out.push(performance.now() - t0);
    await sleep(10);
  }
  agent.destroy();
  return out;
}

/** An operator's dashboard page, again and again until stopped: each page's latency. */
async function dashboardPages(page: string, cookie: string, stop: AbortSignal): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  while (!stop.aborted) {
    const t0 = performance.now();
    const status = await new Promise<number>((done) =>
      httpGet(page, { agent, headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br, zstd" } }, (res) => res.resume().once("end", () => done(res.statusCode ?? 0))).once("error", () => done(0)),
    );
    if (status !== 200) throw new Error(`GET /dashboard: ${status}`);
    out.push(performance.now() - t0);
    // A person reloads a page now and then, not in a tight loop: a page every 250 ms.
    await sleep(250);
  }
  agent.destroy();
  return out;
}

/** The largest resident size of pid until stopped, sampled every 50 ms. */
async function peakRss(pid: number, stop: AbortSignal): Promise<number> {
  let peak = rss(pid);
  while (!stop.aborted) {
    peak = Math.max(peak, rss(pid));
    await sleep(50);
  }
  return Math.max(peak, rss(pid));
}

/** Resident size once it has settled at or below `bound` (within `ms`), else the last reading. */
async function settledRss(pid: number, bound: number, ms: number): Promise<{ bytes: number; afterMs: number }> {
  const t0 = performance.now();
  let now = rss(pid);
  while (now > bound && performance.now() - t0 < ms) {
    await sleep(250);
    now = rss(pid);
  }
  return { bytes: now, afterMs: performance.now() - t0 };
}

/** /revision pings and dashboard pages from a process of its own, for `seconds`. */
function probes(loggerUrl: string, page: string, cookie: string, seconds: number, stop: AbortSignal): Promise<[number[], number[]]> {
  const child = spawn(process.execPath, [import.meta.filename, "--probe", "--seconds", String(seconds), "--logger", loggerUrl, "--page", page, "--cookie", cookie], { stdio: ["ignore", "pipe", "inherit"] });
  stop.addEventListener("abort", () => child.kill("SIGINT"), { once: true });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((done, fail) =>
    child.once("exit", () => {
      try {
        const r = JSON.parse(out) as { pings: number[]; pages: number[] };
        done([r.pings, r.pages]);
      } catch {
        fail(new Error(`probe process: ${out.slice(0, 200)}`));
      }
    }),
  );
}

async function probeMain() {
  const ac = new AbortController();
  process.once("SIGINT", () => ac.abort());
  setTimeout(() => ac.abort(), Number(args.seconds) * 1000 + 60_000).unref();
  const [pings, pages] = await Promise.all([revisionPings(args.logger!, ac.signal), dashboardPages(args.page!, args.cookie!, ac.signal)]);
  process.stdout.write(JSON.stringify({ pings, pages }));
}

async function phase(seconds: number, work: (stop: AbortSignal) => Promise<unknown>[]): Promise<unknown[]> {
  const ac = new AbortController();
  const running = work(ac.signal);
  await sleep(seconds * 1000);
  ac.abort();
  return Promise.all(running);
}

async function main() {
  if (!existsSync(join(root, "build/server/index.js"))) throw new Error("Run `npm run build` first.");
  const startLoad = loadavg();
  say(machineLine());
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-bench-heavy-"));
  say("Starting a logger (1 kHz bench, 10 channels, 20 minutes of history) and the built console…");
  const logger = await startLoggerProcess(dataDir);
  const { url: consoleUrl, child: consoleChild } = await startConsole(logger.url);
  try {
    const admin = await tokenFor(logger.url, "admin", PASSWORD, CLIENT);
    const viewers: string[] = [];
    for (let i = 0; i < 9; i++) viewers.push(await tokenFor(logger.url, `viewer${i}`, await addUser(logger.url, admin, `viewer${i}`, "Viewer"), `Basic ${Buffer.from("gibench:").toString("base64")}`));
    const opPassword = await addUser(logger.url, admin, "operator", "Operator");
    const cookie = await consoleCookie(consoleUrl, "operator", opPassword);
    const vars = ((await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()) as { Data: { Id: string; Name: string; SourceId: string; SampleRateHz: number }[] }).Data;
    const ID = await saveBenchDashboard(logger.url, admin, vars);
    const page = `${consoleUrl}/dashboard?id=${ID}`;
    // The heaviest request the caps allow: 10 variables × 1,000,000 buckets of 1 ms (10,000,000 values), with Min and Max.
    const fast = vars.filter((v) => v.SampleRateHz === RATE_HZ).slice(0, CHANNELS);
    const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const body = JSON.stringify({ Start: end - 1_000_000, End: end, Variables: fast.map((v) => ({ SID: v.SourceId, VID: v.Id })), Interval: 1 });
    const probe = new AbortController();
    const allowed = await fetch(`${logger.url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${viewers[0]}`, "Content-Type": "application/json" }, body, signal: probe.signal });
    if (allowed.status !== 200) throw new Error(`the heaviest request is refused: ${allowed.status} ${await allowed.text()}`);
    probe.abort();
    const cap = await fetch(`${logger.url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${viewers[0]}`, "Content-Type": "application/json" }, body: JSON.stringify({ ...JSON.parse(body), Start: end - 1_000_001 }) });
    say(`A request one bucket larger is refused: ${cap.status} ${((await cap.json()) as { ReturnState: { Description: string } }).ReturnState.Description}`);

    // Warm-up: one heaviest answer read whole, and a few pages. Reading fills SQLite's page cache of
    // series.db (32 MB by design, logger/store/series/sqlite.ts), which stays full: the start is after it.
    const warm = await heavy(logger.url, viewers[0]!, body, new AbortController().signal);
    say(`Warm-up: the heaviest answer is ${(warm.bytes / MB).toFixed(0)} MB of JSON (${warm.status})`);
    for (let i = 0; i < 5; i++) await dashboardPages(page, cookie, AbortSignal.timeout(300));
    const startRss = rss(logger.child.pid!);
    const startAnon = status(logger.child.pid!, "RssAnon");
    const startMaps = mappings(logger.child.pid!);
    // Rounds of quiet (the reference) and load alternating, the medians reported: this machine's
    // other work changes latencies from one minute to the next (common rules: a reference in the same run).
    let answers = 0;
    let answered = 0;
    const statuses = new Map<number, number>();
    const loop = async (token: string, stop: AbortSignal) => {
      while (!stop.aborted) {
        const r = await heavy(logger.url, token, body, stop);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        answered += r.bytes;
        if (!stop.aborted) answers++;
      }
    };
    const quiet: { pings: number[]; pages: number[]; wait: number }[] = [];
    const load: { pings: number[]; pages: number[]; wait: number }[] = [];
    /** The share of a phase the logger spent runnable but waiting for a CPU. */
    const waited = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const w0 = runqueueMs(logger.child.pid!);
      const t0 = performance.now();
      const out = await work();
      return [out, (runqueueMs(logger.child.pid!) - w0) / (performance.now() - t0)];
    };
    let peak = startRss;
    /** Resident size at the end of each round's quiet stretch: a plateau, or growth from round to round. */
    const rounds: number[] = [];
    const quietS = Math.max(5, Math.round(LOAD_S / ROUNDS / 2));
    for (let round = 1; round <= ROUNDS; round++) {
      say(`Round ${round} of ${ROUNDS}: quiet ${quietS} s, then 4 Viewers each asking the heaviest allowed request in a loop, ${LOAD_S / ROUNDS} s…`);
      if (round > 1) rounds.push(rss(logger.child.pid!));
      const [[[qp, qd]], qw] = await waited(async () => (await phase(quietS, (stop) => [probes(logger.url, page, cookie, quietS, stop)])) as [[number[], number[]]]);
      quiet.push({ pings: qp, pages: qd, wait: qw });
      const [[[lp, ld], p], lw] = await waited(async () => (await phase(LOAD_S / ROUNDS, (stop) => [probes(logger.url, page, cookie, LOAD_S / ROUNDS, stop), peakRss(logger.child.pid!, stop), ...viewers.slice(0, 4).map((t) => loop(t, stop))])) as [[number[], number[]], number]);
      load.push({ pings: lp, pages: ld, wait: lw });
      peak = Math.max(peak, p);
      say(`  /revision p99 quiet ${pct(qp, 99).toFixed(1)} ms, under load ${pct(lp, 99).toFixed(1)} ms; /dashboard p50 quiet ${pct(qd, 50).toFixed(1)} ms, under load ${pct(ld, 50).toFixed(1)} ms; logger waiting for a CPU ${(qw * 100).toFixed(0)} % / ${(lw * 100).toFixed(0)} % of the time`);
    }
    const after = await settledRss(logger.child.pid!, startRss + 20 * MB, 30_000);
    const afterAnon = status(logger.child.pid!, "RssAnon");
    say(`  Resident memory after the readers, against the start: ${grewWhere(startMaps, mappings(logger.child.pid!))}`);

    say(`Five slow readers (1 KB/s each), ${SLOW_S} s…`);
    const slowStart = rss(logger.child.pid!);
    const [slowPeak, ...slow] = (await phase(SLOW_S, (stop) => [peakRss(logger.child.pid!, stop), ...viewers.slice(4, 9).map((t) => heavy(logger.url, t, body, stop, 1024))])) as [number, ...{ status: number; bytes: number }[]];
    const slowAfter = await settledRss(logger.child.pid!, slowStart + 20 * MB, 30_000);

    const all = (rs: { pings: number[]; pages: number[] }[], k: "pings" | "pages") => rs.flatMap((r) => r[k]);
    const each = (rs: { pings: number[]; pages: number[] }[], k: "pings" | "pages", p: number) => rs.map((r) => pct(r[k], p).toFixed(1)).join(", ");
    const qP99 = median(quiet.map((r) => pct(r.pings, 99)));
    const lP99 = median(load.map((r) => pct(r.pings, 99)));
    row(`GET /revision every 10 ms, quiet (p99 per round: ${each(quiet, "pings", 99)})`, `p50 ${pct(all(quiet, "pings"), 50).toFixed(1)} ms, p99 ${qP99.toFixed(1)} ms (median of rounds; ${all(quiet, "pings").length} pings)`, "", null);
    row(`GET /revision every 10 ms, under 4 heavy readers (p99 per round: ${each(load, "pings", 99)})`, `p50 ${pct(all(load, "pings"), 50).toFixed(1)} ms, p99 ${lP99.toFixed(1)} ms (median of rounds), max ${Math.max(...all(load, "pings")).toFixed(0)} ms (${all(load, "pings").length} pings)`, "p99 ≤ 50 ms", lP99 <= 50);
    const q50 = median(quiet.map((r) => pct(r.pages, 50)));
    const l50 = median(load.map((r) => pct(r.pages, 50)));
    row(`Operator's /dashboard (8 widgets, via the console), quiet (p50 per round: ${each(quiet, "pages", 50)})`, `p50 ${q50.toFixed(1)} ms (median of rounds), p95 ${pct(all(quiet, "pages"), 95).toFixed(1)} ms (${all(quiet, "pages").length} pages)`, "", null);
    row(`Operator's /dashboard, under 4 heavy readers (p50 per round: ${each(load, "pages", 50)})`, `p50 ${l50.toFixed(1)} ms (median of rounds), p95 ${pct(all(load, "pages"), 95).toFixed(1)} ms (${all(load, "pages").length} pages); ${(l50 / q50).toFixed(2)}× quiet`, "p50 ≤ 2× quiet", l50 <= 2 * q50);
    row("Logger's main thread runnable but waiting for a CPU (Linux schedstat; the machine's other work)", `quiet ${quiet.map((r) => `${(r.wait * 100).toFixed(0)} %`).join(", ")}; under load ${load.map((r) => `${(r.wait * 100).toFixed(0)} %`).join(", ")} of the time`, "", null);
    row("Logger resident memory, peak under load", `${mb(peak)} (start ${mb(startRss)}, +${mb(peak - startRss)})`, "< start + 200 MB", peak - startRss < 200 * MB);
    row("Logger resident memory after the readers stopped", `${mb(after.bytes)} (+${mb(after.bytes - startRss)}, ${(after.afterMs / 1000).toFixed(1)} s after; anonymous ${mb(startAnon)} → ${mb(afterAnon)}; before rounds 2 and 3: ${rounds.map((r) => `+${mb(r - startRss)}`).join(", ")})`, "≤ start + 20 MB", after.bytes - startRss <= 20 * MB);
    const codes = [...statuses].map(([s, n]) => `${n} × ${s || "cut"}`).join(", ");
    row("Heavy answers in the load rounds", `${answers} complete, ${(answered / MB).toFixed(0)} MB sent (${codes})`, "", null);
    row("Five slow readers (1 KB/s): logger memory", `peak +${mb(slowPeak - slowStart)}, after they left +${mb(slowAfter.bytes - slowStart)}; they got ${slow.map((s) => `${(s.bytes / 1024).toFixed(0)} KB`).join(", ")}`, "peak < +200 MB, after ≤ +20 MB", slowPeak - slowStart < 200 * MB && slowAfter.bytes - slowStart <= 20 * MB);
  } finally {
    consoleChild.kill();
    logger.child.kill("SIGTERM");
    await new Promise((r) => logger.child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  say(`\n${machineLine()} (at the start: ${startLoad.map((l) => l.toFixed(2)).join(" ")})`);
  say("\n| Figure | Measured | Target | Result |\n|---|---|---|---|");
  for (const r of rows) say(`| ${r.join(" | ")} |`);
  if (missed.length) say(`\nMissed: ${missed.join("; ")}`);
  process.exitCode = missed.length ? 1 : 0;
}

if (args.probe) await probeMain();
else await main();
