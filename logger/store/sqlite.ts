import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { StatementSync } from "node:sqlite";
import type { Param, Row, Sql } from "./sql.ts";

// The embedded engine behind the Sql interface: one logger.db file, answered synchronously and
// handed back as already resolved promises.
//
// Transactions: node:sqlite has one connection, so a transaction is the connection's state.
// Between the awaits of a tx other requests run; a statement of theirs must not land inside it
// (it would be committed, or rolled back, with someone else's work). So while a tx is open,
// statements outside it wait until it ends, and transactions queue behind one another.

/** Marks the async context of an open tx, to catch a statement issued on the engine instead of q. */
const inside = new AsyncLocalStorage<object>();
const MAX_STATEMENTS = 1000;

export class SqliteSql implements Sql {
  readonly engine = "sqlite" as const;
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /** Resolves when the open transaction ends; null when none is open. */
  private open: Promise<void> | null = null;
  private openToken: object | null = null;
  /** The end of the last queued transaction. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The statements of the open transaction: straight to the connection. */
  private readonly joined: Sql;

  constructor(file: string) {
    this.db = new DatabaseSync(file);
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec("PRAGMA foreign_keys = ON");
    // Another process (a second logger, a backup tool) may hold the lock briefly.
    this.db.exec("PRAGMA busy_timeout = 5000");
    const self = this;
    this.joined = {
      engine: "sqlite",
      get: (sql, ...params) => settle(() => self.stmt(sql).get(...params)) as never,
      all: (sql, ...params) => settle(() => self.stmt(sql).all(...params)) as never,
      run: (sql, ...params) => settle(() => Number(self.stmt(sql).run(...params).changes)),
      exec: (sql) => settle(() => self.db.exec(sql)),
      tx: (fn) => fn(self.joined),
      close: () => Promise.reject(new Error("close() inside a transaction")),
    };
  }

  private stmt(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (!s) {
      // Statements built from filters (IN lists of any length) must not pile up for ever.
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `f` now, or after the open transaction ends. */
  private outside<T>(f: () => T): Promise<T> {
    if (this.open === null) return settle(f);
    if (this.openToken !== null && inside.getStore() === this.openToken) {
      return Promise.reject(new Error("A statement inside tx() went to the database instead of the transaction's q"));
    }
    return this.waitThen(f);
  }

  private async waitThen<T>(f: () => T): Promise<T> {
    // Checked again after each wake-up: the next queued transaction may have begun meanwhile.
    while (this.open !== null) await this.open;
    return f();
  }

  get<T = Row>(sql: string, ...params: Param[]): Promise<T | undefined> {
    return this.outside(() => this.stmt(sql).get(...params) as T | undefined);
  }

  all<T = Row>(sql: string, ...params: Param[]): Promise<T[]> {
    return this.outside(() => this.stmt(sql).all(...params) as T[]);
  }

  run(sql: string, ...params: Param[]): Promise<number> {
    return this.outside(() => Number(this.stmt(sql).run(...params).changes));
  }

  exec(sql: string): Promise<void> {
    return this.outside(() => this.db.exec(sql));
  }

  tx<T>(fn: (q: Sql) => Promise<T>): Promise<T> {
    // Waiting for itself would never end: a nested tx must be q.tx.
    if (this.openToken !== null && inside.getStore() === this.openToken) {
      return Promise.reject(new Error("tx() inside tx() went to the database instead of the transaction's q"));
    }
    const result = this.queue.then(() => this.runTx(fn));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async runTx<T>(fn: (q: Sql) => Promise<T>): Promise<T> {
    // Statements issued outside while the queue moved on were let through; now the gate closes.
    let release!: () => void;
    this.open = new Promise<void>((resolve) => (release = resolve));
    const token = {};
    this.openToken = token;
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        const result = await inside.run(token, () => fn(this.joined));
        this.db.exec("COMMIT");
        return result;
      } catch (err) {
        if (this.db.isTransaction) this.db.exec("ROLLBACK");
        throw err;
      }
    } finally {
      this.open = null;
      this.openToken = null;
      release();
    }
  }

  /** SQLite's own counters for the revision token (logger/http/revision.ts). */
  changeCounters(): string {
    const t = (this.stmt("SELECT total_changes() AS t").get() as { t: number }).t;
    const v = (this.stmt("PRAGMA data_version").get() as { data_version: number }).data_version;
    return `${t}.${v}`;
  }

  version(): string {
    return (this.stmt("SELECT sqlite_version() AS v").get() as { v: string }).v;
  }

  /** Closes at once when no transaction is open (callers may rely on that), else after it. */
  close(): Promise<void> {
    if (this.open === null) return settle(() => this.closeNow());
    return this.waitThen(() => this.closeNow());
  }

  private closeNow(): void {
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}

function settle<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

export function openSqlite(dataDir: string): SqliteSql {
  mkdirSync(dataDir, { recursive: true });
  return new SqliteSql(join(dataDir, "logger.db"));
}
