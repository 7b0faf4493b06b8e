import { readFileSync } from "node:fs";

// The CPU time of a command and everything it waits for, from bash's `times` (npm test's phases,
// run-parallel's suites): which part costs the machine what, which wall time beside others hides.

/**
 * `command` under a bash that prints `times` on fd 3 when it ends. The command itself runs without
 * fd 3: a server it leaves running (PostgreSQL) must not hold that pipe open.
 */
export function timed(command: string[]): [string, string[]] {
  return ["bash", ["-c", '"$@" 3>&-; code=$?; times >&3; exit $code', "timed", ...command]];
}

/** The children's user + system seconds from what `times` printed on fd 3 ("1m23.456s 0m7.890s" on its second line), or null. */
export function childSeconds(times: string): number | null {
  const children = times.trim().split("\n")[1];
  return children ? [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0) : null;
}

/** The machine's CPU ticks so far, busy and in all (Linux's /proc/stat; null elsewhere). */
export function machineTicks(): { busy: number; all: number } | null {
  try {
    const [user, nice, system, idle, iowait, ...rest] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const all = [user, nice, system, idle, iowait, ...rest].reduce((a, b) => a! + b!, 0)!;
    return { busy: all - idle! - iowait!, all };
  } catch {
    return null;
  }
}
