import pg from "pg";
import type { Param, Row, Sql } from "../sql.ts";
import { isConnectionError, isRetryable, storeError } from "./errors.ts";
import { prepare } from "./statements.ts";
import type { Prepared } from "./statements.ts";

// The Sql interface on PostgreSQL: a pool of connections, each statement prepared once per
// connection under a name derived from its text, rows keyed as the portable SQL spells them.
//
// Transactions run at SERIALIZABLE. The stores were written for SQLite, where a transaction
// (BEGIN IMMEDIATE) excludes every other writer: a check ("is this the last administrator?")
// and the write that depends on it can never interleave with another one. SERIALIZABLE gives
// the same guarantee without each store naming the rows to lock (REPEATABLE READ plus SELECT …
// FOR UPDATE would need that, and a check over rows that do not exist yet — a unique name —
// cannot be locked at all). The price is an occasional serialization failure under contention,
// which tx() answers by running fn again (the interface allows it), a bounded number of times.
//
// Unlike SQLite, a statement that fails inside a transaction aborts it: fn cannot catch a
// database error and carry on.

const MAX_ATTEMPTS = 6;
const MAX_CACHED = 2000;

/** Values as the portable SQL has them: integers and flags as numbers, BLOBs as Uint8Array, JSON as text. */
function typeParser(oid: number, format?: string): (value: string) => unknown {
  if (format === "binary") return pg.types.getTypeParser(oid, "binary") as (value: string) => unknown;
  switch (oid) {
    case 20: // int8: counts, sums and every bigint column
    case 1700: // numeric: SUM/AVG of integers
      return Number;
    case 16: // bool: EXISTS(…), comparisons — 0/1 like SQLite
      return (v) => (v === "t" ? 1 : 0);
    case 114: // json
    case 3802: // jsonb
      return (v) => v;
    case 17: {
      const bytea = pg.types.getTypeParser(17) as (value: string) => Buffer;
      return (v) => {
        const b = bytea(v);
        return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      };
    }
    default:
      return pg.types.getTypeParser(oid) as (value: string) => unknown;
  }
}
export const PG_TYPES = { getTypeParser: typeParser } as unknown as pg.CustomTypesConfig;

const toPg = (p: Param): unknown => (typeof p === "bigint" ? p.toString() : p);

type Result = { rows: Row[]; changed: number };

export class PgSql implements Sql {
  readonly engine = "postgres" as const;
  private readonly statements = new Map<string, Prepared>();
  /** Rows this process changed: with the lease, the only writer of its schema (changeToken). */
  private changes = 0;
  private closeHooks: Array<() => Promise<void>> = [];

  readonly pool: pg.Pool;
  private readonly schemaNames: ReadonlyMap<string, string>;

  constructor(pool: pg.Pool, schemaNames: ReadonlyMap<string, string>) {
    this.pool = pool;
    this.schemaNames = schemaNames;
  }

  /** Runs before the pool ends on close() (the lease is released there). */
  onClose(hook: () => Promise<void>): void {
    this.closeHooks.push(hook);
  }

  private statement(sql: string): Prepared {
    let p = this.statements.get(sql);
    if (!p) {
      if (this.statements.size >= MAX_CACHED) this.statements.clear();
      p = prepare(sql, this.schemaNames);
      this.statements.set(sql, p);
    }
    return p;
  }

  private async on(client: pg.PoolClient | null, sql: string, params: Param[]): Promise<Result> {
    const p = this.statement(sql);
    if (params.length !== p.params) throw new Error(`${p.params} parameter(s) expected, ${params.length} given: ${sql}`);
    const config: pg.QueryArrayConfig = { text: p.text, values: params.map(toPg), rowMode: "array" };
    if (p.name) config.name = p.name;
    const res = client ? await client.query(config) : await this.withClient((c) => c.query(config));
    const keys = res.fields.map((f) => p.names.get(f.name) ?? f.name);
    const rows = res.rows.map((values) => {
      const row: Row = {};
      for (let i = 0; i < keys.length; i++) row[keys[i]!] = values[i];
      return row;
    });
    const changed = res.command === "SELECT" ? 0 : (res.rowCount ?? 0);
    this.changes += changed;
    return { rows, changed };
  }

  /** One pooled connection for f; an outage becomes StoreUnavailable (503). */
  private async withClient<T>(f: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let c: pg.PoolClient;
    try {
      c = await this.pool.connect();
    } catch (err) {
      throw storeError(err);
    }
    try {
      const result = await f(c);
      c.release();
      return result;
    } catch (err) {
      // A broken connection leaves the pool; a statement's own error leaves it usable.
      c.release(isConnectionError(err) ? (err as Error) : undefined);
      throw storeError(err);
    }
  }

  async get<T = Row>(sql: string, ...params: Param[]): Promise<T | undefined> {
    return (await this.on(null, sql, params)).rows[0] as T | undefined;
  }

  async all<T = Row>(sql: string, ...params: Param[]): Promise<T[]> {
    return (await this.on(null, sql, params)).rows as T[];
  }

  async run(sql: string, ...params: Param[]): Promise<number> {
    return (await this.on(null, sql, params)).changed;
  }

  async exec(sql: string): Promise<void> {
    await this.withClient((c) => c.query(sql));
    this.changes++;
  }

  async tx<T>(fn: (q: Sql) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.withClient((c) => this.attempt(c, fn));
      } catch (err) {
        if (!isRetryable(err) || attempt >= MAX_ATTEMPTS) throw err;
        // Apart, at random, so the transactions that collided do not collide again.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * 2 ** attempt));
      }
    }
  }

  private async attempt<T>(c: pg.PoolClient, fn: (q: Sql) => Promise<T>): Promise<T> {
    await c.query("BEGIN ISOLATION LEVEL SERIALIZABLE");
    try {
      const result = await fn(this.joined(c));
      await c.query("COMMIT");
      return result;
    } catch (err) {
      if (!isConnectionError(err)) await c.query("ROLLBACK");
      throw err;
    }
  }

  /** The statements of one transaction: all on its connection; a nested tx joins it. */
  private joined(c: pg.PoolClient): Sql {
    const q: Sql = {
      engine: "postgres",
      get: async (sql, ...params) => (await this.on(c, sql, params)).rows[0] as never,
      all: async (sql, ...params) => (await this.on(c, sql, params)).rows as never,
      run: async (sql, ...params) => (await this.on(c, sql, params)).changed,
      exec: async (sql) => {
        await c.query(sql);
        this.changes++;
      },
      tx: (fn) => fn(q),
      close: () => Promise.reject(new Error("close() inside a transaction")),
    };
    return q;
  }

  /** Changes with every row this logger writes (the lease makes it the schema's only writer). */
  changeToken(): string {
    return String(this.changes);
  }

  async close(): Promise<void> {
    const hooks = this.closeHooks;
    this.closeHooks = [];
    for (const h of hooks) await h().catch(() => undefined);
    await this.pool.end();
  }
}
