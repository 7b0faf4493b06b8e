import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { StatementSync } from "node:sqlite";
import { BLOCK_SAMPLES, CHUNK_BUCKETS, LEVELS, PAGE_SIZE, TOP, decodeBlock, decodeChunk, rowKey, rowRange } from "./blocks.ts";
import type { Chunk } from "./blocks.ts";
import { summarize } from "./ranges.ts";
import type { RowReader } from "./ranges.ts";
import { emptySummary } from "./rollups.ts";
import { VarSeries } from "./writer.ts";

export type SeriesSource = { Id: string; Name: string; PeriodUs: number; RetentionSec: number | null };
export type SeriesVariable = { Key: number; Id: string; SourceId: string; Name: string; Unit: string };

// Completed rows wait in memory until the next flush; past this much, append flushes at once.
const AUTO_FLUSH_BYTES = 32 * 1024 * 1024;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS series_sources (
    Id TEXT PRIMARY KEY, Name TEXT NOT NULL, PeriodUs INTEGER NOT NULL, RetentionSec INTEGER
  );
  CREATE TABLE IF NOT EXISTS series_vars (
    Key INTEGER PRIMARY KEY, Id TEXT NOT NULL UNIQUE, SourceId TEXT NOT NULL, Name TEXT NOT NULL, Unit TEXT NOT NULL
  );
  -- Id = rowKey(variable, level, index): level 0 = raw block, 1.. = rollup chunk.
  CREATE TABLE IF NOT EXISTS series_rows (Id INTEGER PRIMARY KEY, Data BLOB NOT NULL);
