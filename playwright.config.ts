import { availableParallelism } from "node:os";
import { defineConfig, devices, type Project } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "./tests/e2e/chromium.ts";
import { STACK_ENV } from "./tests/e2e/workerStack.ts";

// Every worker has its own console + embedded logger (tests/e2e/fixtures.ts starts it once per
// worker, tests/e2e/workerStack.ts), so workers run side by side: one more than the machine has
// cores (E2E_WORKERS to choose), js on no more than the cores (three page-heavy workers were
// slower than two), the kiosk's one at a time. The kiosk's and the fault tests wait on outages,
// token expiries and refreshes, and with one worker per core a fifth of the CPU sat idle
// (vmstat): 734 s → 619 s for the browser phase on 2 cores with the third worker and the long
// files first (bench/RESULTS.md). A worker's ports come from its parallel index; each worker
// process reads this file again, after Playwright has put that index into its environment, and
// everything else (fixtures, specs) reads them from process.env. The default lies below Linux's
// ephemeral range (32768–60999): a port in it may be any socket's for a while (a server started
// on port 0, a connection's own end), and a worker's console once found 39312 taken so.
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 30310);
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
process.env.E2E_PORT = String(PORT_BASE + 2 * slot);
process.env.E2E_LOGGER_PORT = String(PORT_BASE + 2 * slot + 1);
process.env.E2E_ADMIN_PASSWORD = STACK_ENV.ADMIN_PASSWORD;

const baseURL = `http://localhost:${process.env.E2E_PORT}`;
const desktop = { ...devices["Desktop Chrome"], launchOptions: CHROMIUM_LAUNCH };

const CORES = availableParallelism();
const SQLITE: Project[] = [
  { name: "js", use: desktop, testIgnore: /kiosk\.spec|pg-outage\.spec/, workers: CORES },
  // No limit: its pages run no script, and its files are the queue's last (with two, the third worker sat idle at the end).
  { name: "nojs", use: { ...desktop, javaScriptEnabled: false }, testMatch: /(signin|password|banner|nojs|gating)\.spec/ },
  { name: "kiosk", use: { ...desktop, viewport: { width: 1920, height: 1080 } }, testMatch: /kiosk\.spec/, workers: 1 },
];

// A representative subset on the PostgreSQL store (issue 17), its workers' loggers on a
// throwaway PostgreSQL each. Every store of the logger is touched: users and roles (the
// last-Administrator check-then-write), dashboards, live values, history and analytics series,
// CSV export, alarms, the kiosk; and the outage of PostgreSQL itself (pg-outage.spec.ts, which
// starts a stack of its own and runs only here).
const spec = (...names: string[]) => names.map((n) => new RegExp(`/${n.replace(/\./g, "\\.")}\\.spec\\.ts$`));
const PG_SUBSET: Record<string, RegExp[]> = {
  // Signing in with JavaScript: dashboards.spec's first test signs in through the form.
  js: spec("dashboards", "live", "analytics", "pg-outage"),
  nojs: spec("signin", "users.nojs", "export.nojs", "alarming.nojs"),
  kiosk: spec("kiosk"),
};
const POSTGRES: Project[] = SQLITE.map((p) => ({
  ...p,
  name: `pg-${p.name}`,
  metadata: { store: "postgres" },
  testMatch: PG_SUBSET[p.name!]!,
  testIgnore: [],
  // Tests of the console alone (URL state, redirects, menus), nothing the store answers: kept lean.
  grepInvert: /time range and refresh interval live in the URL|redirect_uri is followed|user menu offers|a long link while signed out/,
}));

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/globalSetup.ts",
  workers: Number(process.env.E2E_WORKERS ?? CORES + 1),
  // The tests of one file run in order in one worker (some build on what the one before did);
  // files are spread over the workers.
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A bound for a test that hangs, not a speed check: machines of the same size differ by 2.5×
  // (a fresh-clone run of 35 min against 15 the day before, same code: phone-lists.spec.ts:94,
  // 14 s on the one, 31 s on the other, was cut at 30 s). Tests that wait longer say so themselves.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [["list"], ["./tests/e2e/timingReporter.ts"]],
  use: { baseURL, launchOptions: CHROMIUM_LAUNCH, trace: "off", screenshot: "only-on-failure" },
  // Long, waiting files first (the kiosk's outages and token expiries, PostgreSQL's own stacks),
  // beside the page-heavy ones: left to the end they ran with the other workers idle.
  projects: ["kiosk", "pg-kiosk", "pg-js", "js", "nojs", "pg-nojs"].map((name) => [...SQLITE, ...POSTGRES].find((p) => p.name === name)!),
});
