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
/** A stretch of a source's time at one period: from StartUs until the next segment starts. */
export type Segment = { Seq: number; StartUs: number; PeriodUs: number };
/** One variable's samples in one segment: its own row key space, indices = time / periodUs. */
export type Part = { vs: VarSeries; periodUs: number; fromUs: number; toUs: number };

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
  -- Period changes (docs/decisions/0008): segment 0 of a source is implicit (its PeriodUs until
  -- a first change); a variable's own Key holds its segment-0 samples unless series_parts
  -- lists that Key under another segment; every later segment has a Key of its own here.
  CREATE TABLE IF NOT EXISTS series_segments (
    SourceId TEXT NOT NULL, Seq INTEGER NOT NULL, StartUs INTEGER NOT NULL, PeriodUs INTEGER NOT NULL, PRIMARY KEY (SourceId, Seq)
  );
  CREATE TABLE IF NOT EXISTS series_parts (
    Key INTEGER PRIMARY KEY, VarId TEXT NOT NULL, Seq INTEGER NOT NULL, UNIQUE (VarId, Seq)
  );
`;

/** Time series of equidistant float32 samples in ${dataDir}/series.db. */
export class SeriesStore {
  readonly path: string;
  readonly db: DatabaseSync;
  private readonly sources = new Map<string, SeriesSource>();
  private readonly vars = new Map<string, SeriesVariable>();
  private readonly series = new Map<number, VarSeries>();
  /** Segments of each source, oldest first (never empty for a defined source). */
  private readonly segments = new Map<string, Segment[]>();
  /** Row key of each (variable, segment) that holds samples: varId → seq → key. */
  private readonly partKeys = new Map<string, Map<number, number>>();
  private maxKey = 0;
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
    for (const s of this.db.prepare("SELECT * FROM series_sources").all() as SeriesSource[]) {
      this.sources.set(s.Id, s);
      this.segments.set(s.Id, [{ Seq: 0, StartUs: 0, PeriodUs: s.PeriodUs }]);
    }
    for (const g of this.db.prepare("SELECT * FROM series_segments ORDER BY SourceId, Seq").all() as Array<Segment & { SourceId: string }>) {
      const list = this.segments.get(g.SourceId);
      if (!list) continue;
      const seg = { Seq: g.Seq, StartUs: g.StartUs, PeriodUs: g.PeriodUs };
      if (g.Seq === 0) list[0] = seg;
      else list.push(seg);
    }
    const listed = new Set<number>();
    for (const p of this.db.prepare("SELECT * FROM series_parts").all() as Array<{ Key: number; VarId: string; Seq: number }>) {
      this.keysOf(p.VarId).set(p.Seq, p.Key);
      listed.add(p.Key);
      this.maxKey = Math.max(this.maxKey, p.Key);
    }
    for (const v of this.db.prepare("SELECT * FROM series_vars").all() as SeriesVariable[]) {
      this.vars.set(v.Id, v);
      this.maxKey = Math.max(this.maxKey, v.Key);
      if (!listed.has(v.Key)) this.keysOf(v.Id).set(0, v.Key);
      for (const [seq, key] of this.keysOf(v.Id)) this.recover(key, this.segmentOf(v.SourceId, seq));
    }
  }

  private keysOf(varId: string): Map<number, number> {
    let m = this.partKeys.get(varId);
    if (!m) this.partKeys.set(varId, (m = new Map()));
    return m;
  }

  private segmentOf(sourceId: string, seq: number): Segment {
    return this.segments.get(sourceId)!.find((g) => g.Seq === seq)!;
  }

  // ---- registry ----

  /**
   * Adds or renames a source; RetentionSec undefined keeps what is stored. A new PeriodUs for a
   * stored source starts a new segment after its stored samples (see changePeriod).
   */
  defineSource(s: { Id: string; Name: string; PeriodUs: number; RetentionSec?: number | null }): SeriesSource {
    if (!Number.isInteger(s.PeriodUs) || s.PeriodUs < 1) throw new Error(`Source ${s.Id}: PeriodUs must be a positive integer`);
    const old = this.sources.get(s.Id);
    if (old && old.PeriodUs !== s.PeriodUs) this.changePeriod(s.Id, s.PeriodUs, 0);
    const src: SeriesSource = { Id: s.Id, Name: s.Name, PeriodUs: s.PeriodUs, RetentionSec: s.RetentionSec === undefined ? (old?.RetentionSec ?? null) : s.RetentionSec };
    this.db
      .prepare("INSERT OR REPLACE INTO series_sources (Id, Name, PeriodUs, RetentionSec) VALUES (?, ?, ?, ?)")
      .run(src.Id, src.Name, src.PeriodUs, src.RetentionSec);
    this.sources.set(src.Id, src);
    if (!old) this.segments.set(src.Id, [{ Seq: 0, StartUs: 0, PeriodUs: src.PeriodUs }]);
    return src;
  }

  /**
   * Changes the period of a source from now on: the current segment of every variable is closed
   * (its partial block and rollup chunks are written) and a new segment starts at the first
   * multiple of the new period at or after both `atUs` and the end of the stored samples, so
   * segments never overlap in time. Samples before that start are dropped. A source that holds
   * no sample in its current segment just takes the new period. Returns the new segment.
   */
  changePeriod(sourceId: string, periodUs: number, atUs: number): Segment {
    if (!Number.isInteger(periodUs) || periodUs < 1) throw new Error(`Source ${sourceId}: PeriodUs must be a positive integer`);
    const src = this.sources.get(sourceId);
    if (!src) throw new Error(`Unknown source ${sourceId}`);
    const list = this.segments.get(sourceId)!;
    const cur = list[list.length - 1]!;
    if (cur.PeriodUs === periodUs) return cur;
    const vars = this.variablesOf(sourceId);
    let endUs = Math.max(atUs, cur.StartUs);
    let empty = true;
    for (const v of vars) {
      const vs = this.seriesOf(v);
      if (vs.end < 0) continue;
      empty = false;
      vs.flushPartial();
      endUs = Math.max(endUs, vs.end * cur.PeriodUs);
    }
    const startUs = Math.ceil(endUs / periodUs) * periodUs;
    let seg: Segment;
    if (empty && list.length > 1) {
      // Nothing was acquired at the current period: it is replaced, not kept as an empty segment.
      seg = { Seq: cur.Seq, StartUs: Math.max(startUs, list[list.length - 2]!.StartUs), PeriodUs: periodUs };
      list[list.length - 1] = seg;
    } else if (empty && list.length === 1) {
      seg = { Seq: 0, StartUs: 0, PeriodUs: periodUs };
      list[0] = seg;
    } else {
      seg = { Seq: cur.Seq + 1, StartUs: startUs, PeriodUs: periodUs };
      list.push(seg);
    }
    this.db.exec("BEGIN");
    try {
      // Every segment is written (segment 0 too: series_sources.PeriodUs becomes the current one).
      const put = this.db.prepare("INSERT OR REPLACE INTO series_segments (SourceId, Seq, StartUs, PeriodUs) VALUES (?, ?, ?, ?)");
      for (const g of list) put.run(sourceId, g.Seq, g.StartUs, g.PeriodUs);
      this.db.prepare("UPDATE series_sources SET PeriodUs = ? WHERE Id = ?").run(periodUs, sourceId);
      for (const v of vars) this.openPart(v, seg);
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw err;
    }
    src.PeriodUs = periodUs;
    this.flush();
    return seg;
  }

  /** The write state of variable v in segment seg (a new row key, unless it exists and is empty). */
  private openPart(v: SeriesVariable, seg: Segment): void {
    const keys = this.keysOf(v.Id);
    let key = keys.get(seg.Seq);
    if (key === undefined) {
      key = ++this.maxKey;
      this.db.prepare("INSERT INTO series_parts (Key, VarId, Seq) VALUES (?, ?, ?)").run(key, v.Id, seg.Seq);
      keys.set(seg.Seq, key);
    }
    const vs = new VarSeries(key, seg.PeriodUs, this.sinkFor());
    vs.floor = Math.ceil(seg.StartUs / seg.PeriodUs);
    this.series.set(key, vs);
  }

  segmentsOf(sourceId: string): readonly Segment[] {
    return this.segments.get(sourceId) ?? [];
  }

  /**
   * The parts of a variable that overlap [fromUs, toUs), oldest first: each with its period and
   * the stretch of time it covers. A query sums over them; min, max, sum and count merge exactly.
   */
  partsOf(v: SeriesVariable, fromUs = Number.NEGATIVE_INFINITY, toUs = Number.POSITIVE_INFINITY): Part[] {
    const list = this.segments.get(v.SourceId) ?? [];
    const keys = this.partKeys.get(v.Id);
    const out: Part[] = [];
    for (let i = 0; i < list.length; i++) {
      const seg = list[i]!;
      const from = i === 0 ? Number.NEGATIVE_INFINITY : seg.StartUs;
      const to = i + 1 < list.length ? list[i + 1]!.StartUs : Number.POSITIVE_INFINITY;
      if (to <= fromUs || from >= toUs) continue;
      const key = keys?.get(seg.Seq);
      const vs = key === undefined ? undefined : this.series.get(key);
      if (vs) out.push({ vs, periodUs: seg.PeriodUs, fromUs: from, toUs: to });
    }
    return out;
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
    // Keys are shared with series_parts, so they are handed out here, never by SQLite.
    const key = ++this.maxKey;
    this.db.prepare("INSERT INTO series_vars (Key, Id, SourceId, Name, Unit) VALUES (?, ?, ?, ?, ?)").run(key, v.Id, v.SourceId, v.Name, v.Unit);
    const sv: SeriesVariable = { Key: key, ...v };
    this.vars.set(v.Id, sv);
    const list = this.segments.get(v.SourceId)!;
    const seg = list[list.length - 1]!;
    // A variable added after a period change owns its Key from the current segment on.
    if (seg.Seq !== 0) this.db.prepare("INSERT INTO series_parts (Key, VarId, Seq) VALUES (?, ?, ?)").run(key, v.Id, seg.Seq);
    this.keysOf(v.Id).set(seg.Seq, key);
    const vs = new VarSeries(key, seg.PeriodUs, this.sinkFor());
    vs.floor = Math.ceil(seg.StartUs / seg.PeriodUs);
    this.series.set(key, vs);
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
  /** The write side of a variable: its part in the source's current segment. */
  seriesOf(v: SeriesVariable): VarSeries {
    const list = this.segments.get(v.SourceId)!;
    return this.series.get(this.partKeys.get(v.Id)!.get(list[list.length - 1]!.Seq)!)!;
  }

  // ---- writing ----

  append(varId: string, start: number, values: Float32Array): void {
    const v = this.vars.get(varId);
    if (!v) throw new Error(`Unknown variable ${varId}`);
    this.seriesOf(v).append(start, values);
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

  private sinkFor(): (key: bigint, bytes: Uint8Array) => void {
    return (key, bytes) => {
      const old = this.unflushed.get(key);
      this.unflushedBytes += bytes.byteLength - (old?.byteLength ?? 0);
      this.unflushed.set(key, bytes);
    };
  }

  // Rebuilds the write state from the last stored rows. Raw rows and rollup rows are written
  // in the same transaction, so after a crash they agree; the unfinished bucket of each level
  // is recomputed from the level below (bounded: < 64 buckets or samples per level).
  private recover(key: number, seg: Segment): void {
    const vs = new VarSeries(key, seg.PeriodUs, this.sinkFor());
    vs.floor = Math.ceil(seg.StartUs / seg.PeriodUs);
    this.series.set(key, vs);
    const last = this.lastRow.get(...rowRange(key, 0)) as { Id: bigint; Data: Uint8Array } | undefined;
    if (!last) return;
    const blk = Number(last.Id & 0xffffffffffn);
    const data = decodeBlock(last.Data);
    vs.blockIdx = blk;
    vs.raw.set(data);
    vs.rawLen = data.length;
    vs.begin(blk * BLOCK_SAMPLES + data.length);
    vs.first = this.firstSample(key);
    for (let j = 1; j <= TOP; j++) {
      const row = this.lastRow.get(...rowRange(key, j)) as { Id: bigint; Data: Uint8Array } | undefined;
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
      if (src.RetentionSec === null || src.RetentionSec <= 0) continue;
      const horizonUs = (nowMs - src.RetentionSec * 1000) * 1000;
      for (const v of this.variablesOf(src.Id)) {
        // Each segment in its own sample indices; a segment wholly before the horizon goes entirely.
        for (const part of this.partsOf(v, Number.NEGATIVE_INFINITY, horizonUs)) {
          const vs = part.vs;
          const cutoff = part.toUs <= horizonUs ? Number.MAX_SAFE_INTEGER : Math.ceil(horizonUs / part.periodUs);
          for (let j = 0; j <= TOP; j++) {
            const span = j === 0 ? BLOCK_SAMPLES : CHUNK_BUCKETS * LEVELS[j]!;
            const rows = cutoff === Number.MAX_SAFE_INTEGER ? 2 ** 40 : Math.floor(cutoff / span);
            if (rows <= 0) continue;
            deleted += Number(this.delRange.run(rowKey(vs.key, j, 0), rowKey(vs.key, j, rows - 1)).changes);
          }
          if (vs.first >= 0 && vs.first < cutoff) {
            // No stored row left: only what follows the horizon (or nothing, for a closed segment) counts.
            const f = this.firstSample(vs.key);
            vs.first = f >= 0 ? f : Math.min(Math.max(cutoff, vs.blockIdx * BLOCK_SAMPLES), vs.end);
          }
        }
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
