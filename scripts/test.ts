// `npm test`: every check of the project, in phases, with the time of each printed at the end
// (issue 25), so the next slowdown is seen when it comes:
//   1. what the tests need from Debian (Chromium, mosquitto, PostgreSQL, nginx, Xvfb…);
//   2. one build of the console;
//   3. the typecheck, the unit, conformance and PostgreSQL suites and the soak guard side by
//      side (scripts/run-parallel.ts: they wait on servers they start much of the time);
//   4. the browser tests (Playwright, a worker more than the cores, each with its own stack;
//      the PostgreSQL projects included), which print their totals, the 15 slowest tests
//      and the 10 files whose tests cost the most CPU.
// Beside each phase's wall time it prints its CPU time and how busy the machine was.
// The first phase that fails stops the run, after the summary.
import { spawn } from "node:child_process";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { childSeconds, machineTicks, timed } from "./cpuTime.ts";

// Node's on-disk code cache for every Node process the tests start (the workers' consoles and
// loggers, Playwright's workers, loggers a unit test spawns): a Playwright worker's start cost
// ~1 CPU-s less with it on a 2-core VM (bench/RESULTS.md). Vitest's own module runner does not use it.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "loggia-node-compile-cache");

const npm = process.env.npm_execpath;
type Phase = { name: string; command: string[] };
const phases: Phase[] = [
  { name: "system packages", command: ["bash", "-c", "bash scripts/ensure-mosquitto.sh && bash scripts/ensure-postgres.sh && bash scripts/ensure-e2e-deps.sh"] },
  { name: "build", command: ["npm", "run", "build"] },
  { name: "typecheck, unit, conformance, PostgreSQL, soak guard", command: [process.execPath, "scripts/run-parallel.ts", "typecheck", "test:unit", "test:conformance", "test:pg", "test:soak"] },
  { name: "browser tests", command: ["npx", "playwright", "test"] },
];

/** Runs a phase; its exit code and the CPU time of all its processes (timed, scripts/cpuTime.ts). */
function run([command, ...args]: string[]): Promise<{ code: number; cpu: number | null }> {
  // npm through the npm that runs us (npm_execpath), so every phase sees the same node and PATH.
  const [file, argv] = command === "npm" && npm ? [process.execPath, [npm, ...args]] : command === "npx" && npm ? [process.execPath, [npm, "exec", "--", ...args]] : [command!, args];
  return new Promise((done) => {
    let times = "";
    const child = spawn(...timed([file, ...argv]), { stdio: ["inherit", "inherit", "inherit", "pipe"] });
    child.stdio[3]!.on("data", (b: Buffer) => (times += b.toString()));
    child.on("close", (code, signal) => {
      done({ code: code ?? (signal ? 1 : 0), cpu: childSeconds(times) });
    });
  });
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")} s`;
const done: { name: string; ms: number; code: number; cpu: number | null; busy: number | null }[] = [];
const started = Date.now();
for (const phase of phases) {
  console.log(`\n===== npm test: ${phase.name} =====`);
  const t0 = Date.now();
  const ticks0 = machineTicks();
  const { code, cpu } = await run(phase.command);
  const ticks1 = machineTicks();
  const busy = ticks0 && ticks1 && ticks1.all > ticks0.all ? (ticks1.busy - ticks0.busy) / (ticks1.all - ticks0.all) : null;
  done.push({ name: phase.name, ms: Date.now() - t0, code, cpu, busy });
  if (code !== 0) break;
  // The unit suite's first-load budget reads this build rather than making one of its own.
  if (phase.name === "build") process.env.LOGGIA_FRESH_BUILD = join(process.cwd(), "build");
}
const total = Date.now() - started;
console.log(`\n===== npm test: ${done.at(-1)!.code === 0 && done.length === phases.length ? "passed" : `FAILED in ${done.at(-1)!.name}`} in ${minutes(total)} =====`);
// Beside the wall time: the CPU time of the phase's own processes (those it waits for: not a
// server it leaves running, nor what Chromium's zygote reaps itself, so a lower bound), and how
// busy the whole machine was meanwhile — near 100 % a phase is CPU-bound, and only less work or
// a faster machine shortens it.
const cpu = (p: (typeof done)[number]) => `${p.cpu === null ? "" : `${p.cpu.toFixed(0).padStart(6)} CPU-s`}${p.busy === null ? "" : `, machine ${Math.round(100 * p.busy)} % busy`}`;
for (const p of done) console.log(`  ${minutes(p.ms).padStart(13)}  ${String(Math.round((100 * p.ms) / total)).padStart(3)} %  ${cpu(p).padEnd(32)}  ${p.name}${p.code ? " (failed)" : ""}`);
console.log(`  on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}, load average now ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
process.exit(done.at(-1)!.code);
