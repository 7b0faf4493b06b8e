import { inject, vi } from "vitest";
import { testLoggerId } from "../testStore.ts";

// Every logger a unit test starts (startLogger) keeps its data in the suite's PostgreSQL instead
// of SQLite, in a schema named after its DATA_DIR: a test that restarts a logger on the same
// folder finds its data again, and tests running side by side never share a schema.
vi.mock(import("../../../logger/server.ts"), async (importOriginal) => {
  const real = await importOriginal();
  const storeUrl = inject("storeUrl");
  return {
    ...real,
    startLogger: (opts) =>
      real.startLogger({
        storeUrl,
        loggerId: testLoggerId(opts.dataDir),
        ...opts,
      }),
  };
});
