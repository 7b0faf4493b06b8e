// `node bench/heavy-answer.ts [--vs DIR] [--rounds 7] [--store postgres] [--format csv] [--interval 1]`:
// what one heavy data answer costs the logger — POST /history/data of 10 variables × 300,000
// buckets of 2 ms with Min and Max (91 MB of JSON, the answer heavy-readers.test.ts reads) — as
// the logger process's CPU seconds per answer and the answer's wall time, median of the rounds, on
// a 1 kHz bench of 10 channels with 12 minutes of history. With --vs DIR (a checkout of another
// commit, e.g. `git worktree add /tmp/old HEAD~1`) a logger of that tree runs beside this one on
// the same data and the two are asked in turn, A B A B …, so the ratio holds while the machine's
// speed drifts. --store postgres: both on a throwaway PostgreSQL (a schema each); --format csv
// the same range as a CSV export (--interval 1: raw samples); --prof DIR: the loggers' CPU profiles.
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cpuSec, machineLine, median } from "./machine.ts";
import { startPostgres } from "../tests/support/postgres.ts";
import { startBenchLogger } from "../tests/support/benchLogger.ts";
import { adminToken } from "./stack.ts";

const PASSWORD = "Bench-Pass-1!";
const { values: args } = parseArgs({ options: { vs: { type: "string" }, rounds: { type: "string", default: "7" }, store: { type: "string", default: "sqlite" }, format: { type: "string", default: "json" }, interval: { type: "string", default: "2" }, prof: { type: "string" } } });
const rounds = Number(args.rounds);

type Logger = { name: string; url: string; child: ChildProcess; dataDir: string; token: string; vars: { SID: string; VID: string }[] };

if (args.store !== "sqlite" && args.store !== "postgres") throw new Error(`--store sqlite or postgres, not ${args.store}`);
const postgres = args.store === "postgres" ? await startPostgres() : null;

async function start(root: string, name: string, id: string): Promise<Logger> {
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-heavy-answer-"));
  const { url, child } = await startBenchLogger({
    root,
    dataDir,
    password: PASSWORD,
    backfill: "12m",
    rateHz: 1000,
    channels: 10,
    seed: 3,
    ...(postgres ? { env: { STORE_URL: postgres.url, LOGGER_ID: id } } : {}),
    ...(args.prof ? { nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${args.prof}`] } : {}),
  });
  const token = await adminToken(url, PASSWORD);
  const list = (await (await fetch(`${url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { Data: { SourceId: string; Id: string; SampleRateHz: number }[] };
  const vars = list.Data.filter((v) => v.SampleRateHz === 1000).slice(0, 10).map((v) => ({ SID: v.SourceId, VID: v.Id }));
  return { name, url, child, dataDir, token, vars };
}

/** One answer read to its end: its size, wall time and the logger's CPU meanwhile. */
async function answer(lg: Logger, end: number): Promise<{ mb: number; wall: number; cpu: number; sha: string }> {
  const cpu0 = (await cpuSec(lg.child.pid!))!;
  const t0 = performance.now();
  const res = await fetch(`${lg.url}/history/data`, {
    method: "POST",
    headers: { Authorization: `Bearer ${lg.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ Start: end - 600_000, End: end, Variables: lg.vars, Interval: Number(args.interval), Format: args.format }),
  });
  let bytes = 0;
  const hash = createHash("sha256");
  for await (const chunk of res.body!) {
    bytes += chunk.byteLength;
    hash.update(chunk);
  }
  const wall = (performance.now() - t0) / 1000;
  return { mb: bytes / 1e6, wall, cpu: (await cpuSec(lg.child.pid!))! - cpu0, sha: hash.digest("hex") };
}

console.log(machineLine());
const loggers = [await start(resolve(import.meta.dirname, ".."), "this tree", "this_tree")];
if (args.vs) loggers.push(await start(resolve(args.vs), args.vs, "other_tree"));
const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
const figures = new Map(loggers.map((lg) => [lg, [] as Awaited<ReturnType<typeof answer>>[]]));
try {
  // The first answer of each fills SQLite's page cache and compiles the code: a warm-up, not counted.
  for (const lg of loggers) await answer(lg, end);
  for (let r = 0; r < rounds; r++) for (const lg of loggers) figures.get(lg)!.push(await answer(lg, end));
  for (const [lg, f] of figures) {
    console.log(`${lg.name}: ${f[0]!.mb.toFixed(1)} MB; logger CPU per answer median ${median(f.map((x) => x.cpu)).toFixed(2)} s (${f.map((x) => x.cpu.toFixed(2)).join(", ")}); wall median ${median(f.map((x) => x.wall)).toFixed(2)} s`);
  }
  if (loggers.length === 2) {
    const [a, b] = loggers.map((lg) => figures.get(lg)!);
    const ratios = a!.map((x, i) => x.cpu / b![i]!.cpu);
    // The same samples (the simulator's values depend on the seed and the time only): the same bytes.
    console.log(`answers byte for byte the same: ${a!.every((x, i) => x.sha === b![i]!.sha) ? "yes" : "NO"}`);
    console.log(`CPU ratio this tree / ${args.vs}, pair by pair: median ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(", ")})`);
  }
  console.log(machineLine());
} finally {
  for (const lg of loggers) {
    lg.child.kill("SIGTERM");
    await new Promise((r) => lg.child.once("exit", r));
    rmSync(lg.dataDir, { recursive: true, force: true });
  }
  await postgres?.stop();
}
