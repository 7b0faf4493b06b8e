import { hostname } from "node:os";
import type pg from "pg";
import { describe } from "./errors.ts";

// One logger per LOGGER_ID at a time. The lease is a session advisory lock keyed by the id, held
// on a connection of its own: PostgreSQL releases it the moment that connection ends — the
// process exits or is killed, or its machine stops answering TCP keepalives (~25 s, set below)
// — so a standby started with the same id takes over at once. The shared table loggia.loggers
// says who holds which id, for people (and for the message a refused logger prints).

const HEARTBEAT_MS = 10_000;
const SHARED = `
  CREATE SCHEMA IF NOT EXISTS loggia;
  CREATE TABLE IF NOT EXISTS loggia.loggers (
    id text PRIMARY KEY,
    host text NOT NULL,
    pid integer NOT NULL,
    since timestamptz NOT NULL,
    heartbeat timestamptz NOT NULL
  );`;
// Schema changes of loggers starting side by side (CREATE … IF NOT EXISTS is not safe against a
// concurrent CREATE) take this lock in turn.
export const DDL_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('loggia:ddl', 0))";

export class LeaseHeld extends Error {}

type Holder = { host: string; pid: number; since: Date; heartbeat: Date };

export class Lease {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private client: pg.Client;
  private readonly id: string;
  private readonly connect: () => Promise<pg.Client>;
  private readonly log: (line: string) => void;
  private readonly onLost: (message: string) => void;

  private constructor(client: pg.Client, id: string, connect: () => Promise<pg.Client>, log: (line: string) => void, onLost: (message: string) => void) {
    this.client = client;
    this.id = id;
    this.connect = connect;
    this.log = log;
    this.onLost = onLost;
  }

  /**
   * Takes the lease of `id` on a fresh connection from `connect`, or throws LeaseHeld naming the
   * holder. onLost is called if the lease is lost for good (another logger took it while this
   * one's connection was down): this logger must stop writing then.
   */
  static async take(id: string, connect: () => Promise<pg.Client>, log: (line: string) => void, onLost: (message: string) => void): Promise<Lease> {
    const client = await connect();
    try {
      await acquire(client, id);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    const lease = new Lease(client, id, connect, log, onLost);
    lease.watch();
    return lease;
  }

  private watch(): void {
    const c = this.client;
    let gone = false;
    const lost = (err?: unknown) => {
      if (gone || this.closed) return;
      gone = true;
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      this.log(`logger: the lease of LOGGER_ID ${this.id} lost its connection (${err ? describe(err) : "closed"}); taking it again`);
      void c.end().catch(() => undefined);
      void this.retake();
    };
    c.on("error", lost);
    c.on("end", () => lost());
    this.timer = setInterval(() => {
      c.query("UPDATE loggia.loggers SET heartbeat = now() WHERE id = $1", [this.id]).catch(lost);
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  private async retake(): Promise<void> {
    for (let delay = 500; !this.closed; delay = Math.min(delay * 2, 10_000)) {
      await new Promise((r) => setTimeout(r, delay));
      if (this.closed) return;
      let client: pg.Client;
      try {
        client = await this.connect();
      } catch {
        continue; // PostgreSQL still away: the pool's queries answer 503 meanwhile.
      }
      try {
        await acquire(client, this.id);
      } catch (err) {
        await client.end().catch(() => undefined);
        if (err instanceof LeaseHeld) return this.onLost(err.message);
        continue;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.log(`logger: the lease of LOGGER_ID ${this.id} is held again`);
      this.watch();
      return;
    }
  }

  async release(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const c = this.client;
    try {
      await c.query("DELETE FROM loggia.loggers WHERE id = $1 AND host = $2 AND pid = $3", [this.id, hostname(), process.pid]);
      await c.query("SELECT pg_advisory_unlock(hashtextextended('loggia:' || $1, 0))", [this.id]);
    } catch {
      // Ending the connection releases the lock anyway.
    }
    await c.end().catch(() => undefined);
  }
}

async function acquire(c: pg.Client, id: string): Promise<void> {
  // A dead peer is noticed within idle + interval × count seconds instead of the system's 2 hours.
  await c.query("SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3");
  const { rows } = await c.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtextextended('loggia:' || $1, 0)) AS ok", [id]);
  if (!rows[0]?.ok) {
    const holder = await c
      .query<Holder>("SELECT host, pid, since, heartbeat FROM loggia.loggers WHERE id = $1", [id])
      .then((r) => r.rows[0])
      .catch(() => undefined);
    const who = holder
      ? `the logger on ${holder.host} (pid ${holder.pid}, since ${iso(holder.since)}, last heartbeat ${iso(holder.heartbeat)})`
      : "another logger (it has not recorded itself in loggia.loggers yet)";
    throw new LeaseHeld(`LOGGER_ID ${id} is in use by ${who}. Stop that logger first, or give this one another LOGGER_ID.`);
  }
  await c.query("BEGIN");
  await c.query(DDL_LOCK);
  await c.query(SHARED);
  await c.query(
    `INSERT INTO loggia.loggers (id, host, pid, since, heartbeat) VALUES ($1, $2, $3, now(), now())
     ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, since = excluded.since, heartbeat = excluded.heartbeat`,
    [id, hostname(), process.pid],
  );
  await c.query("COMMIT");
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : String(d));
