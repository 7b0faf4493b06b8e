import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    testTimeout: 20_000,
    // Vitest runs as many files at a time as there are cores less one: one at a time on 2 cores.
    // Most files here spend their time waiting on the servers they start (a logger, PostgreSQL,
    // an OPC UA or Modbus device) and on timers, not computing: one more file than cores keeps the
    // CPU busy — the unit suite took 399 s with one at a time on 2 cores, 156 s with three (issue 25).
    maxWorkers: availableParallelism() + 1,
  },
});
