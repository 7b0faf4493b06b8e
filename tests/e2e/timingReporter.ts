import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

// Issue 25: the end of every browser run says what it ran and where the time went, so the next
// slowdown is seen when it comes — the totals and the 15 slowest tests.
const SLOWEST = 15;

export default class TimingReporter implements Reporter {
  private readonly results: { title: string; ms: number; status: TestResult["status"] }[] = [];
  private readonly started = Date.now();

  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name ?? "";
    this.results.push({ title: `[${project}] ${test.location.file.split("/").pop()}:${test.location.line} ${test.title}`, ms: result.duration, status: result.status });
  }

  onEnd(result: FullResult) {
    const count = (status: TestResult["status"]) => this.results.filter((r) => r.status === status).length;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const wall = Date.now() - this.started;
    const busy = this.results.reduce((sum, r) => sum + r.ms, 0);
    console.log(`\nBrowser tests: ${this.results.length} run, ${count("passed")} passed, ${count("skipped")} skipped, ${count("failed") + count("timedOut") + count("interrupted")} failed — ${result.status}`);
    console.log(`Wall time ${seconds(wall)}; test time ${seconds(busy)} over the workers (${(busy / Math.max(1, wall)).toFixed(2)} tests at a time on average)`);
    console.log(`The ${SLOWEST} slowest tests:`);
    for (const r of [...this.results].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) console.log(`  ${seconds(r.ms).padStart(8)}  ${r.title}`);
  }

  printsToStdio() {
    return false;
  }
}
