import { createHash } from "node:crypto";
import { inject } from "vitest";
import { openDb } from "../../logger/store/db.ts";
import type { Db } from "../../logger/store/db.ts";
import { openPostgres } from "../../logger/store/postgres/open.ts";
import type {} from "./pg-suite/global.ts"; // the typing of inject("storeUrl")

// The store the unit tests run on: SQLite in a plain `vitest run`; the suite's PostgreSQL under
// `npm run test:pg` (tests/support/pg-suite/global.ts provides its URL).

export const testStoreUrl = (): string | undefined => inject("storeUrl") || undefined;

/** The engine name the logger reports (ConfigAPI.GetVersionInformation) in this run. */
export const testEngineName = (): "SQLite" | "PostgreSQL" => (testStoreUrl() ? "PostgreSQL" : "SQLite");

/** One logger id per data folder: a restart on the same folder finds its schema again. */
export const testLoggerId = (dataDir: string): string => "t" + createHash("sha1").update(dataDir).digest("hex").slice(0, 20);

/** The relational store for a test's data folder, on the engine of this run (not migrated). */
export async function openTestDb(dataDir: string): Promise<Db> {
  const url = testStoreUrl();
  return url ? await openPostgres({ url, loggerId: testLoggerId(dataDir), log: () => {} }) : openDb(dataDir);
}
