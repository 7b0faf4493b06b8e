// `npm run test:soak` (in `npm test`, beside the unit suites, on the build made before them): the
// memory regression guard of issue 18. A short soak of the built console + embedded logger
// (bench/soakRun.ts: 10 kiosks with the live stream open and the kiosk dashboard reloaded every
// 10 s, 3 operators paging every 0.5 s, for 3 min) whose heap used after a forced GC at the end of
// the load must be within +20 MB of the value after the 60 s warm-up, for the console and for the
// logger; no page may fail and no live stream drop. Exits 1 otherwise.
// SOAK_GUARD_INJECT_LEAK_KB_PER_S=N keeps N kB a second in the console (bench/soakProbe.ts, a
// test-only preload): with 1000 (≈ +120 MB over the measured 2 min) the guard must fail — that is how it was shown it can.
import { heapGrowth, summary } from "../bench/soakReport.ts";
import { mb, runSoak } from "../bench/soakRun.ts";

const MAX_GROWTH = 20 * 1048576;
const started = Date.now();
const leak = process.env.SOAK_GUARD_INJECT_LEAK_KB_PER_S;
const result = await runSoak({
  kiosks: Number(process.env.SOAK_GUARD_KIOSKS ?? 10),
  operators: Number(process.env.SOAK_GUARD_OPERATORS ?? 3),
  durationMs: Number(process.env.SOAK_GUARD_SECONDS ?? 180) * 1000,
  sampleMs: 15_000,
  warmupMs: 60_000,
  idleMs: 0,
  buildDir: process.env.SOAK_BUILD_DIR ?? "build",
  // The guard runs beside the typecheck and three Vitest suites on as few as 2 cores: in their
  // first seconds the logger has answered a page's first call later than the console's 2 s
  // deadline (a fresh-clone CI run: three pages 503 and two live streams told "logger away" in
  // the first 15 s, none after). What the guard watches is memory and failing requests, not that
  // deadline (tests/e2e/faults.*.spec.ts do): a logger that answers is given 15 s here.
  consoleEnv: { LOGGER_PAGE_DEADLINE_MS: "15000", ...(leak ? { SOAK_LEAK_KB_PER_S: leak } : {}) },
});
const growth = heapGrowth(result)!;
const failures: string[] = [];
for (const line of summary(result)) console.log(line);
for (const p of ["console", "logger"] as const) {
  const ok = growth[p] <= MAX_GROWTH;
  console.log(`${p} heap used after GC: ${mb(growth.warm[p].heapUsed)} after warm-up → ${mb(growth.end[p].heapUsed)} at the end (${growth[p] >= 0 ? "+" : ""}${mb(growth[p])}; limit +20 MB) ${ok ? "PASS" : "FAIL"}`);
  if (!ok) failures.push(`${p} heap grew by ${mb(growth[p])}`);
}
if (result.errors) failures.push(`${result.errors} failed requests: ${JSON.stringify(result.errorKinds)}`);
if (result.streamDrops) failures.push(`${result.streamDrops} live streams dropped`);
console.log(`Soak guard took ${((Date.now() - started) / 1000).toFixed(0)} s${leak ? ` (leak injected: ${leak} kB/s in the console)` : ""}`);
if (failures.length) {
  console.error(`Soak guard FAILED: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("Soak guard passed.");
process.exit(0);
