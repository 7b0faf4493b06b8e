// `npm test`: every check of the project, in phases, with the time of each printed at the end
// (issue 25), so the next slowdown is seen when it comes:
//   1. what the tests need from Debian (Chromium, mosquitto, PostgreSQL, nginx, Xvfb…);
//   2. one build of the console;
//   3. the typecheck, the unit, conformance and PostgreSQL suites and the soak guard side by
//      side (scripts/run-parallel.ts: they wait on servers they start much of the time);
//   4. the browser tests (Playwright, one worker per core, each with its own stack; the
//      PostgreSQL projects included), which print their totals and 15 slowest tests.
// The first phase that fails stops the run, after the summary.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";

const npm = process.env.npm_execpath;
type Phase = { name: string; command: string[] };
const phases: Phase[] = [
  { name: "system packages", command: ["bash", "-c", "bash scripts/ensure-mosquitto.sh && bash scripts/ensure-postgres.sh && bash scripts/ensure-e2e-deps.sh"] },
  { name: "build", command: ["npm", "run", "build"] },
  { name: "typecheck, unit, conformance, PostgreSQL, soak guard", command: [process.execPath, "scripts/run-parallel.ts", "typecheck", "test:unit", "test:conformance", "test:pg", "test:soak"] },
  { name: "browser tests", command: ["npx", "playwright", "test"] },
];

function run([command, ...args]: string[]): Promise<number> {
  // npm through the npm that runs us (npm_execpath), so every phase sees the same node and PATH.
  const [file, argv] = command === "npm" && npm ? [process.execPath, [npm, ...args]] : command === "npx" && npm ? [process.execPath, [npm, "exec", "--", ...args]] : [command!, args];
  return new Promise((done) => {
    const child = spawn(file, argv, { stdio: "inherit" });
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")} s`;
const done: { name: string; ms: number; code: number }[] = [];
const started = Date.now();
for (const phase of phases) {
  console.log(`\n===== npm test: ${phase.name} =====`);
  const t0 = Date.now();
  const code = await run(phase.command);
  done.push({ name: phase.name, ms: Date.now() - t0, code });
  if (code !== 0) break;
}
const total = Date.now() - started;
console.log(`\n===== npm test: ${done.at(-1)!.code === 0 && done.length === phases.length ? "passed" : `FAILED in ${done.at(-1)!.name}`} in ${minutes(total)} =====`);
for (const p of done) console.log(`  ${minutes(p.ms).padStart(13)}  ${String(Math.round((100 * p.ms) / total)).padStart(3)} %  ${p.name}${p.code ? " (failed)" : ""}`);
console.log(`  on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}, load average now ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
process.exit(done.at(-1)!.code);
