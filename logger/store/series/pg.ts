import pg from "pg";
import type { PoolClient } from "pg";
import { MISS } from "./backend.ts";
import type { PackedMark, PartRow, Registry, RepackRow, SeriesBackend, StoredRow, WriteRow } from "./backend.ts";
import type { Segment, SeriesSource, SeriesVariable } from "./store.ts";

// The series store on PostgreSQL (STORE_URL, issue 17; docs/decisions/0013). The same rows as
// the embedded engine, in the logger's own schema:
// * series_blocks: raw blocks (4080 float32 samples, bytea), partitioned by RANGE on t_end — the
//   end of the time a block covers, in µs — one partition per PARTITION_US. Retention drops
//   partitions whose blocks all end before the horizon. With TimescaleDB the same table is a
//   hypertable on t_end and retention is drop_chunks.
// * series_rollups: rollup chunks, one plain table (a chunk of the top level spans years at slow
//   rates, so a time partition would hold a current chunk in an old partition); 1/64 of the raw
//   rows and fewer, deleted as rows.
// * the registry: sources, variables, segments, parts — as in series.db.

/** One partition per week of block end times. */
export const PARTITION_US = 7 * 86400 * 1_000_000;
/** Rows per INSERT: 400 blocks ≈ 6.5 MB, 1200 parameters. */
const INSERT_ROWS = 400;

type Op = { sql: string; params: unknown[] };

/** The schema of a logger's data: loggia_<LOGGER_ID>, lower case, [a-z0-9_] only. */
export function loggerSchema(loggerId: string): string {
  const id = loggerId.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  if (!id) throw new Error("LOGGER_ID must not be empty");
  return `loggia_${id}`.slice(0, 63);
}

const level = (id: bigint) => Number((id >> 40n) & 7n);

export class PgSeries implements SeriesBackend {
  readonly engine = "postgres" as const;
  describe = "";
  readonly schema: string;
  readonly pool: pg.Pool;
  timescale = false;
  private readonly partitions = new Set<number>();
  private ops: Op[] = [];
  private last: Promise<void> = Promise.resolve();
  private readonly blocks: string;
  private readonly rollups: string;

