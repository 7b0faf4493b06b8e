// `node bench/export.ts` (after `npm run build`): the Export issue's figure — a CSV export of
// at least 1 GB streamed logger → console → client at ≥ 50 MB/s, while the console's resident
// memory grows by < 50 MB. The console runs as its own process (server/main.ts), so its RSS
// is read from /proc; the logger runs here with simulated history backfilled.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startLogger } from "../logger/server.ts";
import { cpuSec, machineLine, rssMb } from "./machine.ts";
import { adminToken, signInCookie, startConsole } from "./stack.ts";

const root = resolve(import.meta.dirname, "..");
const PASSWORD = "Bench-Pass-1!";
const TARGET_BYTES = 1e9;
/** Hours of 100 Hz bench history: 28 variables give ~250 bytes a row, so 14 h ≈ 1.05 GB of CSV. */
const HOURS = 14;
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  if (!existsSync(join(root, "build/server/index.js"))) throw new Error("Run `npm run build` first.");
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-bench-export-"));
  say(`Starting a logger with ${HOURS} h of simulated history (series rows ${process.env.SERIES_CODEC === "plain" ? "plain" : "packed"})…`);
  // SERIES_CODEC=plain: the same with every row stored plain (before issue 29), for comparison.
  const codec = process.env.SERIES_CODEC === "plain" ? "plain" : "packed";
  const logger = await startLogger({ port: 0, dataDir, adminPassword: PASSWORD, log: () => {}, simulator: { seed: 1, backfillSec: HOURS * 3600 }, series: { codec } });
  const { url: consoleUrl, child } = await startConsole(logger.url);
  let pass = false;
  try {
    const cookie = await signInCookie(consoleUrl, PASSWORD);
    const token = await adminToken(logger.url, PASSWORD);
    const vars = ((await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { Data: { Id: string; SampleRateHz: number }[] }).Data;
    const bench = vars.filter((v) => v.SampleRateHz === 100);
    const end = Date.now() - 60_000;
    const form = new URLSearchParams([...bench.map((v) => ["v", v.Id]), ["span", "absolute"], ["from", String(end - HOURS * 3600_000 + 60_000)], ["to", String(end)], ["mode", "raw"], ["time", "iso"], ["sep", "comma"]]);

    // Warm the page and the export route once (module loading, JIT) with a one-minute export, so
    // the baseline is the console at rest and the growth is what streaming a gigabyte costs.
    await (await fetch(`${consoleUrl}/export`, { headers: { Cookie: cookie } })).arrayBuffer();
    const warm = new URLSearchParams(form);
    warm.set("from", String(end - 60_000));
    const warmed = await fetch(`${consoleUrl}/export/csv`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: consoleUrl }, body: warm });
    if (!warmed.ok) throw new Error(`warm-up export answered ${warmed.status}`);
    await warmed.arrayBuffer();
    const base = await rssMb(child.pid!);
    let peak = base ?? 0;
    const sampler = setInterval(() => void rssMb(child.pid!).then((mb) => (peak = Math.max(peak, mb ?? 0))), 100);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const console0 = await cpuSec(child.pid!);
    const res = await fetch(`${consoleUrl}/export/csv`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: consoleUrl }, body: form });
    if (!res.ok || !res.headers.get("content-type")?.startsWith("text/csv")) throw new Error(`export answered ${res.status} ${res.headers.get("content-type")}`);
    let bytes = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    const sec = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const loggerCpu = (cpu.user + cpu.system) / 1e6;
    const consoleCpu = console0 === null ? null : (await cpuSec(child.pid!))! - console0;
    clearInterval(sampler);
    const rate = bytes / 1e6 / sec;
    const growth = base === null ? null : peak - base;
    say(`CSV export through the console: ${(bytes / 1e9).toFixed(2)} GB in ${sec.toFixed(1)} s = ${rate.toFixed(0)} MB/s (target ≥ 50 MB/s; ${(rate / 50).toFixed(2)}× target) ${rate >= 50 ? "PASS" : "FAIL"}`);
    // On a loaded machine the wall clock says how busy it is; CPU time says what the export costs.
    say(`CPU time: logger and client (this process) ${loggerCpu.toFixed(1)} s = ${(bytes / 1e6 / loggerCpu).toFixed(0)} MB per CPU-second; console ${consoleCpu === null ? "n/a" : `${consoleCpu.toFixed(1)} s = ${(bytes / 1e6 / consoleCpu).toFixed(0)} MB per CPU-second`}; ${machineLine()}`);
    say(`Console resident memory growth: ${growth === null ? "n/a (no /proc)" : `${growth.toFixed(1)} MB (${base!.toFixed(0)} → ${peak.toFixed(0)} MB)`} (target < 50 MB) ${growth === null ? "" : growth < 50 ? "PASS" : "FAIL"}`);
    pass = bytes >= TARGET_BYTES && rate >= 50 && (growth === null || growth < 50);
    if (bytes < TARGET_BYTES) say(`FAIL: only ${bytes} bytes, below the 1 GB the figure needs`);
  } finally {
    child.kill();
    await logger.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exitCode = pass ? 0 : 1;
}

await main();
