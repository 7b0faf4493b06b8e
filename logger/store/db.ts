import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export type Db = DatabaseSync;

export function openDb(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(join(dataDir, "logger.db"));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  // Another process (a second logger, a backup tool) may hold the lock briefly.
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}

// Handlers run synchronously between awaits, so a plain BEGIN/COMMIT is enough to keep
// a check and the write that depends on it atomic.
export function tx<T>(db: Db, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw err;
  }
}

export type Row = Record<string, unknown>;

export function get<T = Row>(db: Db, sql: string, ...params: Array<string | number | null | Uint8Array>): T | undefined {
  return db.prepare(sql).get(...params) as T | undefined;
}

export function all<T = Row>(db: Db, sql: string, ...params: Array<string | number | null | Uint8Array>): T[] {
  return db.prepare(sql).all(...params) as T[];
}

export function run(db: Db, sql: string, ...params: Array<string | number | null | Uint8Array>): number {
  return Number(db.prepare(sql).run(...params).lastInsertRowid);
}
