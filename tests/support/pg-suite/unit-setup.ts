import { createHash } from "node:crypto";
import { inject, vi } from "vitest";

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
        loggerId: "t" + createHash("sha1").update(opts.dataDir).digest("hex").slice(0, 20),
        ...opts,
      }),
  };
});
