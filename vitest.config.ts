import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Logger test files that must have a module world of their own: they set the environment or
 * timers the logger reads at import (memory-settle), measure the process's memory
 * (heavy-readers), or load node-opcua, whose client keeps process-wide state (opcua-*).
 */
export const ISOLATED_LOGGER_FILES = ["tests/unit/logger/memory-settle.test.ts", "tests/unit/logger/heavy-readers.test.ts", "tests/unit/logger/opcua-*.test.ts"];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 20_000,
    // Vitest runs as many files at a time as there are cores less one: one at a time on 2 cores.
    // Most files here spend their time waiting on the servers they start (a logger, PostgreSQL,
    // an OPC UA or Modbus device) and on timers, not computing: one more file than cores keeps the
    // CPU busy — the unit suite took 399 s with one at a time on 2 cores, 156 s with three (issue 25).
    maxWorkers: availableParallelism() + 1,
    projects: [
      // The logger's files share their workers' modules (isolate: false): a new module world per
      // file re-imported the logger each time, a fifth of the suite's CPU (226 -> 178-182 CPU-s,
      // 151 -> 127-132 s on 2 cores). Each starts its own loggers on their own folders and ports;
      // they passed in five runs in a row, two with the files shuffled (--sequence.shuffle.files).
      { extends: true, test: { name: "logger", include: ["tests/unit/logger/**/*.test.ts"], exclude: ["**/node_modules/**", ...ISOLATED_LOGGER_FILES], isolate: false } },
      // The console's files set its environment before importing it, fake timers, and keep its
      // caches: a module world each, as Vitest's default — in a worker thread rather than a child
      // process: on a 2-core VM a process per file cost more than the tests (61 files: 68 and 78
      // CPU-s with processes, 47 and 58 with threads; the logger's shared workers gain nothing).
      { extends: true, test: { name: "console", include: ["tests/unit/console/**/*.test.ts", "tests/unit/*.test.ts"], pool: "threads" } },
      // These measure or set up their process (its memory, node-opcua's process-wide state): a process each.
      { extends: true, test: { name: "isolated", include: ISOLATED_LOGGER_FILES } },
    ],
  },
});
