import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startLogger } from "../../../logger/server.ts";
import { ADMIN_PASSWORD, login, tempDir } from "./helpers.ts";

// npm start's "new installation" (first sign-in hint, an hour of history) is the logger's word,
// not a file in DATA_DIR: with STORE_URL the store is a PostgreSQL schema (`npm run test:pg`).
describe("a logger's first start", () => {
  it("says it created the store, and backfills BACKFILL_IF_NEW only then", async () => {
    const dataDir = tempDir();
    const opts = { port: 0, dataDir, log: () => {}, adminPassword: ADMIN_PASSWORD, simulator: { seed: 4 } };
    const startOf = async (url: string) => {
      const token = (await login(url, "admin", ADMIN_PASSWORD)).access;
      const res = await fetch(`${url}/history/structure/sources`, { headers: { Authorization: `Bearer ${token}` } });
      const sources = ((await res.json()) as { Data: { AbsoluteStart: number }[] }).Data;
      return Math.min(...sources.map((s) => s.AbsoluteStart));
    };
    try {
      const t0 = Date.now();
      const first = await startLogger({ ...opts, backfillIfNewSec: 60 });
      expect(first.created).toBe(true);
      const start1 = await startOf(first.url);
      expect(start1).toBeLessThanOrEqual(t0 - 55_000);
      await first.close();

      const again = await startLogger({ ...opts, backfillIfNewSec: 3600 });
      expect(again.created).toBe(false);
      // The stored store is not new: no hour of history in front of the first minute.
      expect(await startOf(again.url)).toBe(start1);
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
