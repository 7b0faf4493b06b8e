// `node scripts/run-parallel.ts <npm script>…`: runs npm scripts at the same time and fails if any
// fails. npm test uses it for the typecheck, the vitest suites (SQLite unit, conformance, the
// PostgreSQL run) and the soak guard: they spend most of their wall time waiting on servers they
// started, so on 2 cores they finish together in about the time of the longest instead of the sum.
// Each suite's output is kept and printed whole, so the logs do not interleave: a passing suite's
// when it ends, a failing suite's after all have ended, because CI shows only the tail of the log
// and the failure must be in it.
import { spawn } from "node:child_process";
import { childSeconds, timed } from "./cpuTime.ts";

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error("usage: node scripts/run-parallel.ts <npm script> [<npm script>…]");
  process.exit(2);
}

const npm = process.env.npm_execpath;
const started = Date.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

function print(script: string, code: number, ms: number, out: Buffer[]) {
  process.stdout.write(`\n===== npm run ${script}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds(ms)} =====\n`);
  process.stdout.write(Buffer.concat(out));
}

const runs = scripts.map(
  (script) =>
    new Promise<{ script: string; code: number; ms: number; cpu: number | null; out: Buffer[] }>((done) => {
      const t0 = Date.now();
      const out: Buffer[] = [];
      let times = "";
      // Through the npm that runs us (npm_execpath), so the scripts see the same node and PATH;
      // timed (scripts/cpuTime.ts): the CPU time of all the script's processes on fd 3.
      const [file, args] = timed(npm ? [process.execPath, npm, "run", script] : ["npm", "run", script]);
      const child = spawn(file, args, {
        stdio: ["ignore", "pipe", "pipe", "pipe"],
        env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
      });
      child.stdout!.on("data", (b: Buffer) => out.push(b));
      child.stderr!.on("data", (b: Buffer) => out.push(b));
      child.stdio[3]!.on("data", (b: Buffer) => (times += b.toString()));
      child.on("close", (code, signal) => {
        const ms = Date.now() - t0;
        const result = code ?? (signal ? 1 : 0);
        const cpu = childSeconds(times);
        if (result === 0) print(script, result, ms, out);
        done({ script, code: result, ms, cpu, out });
      });
    }),
);

const results = await Promise.all(runs);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) print(r.script, r.code, r.ms, r.out);
const cpu = (r: (typeof results)[number]) => (r.cpu === null ? "" : `, ${r.cpu.toFixed(0)} CPU-s`);
console.log(`\n${results.map((r) => `${r.script} ${r.code === 0 ? "passed" : "FAILED"} (${seconds(r.ms)}${cpu(r)})`).join(", ")}; together ${seconds(Date.now() - started)}`);
process.exit(failed.length ? 1 : 0);
