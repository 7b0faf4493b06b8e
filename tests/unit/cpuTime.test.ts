import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { costByFile } from "../e2e/timingReporter.ts";
import { treeSeconds } from "../../scripts/cpuTime.ts";

// Issue 25: the browser run's CPU per test comes from the worker's process tree (fixtures.ts).
const linux = process.platform === "linux";

/** A child that spends `ms` of CPU (its own, however busy the machine), says so, then waits for its stdin to close. */
function busyChild(ms: number) {
  const code = `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < ${ms}); process.stdout.write("done"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`;
  return spawn(process.execPath, ["-e", code], { stdio: ["pipe", "pipe", "inherit"] });
}

describe.runIf(linux)("treeSeconds", () => {
  it("counts a child's CPU while it runs and after it was waited for, and no one else's", async () => {
    const before = treeSeconds(process.pid)!;
    const child = busyChild(400);
    await once(child.stdout!, "data");
    const running = treeSeconds(process.pid)!;
    const own = treeSeconds(child.pid!)!;
    expect(own).toBeGreaterThanOrEqual(0.3);
    expect(running - before).toBeGreaterThanOrEqual(0.3);
    // The child's own tree holds nothing of its parent's.
    expect(own).toBeLessThan(running);
    child.stdin!.end();
    await once(child, "exit");
    // Waited for: its time is now in this process's cutime/cstime, not lost.
    expect(treeSeconds(process.pid)!).toBeGreaterThanOrEqual(running - 0.02);
  });

  it("answers null for a process that is not there", () => {
    expect(treeSeconds(2 ** 22 + 1)).toBeNull();
  });
});

describe("costByFile", () => {
  it("adds each file's tests up, costliest first, with its share, leaving out tests without a figure", () => {
    const costs = costByFile([
      { file: "[js] a.spec.ts", ms: 1000, cpu: 1 },
      { file: "[js] b.spec.ts", ms: 500, cpu: 2.5 },
      { file: "[js] a.spec.ts", ms: 3000, cpu: 0.5 },
      { file: "[nojs] a.spec.ts", ms: 100, cpu: null },
    ]);
    expect(costs).toEqual([
      { file: "[js] b.spec.ts", tests: 1, ms: 500, cpu: 2.5, share: 0.625 },
      { file: "[js] a.spec.ts", tests: 2, ms: 4000, cpu: 1.5, share: 0.375 },
    ]);
  });
});
