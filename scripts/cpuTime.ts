import { readdirSync, readFileSync } from "node:fs";

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

/**
 * CPU seconds of process `root` and everything below it, with the children that ended and were
 * waited for (their time is in their parent's cutime/cstime): what a browser test's worker, its
 * Chromium, its pages and the stacks it started have cost so far. Linux's /proc; null elsewhere.
 * Clock ticks are counted at USER_HZ, 100 on every Linux this runs on.
 */
export function treeSeconds(root: number): number | null {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return null;
  }
  const procs = new Map<number, { parent: number; ticks: number }>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the fields start after its last ")".
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.set(Number(name), { parent: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // ended meanwhile
    }
  }
  if (!procs.has(root)) return null;
  const below = new Map<number, boolean>([[root, true]]);
  const isBelow = (pid: number): boolean => {
    const known = below.get(pid);
    if (known !== undefined) return known;
    const parent = procs.get(pid)?.parent ?? 0;
    const answer = parent > 1 && procs.has(parent) && isBelow(parent);
    below.set(pid, answer);
    return answer;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (isBelow(pid)) ticks += p.ticks;
  return ticks / 100;
}