  private constructor(url: string, schema: string) {
    this.schema = schema;
    // A server that does not answer fails the write after 5 s (retried at the next flush) instead of
    // holding every later flush behind it.
    this.pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 5000, keepAlive: true, application_name: `loggia-series:${schema}` });
    // An idle connection dropped by the server (a restart) must not crash the logger; the next
    // query connects again and its error reaches the caller.
    this.pool.on("error", () => {});
    // A checked-out connection emits 'error' too when the server goes away (pause of PostgreSQL
    // in tests/unit/logger/postgres-logger.test.ts crashed the logger); its query fails anyway.
    this.pool.on("connect", (client) => client.on("error", () => {}));
    this.blocks = `"${schema}".series_blocks`;
    this.rollups = `"${schema}".series_rollups`;
  }

  /** Connects, creates the schema and tables if needed, and sees whether TimescaleDB is there. */
  static async connect(url: string, schema: string): Promise<PgSeries> {
    const b = new PgSeries(url, schema);
    try {
      await b.setUp();
    } catch (err) {
      await b.pool.end();
      throw err;
    }
    return b;
  }

  private async setUp(): Promise<void> {
    const s = `"${this.schema}"`;
    const c = await this.pool.connect();
    try {
      // Two loggers starting on one database at once would race on CREATE … IF NOT EXISTS.
      await c.query("SELECT pg_advisory_lock(hashtext($1))", [this.schema]);
      const ext = await c.query("SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb'");
      if (ext.rowCount) {
        try {
          await c.query("CREATE EXTENSION IF NOT EXISTS timescaledb");
          this.timescale = true;
        } catch {
          // Available but not loaded (shared_preload_libraries): plain partitions.
        }
      }
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await c.query(`
        CREATE TABLE IF NOT EXISTS ${s}.series_sources (id text PRIMARY KEY, name text NOT NULL, period_us bigint NOT NULL, retention_sec bigint);
        CREATE TABLE IF NOT EXISTS ${s}.series_vars (key integer PRIMARY KEY, id text NOT NULL UNIQUE, source_id text NOT NULL, name text NOT NULL, unit text NOT NULL);
        CREATE TABLE IF NOT EXISTS ${s}.series_segments (source_id text NOT NULL, seq integer NOT NULL, start_us bigint NOT NULL, period_us bigint NOT NULL, PRIMARY KEY (source_id, seq));
        CREATE TABLE IF NOT EXISTS ${s}.series_parts (key integer PRIMARY KEY, var_id text NOT NULL, seq integer NOT NULL, UNIQUE (var_id, seq));
        CREATE TABLE IF NOT EXISTS ${s}.series_packed (key integer NOT NULL, level integer NOT NULL, upto bigint NOT NULL, PRIMARY KEY (key, level));
        CREATE TABLE IF NOT EXISTS ${this.rollups} (id bigint PRIMARY KEY, data bytea NOT NULL);
        ALTER TABLE ${this.rollups} ALTER COLUMN data SET STORAGE EXTERNAL;
      `);
      const exists = (await c.query("SELECT to_regclass($1) AS t", [`${s}.series_blocks`])).rows[0].t !== null;
      if (!exists) {
        // Samples are noise to a compressor: EXTERNAL stores blocks out of line uncompressed
        // instead of trying pglz on every write.
        if (this.timescale) {
          await c.query(`CREATE TABLE ${this.blocks} (id bigint NOT NULL, t_end bigint NOT NULL, data bytea NOT NULL, PRIMARY KEY (id, t_end))`);
          await c.query(`SELECT create_hypertable($1, 't_end', chunk_time_interval => $2::bigint)`, [`${s}.series_blocks`, PARTITION_US]);
        } else {
          await c.query(`CREATE TABLE ${this.blocks} (id bigint NOT NULL, t_end bigint NOT NULL, data bytea NOT NULL, PRIMARY KEY (id, t_end)) PARTITION BY RANGE (t_end)`);
        }
        await c.query(`ALTER TABLE ${this.blocks} ALTER COLUMN data SET STORAGE EXTERNAL`);
      }
      // A table made by a server with TimescaleDB stays a hypertable; one made without stays partitioned.
      const hyper = this.timescale && (await c.query("SELECT 1 FROM timescaledb_information.hypertables WHERE hypertable_schema = $1 AND hypertable_name = 'series_blocks'", [this.schema])).rowCount;
      this.timescale = Boolean(hyper);
      if (!this.timescale) {
        const parts = await c.query(
          "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass",
          [`${s}.series_blocks`],
        );
        for (const r of parts.rows as Array<{ relname: string }>) {
          const m = /^series_blocks_p(\d+)$/.exec(r.relname);
          if (m) this.partitions.add(Number(m[1]));
        }
      }
      this.describe = `PostgreSQL, schema ${this.schema}, ${this.timescale ? "TimescaleDB hypertable (weekly chunks)" : "weekly partitions (TimescaleDB not present)"}`;
    } finally {
      await c.query("SELECT pg_advisory_unlock(hashtext($1))", [this.schema]).catch(() => {});
      c.release();
    }
  }

  async loadRegistry(): Promise<Registry> {
    const s = `"${this.schema}"`;
    const num = (v: unknown) => (v === null ? null : Number(v));
    const sources = (await this.pool.query(`SELECT * FROM ${s}.series_sources`)).rows.map(
      (r): SeriesSource => ({ Id: r.id, Name: r.name, PeriodUs: Number(r.period_us), RetentionSec: num(r.retention_sec) }),
    );
    const segments = (await this.pool.query(`SELECT * FROM ${s}.series_segments ORDER BY source_id, seq`)).rows.map((r) => ({
      SourceId: r.source_id as string,
      Seq: Number(r.seq),
      StartUs: Number(r.start_us),
      PeriodUs: Number(r.period_us),
    }));
    const parts = (await this.pool.query(`SELECT * FROM ${s}.series_parts`)).rows.map((r): PartRow => ({ Key: r.key, VarId: r.var_id, Seq: r.seq }));
    const vars = (await this.pool.query(`SELECT * FROM ${s}.series_vars`)).rows.map(
      (r): SeriesVariable => ({ Key: r.key, Id: r.id, SourceId: r.source_id, Name: r.name, Unit: r.unit }),
    );
    return { sources, segments, parts, vars };
  }

  // ---- registry: queued, run in order at the start of the next write's transaction ----

  private queue(sql: string, ...params: unknown[]): void {
    this.ops.push({ sql: sql.replaceAll("$S", `"${this.schema}"`), params });
  }

  putSource(src: SeriesSource): void {
    this.queue(
      "INSERT INTO $S.series_sources (id, name, period_us, retention_sec) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, period_us = EXCLUDED.period_us, retention_sec = EXCLUDED.retention_sec",
      src.Id, src.Name, src.PeriodUs, src.RetentionSec,
    );
  }

  setRetention(sourceId: string, retentionSec: number | null): void {
    this.queue("UPDATE $S.series_sources SET retention_sec = $1 WHERE id = $2", retentionSec, sourceId);
  }

  renameVariable(key: number, name: string, unit: string): void {
    this.queue("UPDATE $S.series_vars SET name = $1, unit = $2 WHERE key = $3", name, unit, key);
  }

  putVariable(v: SeriesVariable, seq: number): void {
    this.queue("INSERT INTO $S.series_vars (key, id, source_id, name, unit) VALUES ($1, $2, $3, $4, $5)", v.Key, v.Id, v.SourceId, v.Name, v.Unit);
    if (seq !== 0) this.putPart({ Key: v.Key, VarId: v.Id, Seq: seq });
  }

  putPart(p: PartRow): void {
    this.queue("INSERT INTO $S.series_parts (key, var_id, seq) VALUES ($1, $2, $3)", p.Key, p.VarId, p.Seq);
  }

  putSegments(sourceId: string, list: readonly Segment[], periodUs: number): void {
    for (const g of list) {
      this.queue(
        "INSERT INTO $S.series_segments (source_id, seq, start_us, period_us) VALUES ($1, $2, $3, $4) ON CONFLICT (source_id, seq) DO UPDATE SET start_us = EXCLUDED.start_us, period_us = EXCLUDED.period_us",
        sourceId, g.Seq, g.StartUs, g.PeriodUs,
      );
    }
    this.queue("UPDATE $S.series_sources SET period_us = $1 WHERE id = $2", periodUs, sourceId);
  }

  // ---- rows ----

  rowNow(): typeof MISS {
    return MISS;
  }

  async fetchRows(ids: readonly bigint[]): Promise<Map<bigint, Uint8Array>> {
    const out = new Map<bigint, Uint8Array>();
    const raw = ids.filter((id) => level(id) === 0).map(String);
    const up = ids.filter((id) => level(id) !== 0).map(String);
    const reads = [];
    if (raw.length) reads.push(this.pool.query(`SELECT id, data FROM ${this.blocks} WHERE id = ANY($1::bigint[])`, [raw]));
    if (up.length) reads.push(this.pool.query(`SELECT id, data FROM ${this.rollups} WHERE id = ANY($1::bigint[])`, [up]));
    for (const res of await Promise.all(reads)) for (const r of res.rows) out.set(BigInt(r.id), r.data);
    return out;
  }

  async edgeRow(lo: bigint, hi: bigint, last: boolean): Promise<StoredRow | undefined> {
    const table = level(lo) === 0 ? this.blocks : this.rollups;
    const res = await this.pool.query(`SELECT id, data FROM ${table} WHERE id BETWEEN $1 AND $2 ORDER BY id ${last ? "DESC" : ""} LIMIT 1`, [String(lo), String(hi)]);
    const r = res.rows[0];
    return r ? { id: BigInt(r.id), data: r.data } : undefined;
  }

  /** Registry changes, then rollups, then raw blocks, in one transaction. */
  write(rows: readonly WriteRow[]): Promise<void> {
    const p = this.last.catch(() => {}).then(() => this.writeNow(rows));
    this.last = p;
    return p;
  }

  private async writeNow(rows: readonly WriteRow[]): Promise<void> {
    const ops = this.ops;
    this.ops = [];
    if (ops.length === 0 && rows.length === 0) return;
    let c: PoolClient | undefined;
    try {
      c = await this.pool.connect();
      await this.ensurePartitions(c, rows);
      await c.query("BEGIN");
      for (const op of ops) await c.query(op.sql, op.params);
      const up = rows.filter((r) => r.level !== 0);
      const raw = rows.filter((r) => r.level === 0);
      for (let i = 0; i < up.length; i += INSERT_ROWS) await this.insert(c, this.rollups, up.slice(i, i + INSERT_ROWS), false);
      for (let i = 0; i < raw.length; i += INSERT_ROWS) await this.insert(c, this.blocks, raw.slice(i, i + INSERT_ROWS), true);
      await c.query("COMMIT");
    } catch (err) {
      await c?.query("ROLLBACK").catch(() => {});
      // Run again with the next write, ahead of what was queued since.
      this.ops = [...ops, ...this.ops];
      throw err;
    } finally {
      c?.release();
    }
  }

  private async insert(c: PoolClient, table: string, rows: readonly WriteRow[], timed: boolean): Promise<void> {
    const params: unknown[] = [];
    const values: string[] = [];
    for (const r of rows) {
      const n = params.length;
      if (timed) {
        params.push(String(r.id), r.tEndUs, Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength));
        values.push(`($${n + 1},$${n + 2},$${n + 3})`);
      } else {
        params.push(String(r.id), Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength));
        values.push(`($${n + 1},$${n + 2})`);
      }
    }
    const cols = timed ? "(id, t_end, data)" : "(id, data)";
    const key = timed ? "(id, t_end)" : "(id)";
    await c.query(`INSERT INTO ${table} ${cols} VALUES ${values.join(",")} ON CONFLICT ${key} DO UPDATE SET data = EXCLUDED.data`, params);
  }

  // Partitions are made when a block first needs one (an import of old data makes old ones).
  private async ensurePartitions(c: PoolClient, rows: readonly WriteRow[]): Promise<void> {
    if (this.timescale) return;
    for (const r of rows) {
      if (r.level !== 0) continue;
      const n = Math.floor(r.tEndUs / PARTITION_US);
      if (this.partitions.has(n)) continue;
      await c.query(`CREATE TABLE IF NOT EXISTS "${this.schema}".series_blocks_p${n} PARTITION OF ${this.blocks} FOR VALUES FROM (${n * PARTITION_US}) TO (${(n + 1) * PARTITION_US})`);
      this.partitions.add(n);
    }
  }

  async deleteRange(lo: bigint, hi: bigint): Promise<number> {
    const table = level(lo) === 0 ? this.blocks : this.rollups;
    await this.last.catch(() => {});
    const res = await this.pool.query(`DELETE FROM ${table} WHERE id BETWEEN $1 AND $2`, [String(lo), String(hi)]);
    return res.rowCount ?? 0;
  }

  async dropBefore(horizonUs: number): Promise<number> {
    await this.last.catch(() => {});
    if (this.timescale) {
      const n = await this.pool.query(`SELECT count(*)::bigint AS n FROM ${this.blocks} WHERE t_end < $1`, [Math.floor(horizonUs / PARTITION_US) * PARTITION_US]);
      await this.pool.query("SELECT drop_chunks($1, older_than => $2::bigint)", [`"${this.schema}".series_blocks`, Math.floor(horizonUs)]);
      return Number(n.rows[0].n);
    }
    let dropped = 0;
    for (const n of [...this.partitions].sort((a, b) => a - b)) {
      if ((n + 1) * PARTITION_US > horizonUs) continue;
      const table = `"${this.schema}".series_blocks_p${n}`;
      dropped += Number((await this.pool.query(`SELECT count(*)::bigint AS n FROM ${table}`)).rows[0].n);
      await this.pool.query(`DROP TABLE IF EXISTS ${table}`);
      this.partitions.delete(n);
    }
    return dropped;
  }

  async loadPackedMarks(): Promise<PackedMark[]> {
    const res = await this.pool.query(`SELECT key, level, upto FROM "${this.schema}".series_packed`);
    return res.rows.map((r) => ({ Key: Number(r.key), Level: Number(r.level), Upto: Number(r.upto) }));
  }

  // length() of bytea stored EXTERNAL is the TOAST pointer's size: the value is not fetched.
  async plainRows(lo: bigint, hi: bigint): Promise<StoredRow[]> {
    const table = level(lo) === 0 ? this.blocks : this.rollups;
    const res = await this.pool.query(`SELECT id, data FROM ${table} WHERE id BETWEEN $1 AND $2 AND length(data) % 4 = 0 ORDER BY id`, [String(lo), String(hi)]);
    return res.rows.map((r) => ({ id: BigInt(r.id), data: r.data }));
  }

  /** Queued behind the writes in progress like write(), so it never races a flush or a retention sweep. */
  repack(rows: readonly RepackRow[], marks: readonly PackedMark[]): Promise<number> {
    const p = this.last.catch(() => {}).then(() => this.repackNow(rows, marks));
    this.last = p.then(() => {});
    return p;
  }

  private async repackNow(rows: readonly RepackRow[], marks: readonly PackedMark[]): Promise<number> {
    const c = await this.pool.connect();
    let changed = 0;
    try {
      await c.query("BEGIN");
      for (const r of rows) {
        const data = Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);
        const res = r.level === 0
          ? await c.query(`UPDATE ${this.blocks} SET data = $1 WHERE id = $2 AND t_end = $3 AND length(data) = $4`, [data, String(r.id), r.tEndUs, r.oldLength])
          : await c.query(`UPDATE ${this.rollups} SET data = $1 WHERE id = $2 AND length(data) = $3`, [data, String(r.id), r.oldLength]);
        changed += res.rowCount ?? 0;
      }
      for (const m of marks) {
        await c.query(
          `INSERT INTO "${this.schema}".series_packed (key, level, upto) VALUES ($1, $2, $3) ON CONFLICT (key, level) DO UPDATE SET upto = EXCLUDED.upto`,
          [m.Key, m.Level, m.Upto],
        );
      }
      await c.query("COMMIT");
      return changed;
    } catch (err) {
      await c.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  /** Partitions of raw blocks that exist now (tests, benchmark). */
  partitionList(): number[] {
    return [...this.partitions].sort((a, b) => a - b);
  }

  async sizeOnDisk(): Promise<number> {
    const res = await this.pool.query(
      `SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::bigint AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [this.schema],
    );
    let total = Number(res.rows[0].n);
    if (this.timescale) total += Number((await this.pool.query("SELECT hypertable_size($1)::bigint AS n", [`"${this.schema}".series_blocks`])).rows[0].n);
    return total;
  }

  async settled(): Promise<void> {
    await this.last.catch(() => {});
  }

  async close(): Promise<void> {
    await this.settled();
    await this.pool.end();
  }
}
