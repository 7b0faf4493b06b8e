// `npm run test:pg` (2/2): the data-API conformance suite against a logger on PostgreSQL.
import { resolve } from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import base from "../../conformance/vitest.config.ts";

const here = import.meta.dirname;
export default mergeConfig(
  base,
  defineConfig({
    test: {
      globalSetup: [resolve(here, "global.ts")],
      setupFiles: [resolve(here, "conformance-setup.ts")],
    },
  }),
);
