// `npx vitest run --config tests/conformance/vitest.config.ts`: the data-API conformance suite.
// One file, run in order (later checks use what earlier ones found); the embedded logger is
// started by the suite itself unless CONFORMANCE_URL names another one.
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: resolve(import.meta.dirname, "../.."),
  test: {
    include: ["tests/conformance/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    sequence: { concurrent: false, shuffle: false },
  },
});
