// The machine line every benchmark prints: figures are only comparable on the same CPU and load.
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

export function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return `${m?.[1] ?? cpus()[0]?.model ?? "unknown"} × ${cpus().length}`;
  } catch {
    return `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}`;
  }
}

export const machineLine = () => `CPU: ${cpuModel()}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} (1, 5, 15 min)`;
