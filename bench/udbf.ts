// `node bench/udbf.ts [--hours H] [--import-mb MB] [--rounds N]` (after `npm run build`): the
// UDBF figures of issue 27, each against its reference in the same run.
//  1. Export: the same selection as bench/export.ts (the bench's 100 Hz variables over 14 h of
//     simulated history) streamed logger → console → client as CSV and as UDBF, alternately,
//     N rounds each (medians): MB/s and samples/s of each; UDBF ≥ 4× CSV's samples/s; the
//     console's and the logger's resident memory grow by < 50 MB each (both are processes of
//     their own, read from /proc).
//  2. Import: a 500 MB UDBF file (25 f32 variables at 1 kHz, as a bench controller records)
//     sent in 8 MB parts through an import session into the logger, N rounds (each into a new
//     source): ≥ 150 MB/s from opening the session until its close has answered (median); the
//     logger's resident memory grows by < 50 MB (the largest growth of the rounds, each from the
//     size before it). The logger's CPU time is shown by thread (its own, the import packer's
//     and the checkpointer's, V8's collector helpers).
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { LOGGER_NODE_FLAGS, loggerEnv } from "../logger/flags.ts";
import { TYPE } from "../logger/udbf/format.ts";
import { UdbfRows, udbfHeader } from "../logger/udbf/writer.ts";
import { cpuSec, machineLine, median, rssMb } from "./machine.ts";
import { adminToken, freePort, signInCookie, startConsole } from "./stack.ts";
import { waitForLine } from "../tests/support/childLine.ts";

const root = resolve(import.meta.dirname, "..");
const PASSWORD = "Bench-Pass-1!";
const say = (line: string) => process.stdout.write(`${line}\n`);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const HOURS = arg("hours", 14);
const IMPORT_MB = arg("import-mb", 500);
const ROUNDS = arg("rounds", 3);

/** Peak resident memory of each process while `work` runs, sampled every 50 ms. */
async function peaks<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; base: (number | null)[]; peak: number[] }> {
  const base = await Promise.all(pids.map(rssMb));
  const peak = base.map((b) => b ?? 0);
  const timer = setInterval(() => void Promise.all(pids.map(rssMb)).then((now) => now.forEach((v, i) => (peak[i] = Math.max(peak[i]!, v ?? 0)))), 50);
  try {
    return { result: await work(), base, peak };
  } finally {
    clearInterval(timer);
  }
}

async function startLoggerProcess(dataDir: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...LOGGER_NODE_FLAGS, ...(process.env.BENCH_LOGGER_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_LOGGER_PROFILE}`] : []), join(root, "logger/main.ts")], {
    cwd: root,
    env: { ...process.env, ...loggerEnv(), LOGGER_PORT: String(port), LOGGER_HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await waitForLine(child, /logger listening on/, "the logger");
  return { url: `http://127.0.0.1:${port}`, child };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill();
  await new Promise((r) => child.once("exit", r));
}