`;

/** Time series of equidistant float32 samples in ${dataDir}/series.db. */
export class SeriesStore {
  readonly path: string;
  readonly db: DatabaseSync;
  private readonly sources = new Map<string, SeriesSource>();
  private readonly vars = new Map<string, SeriesVariable>();
  private readonly series = new Map<number, VarSeries>();
  private unflushed = new Map<bigint, Uint8Array>();
  private unflushedBytes = 0;
  private readonly put: StatementSync;
  private readonly getRow: StatementSync;
  private readonly lastRow: StatementSync;
  private readonly firstRow: StatementSync;
  private readonly delRange: StatementSync;
  private closed = false;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, "series.db");
    this.db = new DatabaseSync(this.path);
    // page_size only takes effect on a new file, before WAL is switched on.
    this.db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    this.db.exec("PRAGMA journal_mode = WAL");
    // NORMAL in WAL mode: a killed process loses nothing committed; only power loss may
    // drop the last transactions, never corrupt the file.
    this.db.exec("PRAGMA synchronous = NORMAL");
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.db.exec("PRAGMA cache_size = -32768");
    this.db.exec(SCHEMA);
    this.put = this.db.prepare("INSERT OR REPLACE INTO series_rows (Id, Data) VALUES (?, ?)");
    this.getRow = this.db.prepare("SELECT Data FROM series_rows WHERE Id = ?");
    this.lastRow = this.db.prepare("SELECT Id, Data FROM series_rows WHERE Id BETWEEN ? AND ? ORDER BY Id DESC LIMIT 1");
    this.lastRow.setReadBigInts(true);
    this.firstRow = this.db.prepare("SELECT Id, Data FROM series_rows WHERE Id BETWEEN ? AND ? ORDER BY Id LIMIT 1");
    this.firstRow.setReadBigInts(true);
    this.delRange = this.db.prepare("DELETE FROM series_rows WHERE Id BETWEEN ? AND ?");
    for (const s of this.db.prepare("SELECT * FROM series_sources").all() as SeriesSource[]) this.sources.set(s.Id, s);
    for (const v of this.db.prepare("SELECT * FROM series_vars").all() as SeriesVariable[]) {
      this.vars.set(v.Id, v);
      this.recover(v);
    }
  }

  // ---- registry ----

  /** Adds or renames a source; RetentionSec undefined keeps what is stored. */
  defineSource(s: { Id: string; Name: string; PeriodUs: number; RetentionSec?: number | null }): SeriesSource {
    if (!Number.isInteger(s.PeriodUs) || s.PeriodUs < 1) throw new Error(`Source ${s.Id}: PeriodUs must be a positive integer`);
    const old = this.sources.get(s.Id);
    if (old && old.PeriodUs !== s.PeriodUs) {
      throw new Error(`Source ${s.Id} is stored at ${old.PeriodUs} µs per sample; it cannot change to ${s.PeriodUs}`);
    }
    const src: SeriesSource = { Id: s.Id, Name: s.Name, PeriodUs: s.PeriodUs, RetentionSec: s.RetentionSec === undefined ? (old?.RetentionSec ?? null) : s.RetentionSec };
    this.db
      .prepare("INSERT OR REPLACE INTO series_sources (Id, Name, PeriodUs, RetentionSec) VALUES (?, ?, ?, ?)")
      .run(src.Id, src.Name, src.PeriodUs, src.RetentionSec);
    this.sources.set(src.Id, src);
    return src;
  }

  defineVariable(v: { Id: string; SourceId: string; Name: string; Unit: string }): SeriesVariable {
    if (!this.sources.has(v.SourceId)) throw new Error(`Unknown source ${v.SourceId}`);
    const old = this.vars.get(v.Id);
    if (old) {
      if (old.SourceId !== v.SourceId) throw new Error(`Variable ${v.Id} belongs to source ${old.SourceId}`);
      if (old.Name !== v.Name || old.Unit !== v.Unit) {
        this.db.prepare("UPDATE series_vars SET Name = ?, Unit = ? WHERE Key = ?").run(v.Name, v.Unit, old.Key);
        Object.assign(old, { Name: v.Name, Unit: v.Unit });
      }
      return old;
    }
    const key = Number(this.db.prepare("INSERT INTO series_vars (Id, SourceId, Name, Unit) VALUES (?, ?, ?, ?)").run(v.Id, v.SourceId, v.Name, v.Unit).lastInsertRowid);
    const sv: SeriesVariable = { Key: key, ...v };
    this.vars.set(v.Id, sv);
    this.series.set(key, this.newSeries(sv));
    return sv;
  }

  source(id: string): SeriesSource | undefined {
    return this.sources.get(id);
  }
  allSources(): SeriesSource[] {
    return [...this.sources.values()];
  }
  variable(id: string): SeriesVariable | undefined {
    return this.vars.get(id);
  }
  variablesOf(sourceId: string): SeriesVariable[] {
    return [...this.vars.values()].filter((v) => v.SourceId === sourceId);
  }
  seriesOf(v: SeriesVariable): VarSeries {
    return this.series.get(v.Key)!;
  }

  // ---- writing ----

  append(varId: string, start: number, values: Float32Array): void {
    const v = this.vars.get(varId);
    if (!v) throw new Error(`Unknown variable ${varId}`);
    this.series.get(v.Key)!.append(start, values);
    if (this.unflushedBytes > AUTO_FLUSH_BYTES) this.flush();
  }

  /** Writes everything appended so far in one transaction: raw and rollups stay consistent. */
  flush(): void {
    if (this.closed) return;
    for (const vs of this.series.values()) vs.flushPartial();
    if (this.unflushed.size === 0) return;
    const rows = this.unflushed;
    this.unflushed = new Map();
    this.unflushedBytes = 0;
    this.db.exec("BEGIN");
    try {
      for (const [key, bytes] of rows) this.put.run(key, bytes);
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw err;
    }
  }

  private newSeries(v: SeriesVariable): VarSeries {
    const periodUs = this.sources.get(v.SourceId)!.PeriodUs;
    return new VarSeries(v.Key, periodUs, (key, bytes) => {
      const old = this.unflushed.get(key);
      this.unflushedBytes += bytes.byteLength - (old?.byteLength ?? 0);
      this.unflushed.set(key, bytes);
    });
  }

  // Rebuilds the write state from the last stored rows. Raw rows and rollup rows are written
  // in the same transaction, so after a crash they agree; the unfinished bucket of each level
  // is recomputed from the level below (bounded: < 64 buckets or samples per level).
  private recover(v: SeriesVariable): void {
    const vs = this.newSeries(v);
    this.series.set(v.Key, vs);
    const last = this.lastRow.get(...rowRange(v.Key, 0)) as { Id: bigint; Data: Uint8Array } | undefined;
    if (!last) return;
    const blk = Number(last.Id & 0xffffffffffn);
    const data = decodeBlock(last.Data);
    vs.blockIdx = blk;
    vs.raw.set(data);
    vs.rawLen = data.length;
    vs.begin(blk * BLOCK_SAMPLES + data.length);
    vs.first = this.firstSample(v.Key);
    for (let j = 1; j <= TOP; j++) {
      const row = this.lastRow.get(...rowRange(v.Key, j)) as { Id: bigint; Data: Uint8Array } | undefined;
      if (row) {
        vs.chunkIdx[j] = Number(row.Id & 0xffffffffffn);
        vs.chunks[j] = decodeChunk(row.Data);
      }
    }
    // A level's unfinished bucket holds only the finished buckets of the level below: the
    // unfinished one below joins it when that one closes.
    const reader = this.reader();
    for (let j = 1; j <= TOP; j++) {
      const s = emptySummary();
      const upTo = j === 1 ? vs.end : vs.pendingIdx[j - 1]! * LEVELS[j - 1]!;
      summarize(reader, vs, vs.pendingIdx[j]! * LEVELS[j]!, upTo, j - 1, s);
      vs.pending[j] = s;
    }
  }

  private firstSample(key: number): number {
    const row = this.firstRow.get(...rowRange(key, 0)) as { Id: bigint; Data: Uint8Array } | undefined;
    if (!row) return -1;
    const data = decodeBlock(row.Data);
    let i = 0;
    while (i < data.length && Number.isNaN(data[i]!)) i++;
    return Number(row.Id & 0xffffffffffn) * BLOCK_SAMPLES + i;
  }

  // ---- reading ----

  /** Row access for one query; caches what it reads, so each row is decoded once. */
  reader(): RowReader {
    const cache = new Map<bigint, Float32Array | Chunk | null>();
    return {
      block: (vs, blk) => {
        if (blk === vs.blockIdx) return vs.raw;
        const key = rowKey(vs.key, 0, blk);
        let hit = cache.get(key);
        if (hit === undefined) {
          const bytes = this.unflushed.get(key) ?? (this.getRow.get(key) as { Data: Uint8Array } | undefined)?.Data;
          hit = bytes ? decodeBlock(bytes) : null;
          cache.set(key, hit);
        }
        return hit as Float32Array | null;
      },
      chunk: (vs, level, c) => {
        if (c === vs.chunkIdx[level]) return vs.chunks[level]!;
        const key = rowKey(vs.key, level, c);
        let hit = cache.get(key);
        if (hit === undefined) {
          const bytes = this.unflushed.get(key) ?? (this.getRow.get(key) as { Data: Uint8Array } | undefined)?.Data;
          hit = bytes ? decodeChunk(bytes) : null;
          cache.set(key, hit);
        }
        return hit as Chunk | null;
      },
    };
  }

  // ---- retention ----

  /** Deletes raw blocks and rollup chunks that lie wholly before each source's horizon. */
  applyRetention(nowMs = Date.now()): number {
    let deleted = 0;
    for (const src of this.sources.values()) {
      const cutoff = this.horizonIndex(src, nowMs);
      if (cutoff === null) continue;
      for (const v of this.variablesOf(src.Id)) {
        for (let j = 0; j <= TOP; j++) {
          const span = j === 0 ? BLOCK_SAMPLES : CHUNK_BUCKETS * LEVELS[j]!;
          const rows = Math.floor(cutoff / span);
          if (rows <= 0) continue;
          deleted += Number(this.delRange.run(rowKey(v.Key, j, 0), rowKey(v.Key, j, rows - 1)).changes);
        }
        const vs = this.series.get(v.Key)!;
        if (vs.first >= 0 && vs.first < cutoff) vs.first = Math.max(this.firstSample(v.Key), 0);
      }
    }
    return deleted;
  }

  /** First sample index a source still keeps, or null when it keeps everything. */
  horizonIndex(src: SeriesSource, nowMs = Date.now()): number | null {
    if (src.RetentionSec === null || src.RetentionSec <= 0) return null;
    return Math.ceil(((nowMs - src.RetentionSec * 1000) * 1000) / src.PeriodUs);
  }

  setRetention(sourceId: string, retentionSec: number | null): void {
    const src = this.sources.get(sourceId);
    if (!src) throw new Error(`Unknown source ${sourceId}`);
    src.RetentionSec = retentionSec;
    this.db.prepare("UPDATE series_sources SET RetentionSec = ? WHERE Id = ?").run(retentionSec, sourceId);
  }

  /** Bytes on disk (database + WAL). */
  sizeOnDisk(): number {
    let total = 0;
    for (const f of [this.path, `${this.path}-wal`]) {
      try {
        total += statSync(f).size;
      } catch {
        // No WAL file after a clean checkpoint.
      }
    }
    return total;
  }

  checkpoint(): void {
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.db.close();
  }
}
