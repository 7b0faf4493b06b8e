import pg from "pg";
import { MIGRATIONS } from "../migrations.ts";
import { PG_TYPES, PgSql } from "./engine.ts";
import { describe, isConnectionError } from "./errors.ts";
import { DDL_LOCK, Lease } from "./lease.ts";
import { schemaNamesOf } from "./statements.ts";

// STORE_URL=postgres://…: the logger's relational store in PostgreSQL. Each logger keeps its
// tables in a schema of its own, loggia_<LOGGER_ID> (the pool's search_path), so loggers sharing
// a database never see each other's rows, and holds the lease of its id (lease.ts).

export const LOGGER_ID_PATTERN = /^[a-z0-9_]{1,40}$/;
export const DEFAULT_LOGGER_ID = "default";
const POOL_SIZE = 10;

export type PostgresOptions = {
  url: string;
  loggerId?: string;
  log?: (line: string) => void;
  /** How long to keep trying while PostgreSQL does not answer at start (ms; default: for ever). */
  startTimeoutMs?: number;
  /** Called when the lease is lost for good (another logger took the id); the default exits the process. */
  onLeaseLost?: (message: string) => void;
};

export type Timescale = { available: boolean; version: string | null };

export type PostgresStore = PgSql & { schema: string; loggerId: string; timescale: Timescale; serverVersion: string };

export const schemaOf = (loggerId: string): string => `loggia_${loggerId}`;

export async function openPostgres(o: PostgresOptions): Promise<PostgresStore> {
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const loggerId = o.loggerId ?? DEFAULT_LOGGER_ID;
  if (!LOGGER_ID_PATTERN.test(loggerId)) throw new Error(`LOGGER_ID ${JSON.stringify(loggerId)}: use 1 to 40 lowercase letters, digits or _`);
  const schema = schemaOf(loggerId);
  const base: pg.ClientConfig = {
    connectionString: o.url,
    types: PG_TYPES,
    keepAlive: true,
    connectionTimeoutMillis: 5000,
    application_name: `loggia-logger:${loggerId}`,
  };
  const where = safeUrl(o.url);

  // PostgreSQL may still be starting (or down): wait for it, saying so, unless it answers with
  // something waiting will not fix (a wrong password, a database that does not exist).
  const deadline = Date.now() + (o.startTimeoutMs ?? Infinity);
  const connectLease = async () => {
    const c = new pg.Client({ ...base, application_name: `loggia-lease:${loggerId}` });
    c.on("error", () => undefined); // reported through the lease's own listeners
    await c.connect();
    return c;
  };
  let lease: Lease;
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      lease = await Lease.take(loggerId, connectLease, log, o.onLeaseLost ?? leaseLostExit(log));
      break;
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      if (Date.now() + delay > deadline) throw new Error(`PostgreSQL at ${where} is unreachable: ${describe(err)}`);
      log(`logger: PostgreSQL at ${where} is unreachable (${describe(err)}); trying again in ${delay / 1000} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  const pool = new pg.Pool({ ...base, max: POOL_SIZE, options: `-c search_path=${schema}` });
  // An idle connection that breaks (PostgreSQL restarted) leaves the pool; the next query opens a
  // new one. Without these listeners the 'error' event would end the process.
  pool.on("error", (err) => log(`logger: a PostgreSQL connection closed: ${describe(err)}`));
  pool.on("connect", (client) => client.on("error", () => undefined));

  const db = new PgSql(pool, schemaNamesOf(MIGRATIONS)) as PostgresStore;
  db.onClose(() => lease.release());
  try {
    const setup = await pool.connect();
    try {
      await setup.query("BEGIN");
      await setup.query(DDL_LOCK);
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      // COLLATE NOCASE of the portable SQL: case-insensitive comparison and uniqueness.
      await setup.query(`CREATE COLLATION IF NOT EXISTS ${schema}.nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`);
      await setup.query("COMMIT");
      const ts = await setup.query<{ v: string | null }>("SELECT default_version AS v FROM pg_available_extensions WHERE name = 'timescaledb'");
      db.timescale = { available: ts.rows.length > 0, version: ts.rows[0]?.v ?? null };
      db.serverVersion = (await setup.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
      setup.release();
    } catch (err) {
      setup.release(err as Error);
      throw err;
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  Object.assign(db, { schema, loggerId });
  log(
    `logger: store in PostgreSQL ${db.serverVersion} at ${where}, schema ${schema} (LOGGER_ID ${loggerId}); ` +
      (db.timescale.available ? `the TimescaleDB extension (${db.timescale.version}) is available` : "the TimescaleDB extension is not available on this server"),
  );
  return db;
}

function leaseLostExit(log: (line: string) => void) {
  return (message: string) => {
    log(`logger: stopping — ${message}`);
    process.exit(3);
  };
}

/** The URL without its password, for logs. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(STORE_URL)";
  }
}
