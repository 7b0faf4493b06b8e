// Preloaded (`node --import bench/soakProbe.ts --expose-gc …`) into the console and the logger by
// the soak benchmark only — no product code changes and no inspector: on SIGUSR2 the process
// reads the command in `$SOAK_PROBE_FILE.cmd` and answers in `$SOAK_PROBE_FILE`:
//   mem       process.memoryUsage() (rss, heapUsed, heapTotal, external, arrayBuffers)
//   gc        the same after global.gc() twice (major collections: the "heap-used after GC")
//   snapshot  v8.writeHeapSnapshot() into the probe file's folder, then the figures
// Every answer also carries the sizes the console's caches registered (diagnostics.server.ts).
// Each answer carries the command's sequence number so the soak knows it is fresh.
// SOAK_LEAK_KB_PER_S (tests only): keeps that many kB per second forever — the injected leak
// that shows the soak guard can fail.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeHeapSnapshot } from "node:v8";

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on("SIGUSR2", () => {
    let seq = 0;
    let command = "mem";
    try {
      [command = "mem", seq = 0] = readFileSync(`${file}.cmd`, "utf8").trim().split(" ") as [string, number];
    } catch {
      // No command file: plain figures.
    }
    let snapshot: string | undefined;
    if ((command === "gc" || command === "snapshot") && gc) {
      gc();
      gc();
    }
    if (command === "snapshot") snapshot = writeHeapSnapshot(join(dirname(file), `${process.env.SOAK_PROBE_NAME ?? process.pid}-${Date.now()}.heapsnapshot`));
    // The console's cache and stream-table sizes (app/services/diagnostics.server.ts), if it has any.
    const registry = (globalThis as Record<symbol, unknown>)[Symbol.for("loggia.diagnostics.counts")] as Map<string, () => number> | undefined;
    const counts = registry ? Object.fromEntries([...registry].map(([name, size]) => [name, size()])) : undefined;
    const answer = { seq: Number(seq), command, at: Date.now(), gcAvailable: Boolean(gc), snapshot, counts, ...process.memoryUsage() };
    writeFileSync(`${file}.tmp`, JSON.stringify(answer));
    renameSync(`${file}.tmp`, file);
  });
  const leakKbPerS = Number(process.env.SOAK_LEAK_KB_PER_S ?? 0);
  if (leakKbPerS > 0) {
    const kept: string[] = [];
    setInterval(() => {
      // Strings of distinct content, so V8 cannot share them.
      for (let i = 0; i < leakKbPerS; i++) kept.push(`${Date.now()}-${i}-`.padEnd(1024, "x") + Math.random());
    }, 1000).unref();
  }
}
