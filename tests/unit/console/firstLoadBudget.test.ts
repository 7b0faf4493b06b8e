// Issue 15: a first load of /dashboard needs at most 150 KB of gzipped JavaScript to hydrate.
// The app is built here (into a temporary folder, not build/, which end-to-end runs use) and the
// first load read from its manifest as bench/dashboard.ts reports it (bench/firstLoad.ts), so a
// change that pushes the dashboard over budget fails the unit tests, not only a bench run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_BUDGET_KB, firstLoadOf } from "../../../bench/firstLoad.ts";

// `npm test` builds the app in its phase before this suite and says where (LOGGIA_FRESH_BUILD):
// that build of the same tree is read instead of a second one.
const root = resolve(import.meta.dirname, "../../..");
const fresh = process.env.LOGGIA_FRESH_BUILD;
const out = fresh ?? mkdtempSync(join(tmpdir(), "loggia-first-load-"));
let load: ReturnType<typeof firstLoadOf>;

beforeAll(() => {
  if (!fresh) {
    execFileSync(process.execPath, [join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      cwd: root,
      env: { ...process.env, LOGGIA_BUILD_DIR: out, NODE_ENV: "production" },
      stdio: "pipe",
    });
  }
  load = firstLoadOf(join(out, "client"));
}, 180_000);
afterAll(() => {
  if (!fresh) rmSync(out, { recursive: true, force: true });
});

describe("first-load JavaScript", () => {
  it(`a first load of /dashboard stays within ${DASHBOARD_BUDGET_KB} KB gzip`, () => {
    const dashboard = load?.route("routes/dashboard");
    expect(dashboard, "no dashboard route in the build").toBeTruthy();
    const biggest = dashboard!.files
      .toSorted((a, b) => b.kb - a.kb)
      .slice(0, 8)
      .map((f) => `${f.file} ${f.kb.toFixed(1)}`)
      .join(", ");
    expect(dashboard!.kb, `largest files: ${biggest}`).toBeLessThanOrEqual(DASHBOARD_BUDGET_KB);
  });

  it("the shell carries neither i18next nor the dashboard's date fields", () => {
    const files = load!.route("routes/dashboard")!.files.map((f) => f.file);
    expect(files.filter((f) => /i18next|DateTimeField|dateTimeInput|RangeForm-/.test(f))).toEqual([]);
  });
});