async function exportBench(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-bench-udbf-"));
  say(`Starting a logger with ${HOURS} h of simulated history…`);
  const logger = await startLoggerProcess(dataDir, { SIM: "on", BACKFILL: `${HOURS}h` });
  const { url: consoleUrl, child } = await startConsole(logger.url);
  try {
    const cookie = await signInCookie(consoleUrl, PASSWORD);
    const token = await adminToken(logger.url, PASSWORD);
    const vars = ((await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { Data: { Id: string; SampleRateHz: number }[] }).Data;
    const bench = vars.filter((v) => v.SampleRateHz === 100);
    const end = Date.now() - 60_000;
    const form = (format: string, from: number) =>
      new URLSearchParams([...bench.map((v) => ["v", v.Id]), ["span", "absolute"], ["from", String(from)], ["to", String(end)], ["mode", "raw"], ["time", "iso"], ["sep", "comma"], ["format", format]]);
    const download = async (format: string, from: number) => {
      const res = await fetch(`${consoleUrl}/export/csv`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: consoleUrl }, body: form(format, from) });
      if (!res.ok) throw new Error(`${format} export answered ${res.status}`);
      let bytes = 0;
      let rows = 0;
      const offset = Number(res.headers.get("X-UDBF-Data-Offset"));
      const rowBytes = Number(res.headers.get("X-UDBF-Row-Bytes"));
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        // CSV rows: line ends (one header line, taken off below).
        if (format === "csv") for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) rows++;
      }
      if (format === "udbf") rows = (bytes - offset) / rowBytes;
      else rows -= 1;
      return { bytes, rows };
    };
    // Warm both paths (module loading, JIT) with a minute each.
    await download("csv", end - 60_000);
    await download("udbf", end - 60_000);
    const from = end - HOURS * 3600_000 + 60_000;
    const figures: Record<string, { mbs: number[]; sps: number[]; bytes: number; console: number[]; logger: number[]; cpu: number[] }> = {
      csv: { mbs: [], sps: [], bytes: 0, console: [], logger: [], cpu: [] },
      udbf: { mbs: [], sps: [], bytes: 0, console: [], logger: [], cpu: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const format of ["csv", "udbf"] as const) {
        const cpu0 = await Promise.all([cpuSec(child.pid!), cpuSec(logger.child.pid!)]);
        const t0 = performance.now();
        const { result, base, peak } = await peaks([child.pid!, logger.child.pid!], () => download(format, from));
        const sec = (performance.now() - t0) / 1000;
        const cpu1 = await Promise.all([cpuSec(child.pid!), cpuSec(logger.child.pid!)]);
        const f = figures[format]!;
        // The console's and the logger's CPU time: what other load on the machine does not change.
        const used = cpu0.map((c, i) => (c === null || cpu1[i] === null ? null : cpu1[i]! - c));
        if (used[0] !== null && used[1] !== null) f.cpu.push(used[0]! + used[1]!);
        f.mbs.push(result.bytes / 1e6 / sec);
        f.sps.push((result.rows * bench.length) / sec);
        f.bytes = result.bytes;
        f.console.push(peak[0]! - (base[0] ?? peak[0]!));
        f.logger.push(peak[1]! - (base[1] ?? peak[1]!));
        say(`  round ${round + 1} ${format}: ${(result.bytes / 1e6).toFixed(0)} MB, ${result.rows} rows in ${sec.toFixed(1)} s (CPU: console ${used[0]?.toFixed(1) ?? "n/a"} s, logger ${used[1]?.toFixed(1) ?? "n/a"} s)`);
      }
    }
    say(machineLine());
    let pass = true;
    for (const format of ["csv", "udbf"] as const) {
      const f = figures[format]!;
      say(`${format.toUpperCase()} export through the console (median of ${ROUNDS}): ${(f.bytes / 1e9).toFixed(2)} GB, ${median(f.mbs).toFixed(0)} MB/s, ${(median(f.sps) / 1e6).toFixed(1)} M samples/s; growth console ${Math.max(...f.console).toFixed(1)} MB, logger ${Math.max(...f.logger).toFixed(1)} MB`);
      const ok = Math.max(...f.console) < 50 && Math.max(...f.logger) < 50;
      say(`  ${format.toUpperCase()} memory growth < 50 MB each (console, logger) ${ok ? "PASS" : "FAIL"}`);
      pass &&= ok;
    }
    if (figures.csv!.cpu.length && figures.udbf!.cpu.length) {
      const c = median(figures.csv!.cpu);
      const u = median(figures.udbf!.cpu);
      say(`CPU time of console + logger per export (median): CSV ${c.toFixed(1)} s, UDBF ${u.toFixed(1)} s — CSV costs ${(c / u).toFixed(2)}× the CPU of UDBF for the same samples (a figure the load of other work changes little)`);
    }
    const ratio = median(figures.udbf!.sps) / median(figures.csv!.sps);
    say(`UDBF samples/s ÷ CSV samples/s: ${ratio.toFixed(2)}× (target ≥ 4×) ${ratio >= 4 ? "PASS" : "FAIL"}`);
    return pass && ratio >= 4;
  } finally {
    child.kill();
    await stop(logger.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A recording as a bench controller writes it: 25 f32 variables at 1 kHz, time stamps with ns jitter. */
function udbfParts(totalBytes: number): { parts: Buffer[]; rows: number } {
  const vars = Array.from({ length: 25 }, (_, i) => ({ name: `Channel ${i + 1}`, unit: "mA", direction: 0, type: TYPE.f32, precision: 3 }));
  const t0 = Date.UTC(2016, 2, 1) * 1000;
  const header = udbfHeader(vars, 1000, t0 / 1000);
  const perPart = Math.floor((8 * 1024 * 1024) / header.rowBytes);
  const total = Math.floor((totalBytes - header.bytes.length) / header.rowBytes);
  const parts: Buffer[] = [Buffer.from(header.bytes)];
  const enc = new UdbfRows(header, vars.map((v) => v.type), perPart);
  for (let r = 0; r < total; ) {
    const n = Math.min(perPart, total - r);
    for (let k = 0; k < n; k++, r++) {
      enc.time(t0 + r * 1000);
      for (let c = 0; c < 25; c++) enc.value(c, 10 * Math.sin(r / (100 + 7 * c)));
    }
    parts.push(Buffer.from(enc.take()));
  }
  return { parts, rows: total };
}

/**
 * POSTs a part with node:http, as the family's clients send bytes (one socket write of the body).
 * Not fetch: undici copies a Buffer body through a web stream and spent 2.4–2.7 CPU-seconds per
 * 500 MB sent on this machine (node:http 0.2–1.0) — the bench measured its own client.
 */
function postBytes(url: string, headers: Record<string, string>, body: Buffer, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { method: "POST", agent, headers: { ...headers, "Content-Type": "application/octet-stream", "Content-Length": String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end(body);
  });
}

/** CPU seconds of each thread of a process by its name (/proc/<pid>/task), summed per name. */
function threadCpu(pid: number): Map<string, number> {
  const by = new Map<string, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    by.set(name, (by.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
  }
  return by;
}

async function importBench(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-bench-udbf-import-"));
  say(`Writing a ${IMPORT_MB} MB UDBF file in memory (25 f32 variables at 1 kHz)…`);
  const { parts, rows } = udbfParts(IMPORT_MB * 1e6);
  const size = parts.reduce((n, p) => n + p.length, 0);
  const logger = await startLoggerProcess(dataDir, { SIM: "off", BACKFILL: "" });
  const agent = new Agent({ keepAlive: true });
  try {
    const auth = { Authorization: `Bearer ${await adminToken(logger.url, PASSWORD)}` };
    const importParts = async (name: string, list: Buffer[]) => {
      const opened = await fetch(`${logger.url}/history/data/import`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ Type: "udbf", SourceID: name, SourceName: name }) });
      if (!opened.ok) throw new Error(`open answered ${opened.status} ${await opened.text()}`);
      const id = ((await opened.json()) as { Data: { SessionId: string } }).Data.SessionId;
      for (const part of list) {
        const sent = await postBytes(`${logger.url}/history/data/import/${id}`, auth, part, agent);
        if (sent.status !== 200) throw new Error(`part answered ${sent.status} ${sent.text}`);
      }
      const sentAt = performance.now();
      const closed = await fetch(`${logger.url}/history/data/import/${id}`, { method: "DELETE", headers: auth });
      if (!closed.ok) throw new Error(`close answered ${closed.status} ${await closed.text()}`);
      const answer = ((await closed.json()) as { Data: { Rows: number } }).Data;
      return { ...answer, closeSec: (performance.now() - sentAt) / 1000 };
    };
    // A small import first: the baseline is the logger at rest with its code loaded.
    await importParts("warm-up", [parts[0]!, parts[1]!.subarray(0, 108 * 1000)]);
    const rates: number[] = [];
    const growths: number[] = [];
    let rowsOk = true;
    for (let round = 1; round <= ROUNDS; round++) {
      await new Promise((r) => setTimeout(r, 500));
      const cpu0 = await cpuSec(logger.child.pid!);
      const threads0 = threadCpu(logger.child.pid!);
      const t0 = performance.now();
      const { result, base, peak } = await peaks([logger.child.pid!], () => importParts(`bench-${round}`, parts));
      const sec = (performance.now() - t0) / 1000;
      const cpu1 = await cpuSec(logger.child.pid!);
      const threads = [...threadCpu(logger.child.pid!)].map(([name, s]) => [name, s - (threads0.get(name) ?? 0)] as const).filter(([, s]) => s >= 0.05);
      const rate = size / 1e6 / sec;
      const growth = base[0] === null ? Number.NaN : peak[0]! - base[0]!;
      rates.push(rate);
      growths.push(growth);
      say(`Round ${round}: ${(size / 1e6).toFixed(0)} MB (${result.Rows} rows × 25 values) in ${sec.toFixed(2)} s = ${rate.toFixed(0)} MB/s (the parts ${(sec - result.closeSec).toFixed(2)} s, the close ${result.closeSec.toFixed(2)} s); resident growth ${growth.toFixed(1)} MB (${base[0]?.toFixed(0)} → ${peak[0]!.toFixed(0)} MB)`);
      if (cpu0 !== null && cpu1 !== null) say(`  the logger's CPU time ${(cpu1 - cpu0).toFixed(2)} s = ${(size / 1e6 / (cpu1 - cpu0)).toFixed(0)} MB per CPU second; by thread: ${threads.map(([n, s]) => `${n} ${s.toFixed(2)}`).join(", ")}`);
      if (result.Rows !== rows) (rowsOk = false), say(`FAIL: imported ${result.Rows} rows, the file has ${rows}`);
    }
    const rate = median(rates);
    const growth = Math.max(...growths);
    say(machineLine());
    say(`UDBF import through an import session (median of ${ROUNDS}): ${rate.toFixed(0)} MB/s (target ≥ 150 MB/s) ${rate >= 150 ? "PASS" : "FAIL"}`);
    say(`Logger resident memory growth (largest of ${ROUNDS}): ${growth.toFixed(1)} MB (target < 50 MB) ${growth < 50 ? "PASS" : "FAIL"}`);
    return rowsOk && rate >= 150 && growth < 50;
  } finally {
    agent.destroy();
    await stop(logger.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const only = process.argv.includes("--import-only") ? "import" : process.argv.includes("--export-only") ? "export" : null;
  if (only !== "import" && !existsSync(join(root, "build/server/index.js"))) throw new Error("Run `npm run build` first.");
  let pass = true;
  if (only !== "import") pass = (await exportBench()) && pass;
  if (only !== "export") pass = (await importBench()) && pass;
  process.exitCode = pass ? 0 : 1;
}

await main();
