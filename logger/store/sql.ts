// The one SQL interface behind the logger's relational stores (users, roles, settings,
// dashboards, rules, alarms, messages, measurements, metadata, data sources): the embedded
// SQLite file or PostgreSQL (STORE_URL, issue 17). Asynchronous because PostgreSQL answers over
// the network; the SQLite engine answers at once.
//
// Portable SQL, the rules every store follows (the PostgreSQL engine relies on them):
// * `?` placeholders; the PostgreSQL engine numbers them.
// * Unquoted identifiers as in the migrations (`Username`, `ID`): rows come back with those
//   exact keys on both engines.
// * Integers and 0/1 flags as numbers (never booleans), BLOBs as Uint8Array.
// * No engine-only syntax: `INSERT … ON CONFLICT (…) DO UPDATE/NOTHING` instead of
//   `INSERT OR REPLACE/IGNORE`; `… RETURNING ID` instead of last-insert-rowid; `COALESCE`
//   instead of `IFNULL`; times passed as parameters instead of `datetime('now')`.
//   `COLLATE NOCASE` is allowed (PostgreSQL has a case-insensitive collation of that name).

export type Param = string | number | bigint | null | Uint8Array;
export type Row = Record<string, unknown>;

export interface Sql {
  readonly engine: "sqlite" | "postgres";
  get<T = Row>(sql: string, ...params: Param[]): Promise<T | undefined>;
  all<T = Row>(sql: string, ...params: Param[]): Promise<T[]>;
  /** Runs one statement; resolves to the number of rows it changed. */
  run(sql: string, ...params: Param[]): Promise<number>;
  /** Several statements without parameters (schema changes). */
  exec(sql: string): Promise<void>;
  /**
   * fn's statements in one transaction: committed when fn resolves, rolled back when it throws.
   * A check and the write that depends on it belong in one tx. fn must reach the database only
   * through `q` (on PostgreSQL that is the transaction's own connection) and may be run again
   * after a serialization failure, so it must have no other side effects. Calling `q.tx` inside
   * joins the outer transaction.
   */
  tx<T>(fn: (q: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
