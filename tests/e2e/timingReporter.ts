import { mkdirSync, writeFileSync } from "node:fs";
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

// Issue 25: the end of every browser run says what it ran and where the time went, so the next
// slowdown is seen when it comes — the totals, the 15 slowest tests and the 10 files that cost
// the machine the most CPU (fixtures.ts measures each test's; on 2 cores the phase is CPU-bound,
// and the slowest tests are mostly ones that wait).
const SLOWEST = 15;
const COSTLIEST = 10;
/** Every test's time and CPU, for a closer look than the summary (e.g. a CI run's clone, after it). */
const FIGURES = "test-results/browser-tests.json";

export default class TimingReporter implements Reporter {
  private readonly results: { title: string; file: string; ms: number; cpu: number | null; status: TestResult["status"]; start: number; worker: number }[] = [];
  private readonly started = Date.now();

  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name ?? "";
    const file = `[${project}] ${test.location.file.split("/").pop()}`;
    const cpu = result.annotations.find((a) => a.type === "cpu")?.description;
    this.results.push({ title: `${file}:${test.location.line} ${test.title}`, file, ms: result.duration, cpu: cpu === undefined ? null : Number(cpu), status: result.status, start: result.startTime.getTime(), worker: result.workerIndex });
  }

  onEnd(result: FullResult) {
    const count = (status: TestResult["status"]) => this.results.filter((r) => r.status === status).length;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const wall = Date.now() - this.started;
    const busy = this.results.reduce((sum, r) => sum + r.ms, 0);
    console.log(`\nBrowser tests: ${this.results.length} run, ${count("passed")} passed, ${count("skipped")} skipped, ${count("failed") + count("timedOut") + count("interrupted")} failed — ${result.status}`);
    console.log(`Wall time ${seconds(wall)}; test time ${seconds(busy)} over the workers (${(busy / Math.max(1, wall)).toFixed(2)} tests at a time on average)`);
    console.log(`Time with k tests running at once: ${overlap(this.results, this.started, this.started + wall)}`);
    console.log(`The ${SLOWEST} slowest tests:`);
    for (const r of [...this.results].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) console.log(`  ${seconds(r.ms).padStart(8)}  ${r.title}`);
    mkdirSync("test-results", { recursive: true });
    writeFileSync(FIGURES, JSON.stringify(this.results.map(({ title, ms, cpu, status, start, worker }) => ({ title, ms, cpu, status, start, worker }))));
    const costs = costByFile(this.results);
    if (costs.length === 0) return;
    const cpu = costs.reduce((sum, c) => sum + c.cpu, 0);
    console.log(`CPU in tests ${cpu.toFixed(0)} CPU-s (${(cpu / Math.max(1, busy / 1000)).toFixed(2)} per second of test); the ${COSTLIEST} costliest files:`);
    for (const c of costs.slice(0, COSTLIEST)) console.log(`  ${`${c.cpu.toFixed(1)} CPU-s`.padStart(12)} ${`${(c.share * 100).toFixed(1)} %`.padStart(7)}  ${c.file} (${c.tests} tests, ${seconds(c.ms)})`);
    console.log(`Every test's time and CPU: ${FIGURES}`);
  }

  printsToStdio() {
    return false;
  }
}

/** The CPU the tests of each file cost, costliest first, with its share of all tests' CPU (tests without a figure left out). */
export function costByFile(results: readonly { file: string; ms: number; cpu: number | null }[]) {
  const files = new Map<string, { file: string; tests: number; ms: number; cpu: number; share: number }>();
  for (const r of results) {
    if (r.cpu === null) continue;
    const f = files.get(r.file) ?? { file: r.file, tests: 0, ms: 0, cpu: 0, share: 0 };
    f.tests += 1;
    f.ms += r.ms;
    f.cpu += r.cpu;
    files.set(r.file, f);
  }
  const all = [...files.values()].reduce((sum, f) => sum + f.cpu, 0);
  for (const f of files.values()) f.share = all > 0 ? f.cpu / all : 0;
  return [...files.values()].sort((a, b) => b.cpu - a.cpu);
}

/**
 * How long 0, 1, 2, … tests ran at the same time: a worker without a test (starting its stack,
 * or idle at the end while another finishes a long file) is time the machine may not be using.
 */
function overlap(results: readonly { start: number; ms: number }[], from: number, to: number): string {
  const edges = results.flatMap((r) => [{ t: r.start, d: 1 }, { t: r.start + r.ms, d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
  const spent: number[] = [];
  let running = 0;
  let at = from;
  for (const e of [...edges, { t: to, d: 0 }]) {
    const t = Math.min(Math.max(e.t, at), to);
    spent[running] = (spent[running] ?? 0) + (t - at);
    at = t;
    running += e.d;
  }
  return Array.from(spent, (ms, k) => `${k}: ${((ms ?? 0) / 1000).toFixed(0)} s`).join(", ");
}
