import type { Sql } from "./sql.ts";
import { SqliteSql, openSqlite } from "./sqlite.ts";

// The logger's relational store: the Sql interface (logger/store/sql.ts) on the embedded SQLite
// file. Every store module takes it as `db`.

export type Db = Sql;
export type { Param, Row } from "./sql.ts";

export function openDb(dataDir: string): Db {
  return openSqlite(dataDir);
}

/**
 * A token that changes with every row written to the store, by this process or another; "" when
 * the engine has no cheap way to tell (the caller then relies on its other parts).
 */
export function changeToken(db: Db): string {
  if (db instanceof SqliteSql) return db.changeCounters();
  const own = (db as { changeToken?: () => string }).changeToken;
  return own ? own.call(db) : "";
}

/** The engine's name and version, for ConfigAPI.GetVersionInformation. */
export async function engineVersion(db: Db): Promise<{ Name: string; Version: string }> {
  if (db instanceof SqliteSql) return { Name: "SQLite", Version: db.version() };
  const row = await db.get<{ v: string }>("SELECT current_setting('server_version') AS v");
  return { Name: "PostgreSQL", Version: row?.v ?? "" };
}
