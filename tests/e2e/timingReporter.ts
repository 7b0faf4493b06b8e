import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

// Issue 25: the end of every browser run says what it ran and where the time went, so the next
// slowdown is seen when it comes — the totals and the 15 slowest tests.
const SLOWEST = 15;

export default class TimingReporter implements Reporter {
  private readonly results: { title: string; ms: number; status: TestResult["status"]; start: number }[] = [];
  private readonly started = Date.now();

  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name ?? "";
    this.results.push({ title: `[${project}] ${test.location.file.split("/").pop()}:${test.location.line} ${test.title}`, ms: result.duration, status: result.status, start: result.startTime.getTime() });
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
  }

  printsToStdio() {
    return false;
  }
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
