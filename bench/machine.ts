// The machine line every benchmark prints: figures are only comparable on the same CPU and load.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";

export function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return `${m?.[1] ?? cpus()[0]?.model ?? "unknown"} × ${cpus().length}`;
  } catch {
    return `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}`;
  }
}

/** The middle of the rounds (the upper one of an even count): what every benchmark reports. */
export const median = (xs: readonly number[]): number => xs.toSorted((a, b) => a - b)[xs.length >> 1]!;

export const machineLine = () => `CPU: ${cpuModel()}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} (1, 5, 15 min)`;

/** Resident set of a process in MB (Linux); null elsewhere. */
export async function rssMb(pid: number): Promise<number | null> {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, all its threads (Linux); null elsewhere. */
export async function cpuSec(pid: number): Promise<number | null> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
