// `npm run test:pg` (1/2): the logger's unit tests with every started logger on PostgreSQL.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import base, { ISOLATED_LOGGER_FILES } from "../../../vitest.config.ts";

const here = import.meta.dirname;
const loggerTests = resolve(here, "../../unit/logger");
// Files that start no logger (codecs, alarm rules, drivers against their own test devices) run
// the very same code on either store: the SQLite run has run them (issue 25: no run twice for nothing).
const storeless = readdirSync(loggerTests)
  .filter((f) => f.endsWith(".test.ts") && !/startLogger|from "\.\/helpers(\.ts)?"/.test(readFileSync(resolve(loggerTests, f), "utf8")))
  .map((f) => `tests/unit/logger/${f}`);
// Spread, not mergeConfig: that would add these projects to the base ones instead of replacing them.
const { projects: _projects, ...baseTest } = base.test ?? {};
const excluded = [
  ...(base.test?.exclude ?? ["**/node_modules/**"]),
  // Builds an older logger's SQLite data folder and starts on it: SQLite's own upgrade path
  // (postgres-migrations.test.ts checks migration 7 on PostgreSQL).
  "tests/unit/logger/migrate-alarm-list.test.ts",
  "tests/unit/logger/migrate-dashboard-history.test.ts",
  // Start a PostgreSQL of their own whatever the suite: the SQLite run already ran them.
  "tests/unit/logger/postgres-*.test.ts",
  "tests/unit/logger/series-pg*.test.ts",
  // The embedded store's own path (rows written while a UDBF file arrives, checked in series.db):
  // on PostgreSQL an import is spooled, which udbf.test.ts and import.test.ts cover there.
  "tests/unit/logger/streamed-import.test.ts",
  ...storeless,
];
export default defineConfig({
  ...base,
  root: resolve(here, "../../.."),
  test: {
    ...baseTest,
    globalSetup: [resolve(here, "global.ts")],
    setupFiles: [resolve(here, "unit-setup.ts")],
    hookTimeout: 60_000,
    // As in the SQLite run (vitest.config.ts): the logger's files share their workers' modules.
    projects: [
      { extends: true, test: { name: "pg-logger", include: ["tests/unit/logger/**/*.test.ts"], exclude: [...excluded, ...ISOLATED_LOGGER_FILES], isolate: false } },
      { extends: true, test: { name: "pg-isolated", include: ISOLATED_LOGGER_FILES, exclude: excluded } },
    ],
  },
});
