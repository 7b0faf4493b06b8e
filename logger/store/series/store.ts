import type { DatabaseSync } from "node:sqlite";
import { BLOCK_SAMPLES, CHUNK_BUCKETS, LEVELS, PLAIN_FROM_LEVEL, TOP, decodeBlock, decodeChunk, emptyChunk, givingBackReads, keyRange, packBlock, packChunk, rowIndex, rowKey, rowLevel, rowRange } from "./blocks.ts";
import type { Chunk } from "./blocks.ts";
import { MISS } from "./backend.ts";
import type { Registry, SeriesBackend, StoredRow, WriteRow } from "./backend.ts";
import { Compactor } from "./compaction.ts";
import { summarize } from "./ranges.ts";
import type { RowReader } from "./ranges.ts";
import { emptySummary } from "./rollups.ts";
import type { Summary } from "./rollups.ts";
import { SqliteSeries } from "./sqlite.ts";
import { VarSeries } from "./writer.ts";
import { HUNG_WRITE_MS, OutageBuffer } from "./outage.ts";
import type { OutageStatus } from "./outage.ts";
import type { RowCodec } from "./writer.ts";

export type SeriesSource = { Id: string; Name: string; PeriodUs: number; RetentionSec: number | null };
export type SeriesVariable = { Key: number; Id: string; SourceId: string; Name: string; Unit: string };
/** A stretch of a source's time at one period: from StartUs until the next segment starts. */
export type Segment = { Seq: number; StartUs: number; PeriodUs: number };
/** One variable's samples in one segment: its own row key space, indices = time / periodUs. */
export type Part = { vs: VarSeries; periodUs: number; fromUs: number; toUs: number };

// Completed rows wait in memory until the next flush; past this much, append flushes at once.
const AUTO_FLUSH_BYTES = 32 * 1024 * 1024;
/**
 * Variables per slice of a paced flush (flushPaced, the 500 ms timer): their partial blocks and
 * chunks (up to ~32 KB each) encoded and written, ~0.5 MB, a few ms; then other events get a turn.
 */
const SLICE_VARS = 16;
const turn = () => new Promise<void>((done) => setImmediate(done));
/** Rows a PostgreSQL read collects before it stops and fetches them (see read()). */
const MISS_BATCH = 2048;

/** Thrown inside a read on PostgreSQL when MISS_BATCH rows are missing: fetch, then run again. */
class TooManyMisses extends Error {}

/** Time series of equidistant float32 samples: in ${dataDir}/series.db, or in PostgreSQL (open()). */
export class SeriesStore {
  readonly backend: SeriesBackend;
  /**
   * Complete rows packed (the default) or plain; set before appending (SERIES_CODEC=plain, the
   * benchmark's reference). Rows are read in either form whatever this says.
   */
  readonly codec: RowCodec = { pack: true };
  private readonly sources = new Map<string, SeriesSource>();
  private readonly vars = new Map<string, SeriesVariable>();
  private readonly series = new Map<number, VarSeries>();
  /** Segments of each source, oldest first (never empty for a defined source). */
  private readonly segments = new Map<string, Segment[]>();
  /** Row key of each (variable, segment) that holds samples: varId → seq → key. */
  private readonly partKeys = new Map<string, Map<number, number>>();
  private maxKey = 0;
  /** Rows handed over by the writers, not yet given to the engine, per variable (part) key. */
  private readonly unflushed = new Map<number, Map<bigint, Uint8Array>>();
  private unflushedBytes = 0;
  /** PostgreSQL: rows given to the engine whose write has not committed; readers still find them here. */
  private readonly writing = new Map<bigint, Uint8Array>();
  private closed = false;
  private closing: Promise<void> | null = null;
  private pacing = false;
  private queued: Promise<void> | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** The last write error (PostgreSQL unreachable…); rows stay queued and are written again. */
  lastWriteError: Error | null = null;
  /**
   * Sources whose recordings were imported: retention counts from now back over sample times,
   * which would delete a recording of 2015 the moment it is imported, so these keep everything.
   */
  readonly retentionExempt = new Set<string>();
  /** Packs the plain rows the store holds from before (startCompaction; compaction.ts). */
  private compactor: Compactor | null = null;
  private compactTimer: NodeJS.Timeout | null = null;
  /** Told about write failures and recoveries (the logger's trace). */
  onEvent: (level: "warn" | "info", message: string) => void = () => {};
  /** The bound on what waits in memory while writes fail, and what an outage cost (outage.ts). */
  readonly outage = new OutageBuffer((level, message) => this.onEvent(level, message));
  /** PostgreSQL: bytes of the write in flight, and since when it runs. */
  private writingBytes = 0;
  private writeStartedAt: number | null = null;

  /** The embedded store in ${dataDir}/series.db (synchronous; PostgreSQL: SeriesStore.open). */
  constructor(dataDir: string);
  constructor(backend: SeriesBackend, registry: Registry);
  constructor(where: string | SeriesBackend, registry?: Registry) {
    this.backend = typeof where === "string" ? new SqliteSeries(where) : where;
    this.load(registry ?? (this.backend.loadRegistry() as Registry));
    if (typeof where === "string") {
      this.sweepUnclaimed(this.backend as SqliteSeries);
      for (const [varId, keys] of this.partKeys) {
        const v = this.vars.get(varId)!;
        for (const [seq, key] of keys) {
          const vs = this.recoverEdges(key, this.segmentOf(v.SourceId, seq), (lo, hi, last) => this.backend.edgeRow(lo, hi, last) as StoredRow | undefined);
          if (vs.end >= 0) vs.pending = pendingOf(vs, this.reader());
        }
      }
      this.compactor = this.newCompactor();
    }
  }

  /** A store on another engine (PostgreSQL): the registry and every variable's write state are read first. */
  static async open(backend: SeriesBackend): Promise<SeriesStore> {
    const store = new SeriesStore(backend, await backend.loadRegistry());
    const jobs: Array<() => Promise<void>> = [];
    for (const [varId, keys] of store.partKeys) {
      const v = store.vars.get(varId)!;
      for (const [seq, key] of keys) {
        jobs.push(async () => {
          const edges = new Map<string, StoredRow | undefined>();
          for (let j = 0; j <= TOP; j++) edges.set(`${j}:1`, await backend.edgeRow(...rowRange(key, j), true));
          edges.set("0:0", await backend.edgeRow(...rowRange(key, 0), false));
          const vs = store.recoverEdges(key, store.segmentOf(v.SourceId, seq), (lo, _hi, last) => edges.get(`${rowLevel(lo)}:${last ? 1 : 0}`));
          if (vs.end >= 0) vs.pending = await store.read((rows) => pendingOf(vs, rows));
        });
      }
    }
    // A few at a time: the pool has a handful of connections.
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) await job();
    }));
    store.compactor = store.newCompactor();
    return store;
  }

  /** Closed (or closing): writes are no longer taken. */
  get isClosed(): boolean {
    return this.closed || this.closing !== null;
  }

  get engine(): "sqlite" | "postgres" {
    return this.backend.engine;
  }

  /** The embedded engine's database (tests, import's cache size); throws on PostgreSQL. */
  get db(): DatabaseSync {
    if (!(this.backend instanceof SqliteSeries)) throw new Error("The series store is not on SQLite");
    return this.backend.db;
  }

  get path(): string {
    return this.backend instanceof SqliteSeries ? this.backend.path : "";
  }

  private load(r: Registry): void {
    for (const s of r.sources) {
      this.sources.set(s.Id, s);
      this.segments.set(s.Id, [{ Seq: 0, StartUs: 0, PeriodUs: s.PeriodUs }]);
    }
    for (const g of r.segments) {
      const list = this.segments.get(g.SourceId);
      if (!list) continue;
      const seg = { Seq: g.Seq, StartUs: g.StartUs, PeriodUs: g.PeriodUs };
      if (g.Seq === 0) list[0] = seg;
      else list.push(seg);
    }
    const listed = new Set<number>();
    for (const p of r.parts) {
      this.keysOf(p.VarId).set(p.Seq, p.Key);
      listed.add(p.Key);
      this.maxKey = Math.max(this.maxKey, p.Key);
    }
    for (const v of r.vars) {
      this.vars.set(v.Id, v);
      this.maxKey = Math.max(this.maxKey, v.Key);
      if (!listed.has(v.Key)) this.keysOf(v.Id).set(0, v.Key);
    }
  }

  /** Deletes the rows of keys no variable claims: an import's that a stop cut short (reserveKeys). */
  private sweepUnclaimed(backend: SqliteSeries): void {
    const claimed = new Set<number>();
    for (const keys of this.partKeys.values()) for (const key of keys.values()) claimed.add(key);
    for (const key of backend.rowKeys()) {
      if (claimed.has(key)) continue;
      backend.deleteRange(...keyRange(key));
      this.maxKey = Math.max(this.maxKey, key);
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
    this.backend.putSource(src);
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
    const register = () => {
      this.backend.putSegments(sourceId, list, periodUs);
      for (const v of vars) this.openPart(v, seg);
    };
    // One transaction on SQLite; PostgreSQL runs its queued registry changes in one anyway.
    if (this.backend instanceof SqliteSeries) this.backend.transaction(register);
    else register();
    src.PeriodUs = periodUs;
    void this.flush();
    return seg;
  }

  /** The write state of variable v in segment seg (a new row key, unless it exists and is empty). */
  private openPart(v: SeriesVariable, seg: Segment): void {
    const keys = this.keysOf(v.Id);
    let key = keys.get(seg.Seq);
    if (key === undefined) {
      key = ++this.maxKey;
      this.backend.putPart({ Key: key, VarId: v.Id, Seq: seg.Seq });
      keys.set(seg.Seq, key);
    }
    const vs = new VarSeries(key, seg.PeriodUs, this.sinkFor(key), this.codec);
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
        this.backend.renameVariable(old.Key, v.Name, v.Unit);
        Object.assign(old, { Name: v.Name, Unit: v.Unit });
      }
      return old;
    }
    // Keys are shared with series_parts, so they are handed out here, never by the engine.
    const key = ++this.maxKey;
    const sv: SeriesVariable = { Key: key, ...v };
    const list = this.segments.get(v.SourceId)!;
    const seg = list[list.length - 1]!;
    this.backend.putVariable(sv, seg.Seq);
    this.vars.set(v.Id, sv);
    this.keysOf(v.Id).set(seg.Seq, key);
    const vs = new VarSeries(key, seg.PeriodUs, this.sinkFor(key), this.codec);
    vs.floor = Math.ceil(seg.StartUs / seg.PeriodUs);
    this.series.set(key, vs);
    return sv;
  }

  // ---- an import written as it arrives (import.ts, StreamedImport) ----

  /**
   * Keys for an import's variables before they exist: its complete rows are written under them
   * while the file arrives, read by nobody (no variable has the key) until adoptVariable, and
   * deleted by dropKeys when the import fails. A logger stopped meanwhile deletes them at its
   * next start (sweepUnclaimed).
   */
  reserveKeys(n: number): number[] {
    return Array.from({ length: n }, () => ++this.maxKey);
  }

  /** Stores rows of reserved keys whose samples are `periodUs` apart. */
  writeReserved(rows: ReadonlyArray<readonly [bigint, Uint8Array]>, periodUs: number): void | Promise<void> {
    return this.backend.write(rows.map(([id, data]) => ({ id, data, level: rowLevel(id), tEndUs: tEndOf(id, periodUs) })));
  }

  /**
   * Makes a reserved key whose rows are all written (the partial ones too) a variable of a source
   * that holds no samples yet: its write state is rebuilt from those rows, as at a start.
   */
  adoptVariable(v: { Id: string; SourceId: string; Name: string; Unit: string }, key: number): SeriesVariable {
    const list = this.segments.get(v.SourceId);
    if (!list) throw new Error(`Unknown source ${v.SourceId}`);
    if (this.vars.has(v.Id) || this.series.has(key)) throw new Error(`Variable ${v.Id} or key ${key} exists`);
    const seg = list[list.length - 1]!;
    if (seg.StartUs !== 0) throw new Error(`Source ${v.SourceId} has a segment of its own`);
    const sv: SeriesVariable = { Key: key, ...v };
    this.backend.putVariable(sv, seg.Seq);
    this.vars.set(v.Id, sv);
    this.keysOf(v.Id).set(seg.Seq, key);
    const vs = this.recoverEdges(key, seg, (lo, hi, last) => this.backend.edgeRow(lo, hi, last) as StoredRow | undefined);
    if (vs.end >= 0) vs.pending = pendingOf(vs, this.reader());
    return sv;
  }

  /** Deletes every row of keys no variable has (a failed import's). */
  dropKeys(keys: readonly number[]): void | Promise<void> {
    const jobs = keys.filter((k) => !this.series.has(k)).map((k) => this.backend.deleteRange(...keyRange(k)));
    if (jobs.some((j) => j instanceof Promise)) return Promise.all(jobs).then(() => undefined);
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
    if (!this.outage.accepts()) {
      // The database has been failing for as long as the outage buffer holds: not kept (a gap).
      const periodUs = this.seriesOf(v).periodUs;
      this.outage.drop(v.SourceId, values.length, (start * periodUs) / 1000, ((start + values.length - 1) * periodUs) / 1000);
      return;
    }
    this.seriesOf(v).append(start, values);
    if (this.unflushedBytes > AUTO_FLUSH_BYTES) void this.flush();
  }

  /**
   * Writes everything appended so far. SQLite: at once, in one transaction, before this returns
   * (the promise is already settled). PostgreSQL: queued behind the write in progress; resolves
   * when stored. Never rejects: rows that could not be written stay queued for the next flush.
   */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.backend instanceof SqliteSeries) {
      const rows = this.take([...this.series.keys()]);
      if (rows.length) this.backend.write(rows);
      this.outage.stored();
      return Promise.resolve();
    }
    return this.queueWrite(false);
  }

  /** Bytes acquired but not stored yet: queued, and (PostgreSQL) in the write in flight. */
  get unsavedBytes(): number {
    return this.unflushedBytes + this.writingBytes;
  }

  /** What Project State shows of the store: writing or not, how full the outage buffer is, the last loss. */
  outageStatus(): OutageStatus {
    return this.outage.status(this.engine, this.unsavedBytes);
  }

  /**
   * The periodic flush (the logger's 500 ms timer): like flush(), but variable by variable,
   * SLICE_VARS at a time — their partial blocks encoded and, on SQLite, written in one small
   * transaction — with a turn for other events between slices. One transaction of ~1000 partial
   * blocks held the event loop for tens of ms (issue 16's MQTT p99 delay). Each variable's rows
   * are one snapshot, so recovery finds them consistent whatever slice a crash cuts. A tick that
   * finds the previous one still running leaves its rows to the next.
   */
  async flushPaced(): Promise<void> {
    // A write that has not come back for a while is an outage too (a server that stopped answering).
    if (this.writeStartedAt !== null && Date.now() - this.writeStartedAt > HUNG_WRITE_MS) this.outage.failing(`no answer for ${HUNG_WRITE_MS / 1000} s`);
    this.outage.check(this.unsavedBytes);
    if (!(this.backend instanceof SqliteSeries)) return this.queueWrite(true);
    if (this.pacing || this.closed) return;
    this.backend.offloadCheckpoints();
    this.pacing = true;
    try {
      const keys = [...this.series.keys()];
      for (let i = 0; i < keys.length && !this.closed; i += SLICE_VARS) {
        const rows = this.take(keys.slice(i, i + SLICE_VARS));
        if (rows.length) this.backend.write(rows);
        if (i + SLICE_VARS < keys.length) await turn();
      }
      this.outage.stored();
    } finally {
      this.pacing = false;
    }
  }

  private queueWrite(paced: boolean): Promise<void> {
    if (this.queued) return this.queued;
    const p = this.chain.then(() => {
      this.queued = null;
      return this.writeOut(paced);
    });
    this.queued = p;
    this.chain = p;
    return p;
  }

  /** Resolves when everything appended before the call is stored (both engines). */
  async settled(): Promise<void> {
    await this.flush();
    await this.backend.settled();
  }

  /**
   * The rows of the given variables to write now (each variable's partial block and chunks and
   * its completed rows: one consistent snapshot per variable), taken from `unflushed`; higher
   * rollup levels first and raw blocks last, so a write cut short leaves the rollups ahead of
   * the raw blocks, never behind, and recovery rebuilds the unfinished buckets from the level below.
   */
  private take(keys: readonly number[]): WriteRow[] {
    const rows: WriteRow[] = [];
    for (const key of keys) {
      this.series.get(key)?.flushPartial();
      const m = this.unflushed.get(key);
      if (!m) continue;
      this.unflushed.delete(key);
      for (const [id, data] of m) {
        rows.push(this.rowOf(id, data));
        this.unflushedBytes -= data.byteLength;
      }
    }
    rows.sort((a, b) => b.level - a.level);
    return rows;
  }

  private rowOf(id: bigint, data: Uint8Array): WriteRow {
    return { id, data, level: rowLevel(id), tEndUs: this.tEndUs(id) };
  }

  /** End of the time a row covers, µs (the partition key of raw blocks on PostgreSQL). */
  private tEndUs(id: bigint): number {
    return tEndOf(id, this.series.get(Number(id >> 43n))?.periodUs ?? 1);
  }

  // ---- background compaction (compaction.ts) ----

  private newCompactor(): Compactor {
    const store = this;
    return new Compactor({
      backend: this.backend,
      codec: this.codec,
      parts: () => store.allParts(),
      queued: (id) => Boolean(store.unflushed.get(Number(id >> 43n))?.has(id) || store.writing.has(id)),
      queuedFloor: (key, level) => {
        let floor = Number.POSITIVE_INFINITY;
        const ids = [...(store.unflushed.get(key)?.keys() ?? []), ...store.writing.keys()];
        for (const id of ids) {
          if (Number(id >> 43n) === key && rowLevel(id) === level) floor = Math.min(floor, rowIndex(id));
        }
        return floor;
      },
      tEndUs: (id) => store.tEndUs(id),
    });
  }

  /** Every part's write state, and whether appends go to it (the current segment of its source). */
  private allParts(): Array<{ vs: VarSeries; open: boolean }> {
    const out: Array<{ vs: VarSeries; open: boolean }> = [];
    for (const [varId, keys] of this.partKeys) {
      const v = this.vars.get(varId);
      const list = v ? this.segments.get(v.SourceId) : undefined;
      const currentSeq = list?.[list.length - 1]?.Seq;
      for (const [seq, key] of keys) {
        const vs = this.series.get(key);
        if (vs) out.push({ vs, open: seq === currentSeq });
      }
    }
    return out;
  }

  /**
   * Starts packing, in the background, the plain rows stored before packing existed: after
   * delayMs (never during start-up), one window of rows per step, pauseMs between steps. Stops
   * at close; says in the trace (onEvent) when it found rows to pack and when it is done.
   */
  startCompaction(o: { delayMs?: number; pauseMs?: number } = {}): void {
    const compactor = this.compactor;
    if (!compactor || this.compactTimer || this.closed || !this.codec.pack) return;
    const pauseMs = o.pauseMs ?? 50;
    const wait = (ms: number) => new Promise<void>((done) => (this.compactTimer = setTimeout(done, ms).unref()));
    const run = async () => {
      try {
        let announced = false;
        while (!this.closed && (await compactor.step())) {
          if (!announced && compactor.packed > 0) {
            announced = true;
            this.onEvent("info", "Series store: packing the rows stored before packing existed, in the background");
          }
          await wait(pauseMs);
        }
        if (announced) this.onEvent("info", `Series store: background packing done, ${compactor.packed} rows packed, ${(compactor.saved / 2 ** 20).toFixed(0)} MiB saved`);
        while (!this.closed) {
          await wait(60_000);
          if (!this.closed) await compactor.saveMarks();
        }
      } catch (err) {
        if (!this.closed) this.onEvent("warn", `Series store: background packing stopped (${(err as Error).message}); it resumes at the next start`);
      }
    };
    this.compactTimer = setTimeout(() => void run(), o.delayMs ?? 30_000).unref();
  }

  /** Runs background compaction to its end now (tests, tools); resolves to the rows packed. */
  async compactAll(onStep?: (packed: number) => void): Promise<number> {
    const compactor = this.compactor;
    if (!compactor) return 0;
    while (!this.closed && (await compactor.step())) onStep?.(compactor.packed);
    return compactor.packed;
  }

  // PostgreSQL: one write at a time (queueWrite chains them), rows readable in `writing` until it
  // commits. A failed write puts its rows back unless a newer version is queued, and says so
  // once until a write succeeds again. Paced: the rows are taken SLICE_VARS variables at a time.
  private async writeOut(paced: boolean): Promise<void> {
    if (this.closed) return;
    const keys = [...this.series.keys()];
    const rows: WriteRow[] = [];
    for (let i = 0; i < keys.length; i += paced ? SLICE_VARS : keys.length) {
      for (const r of this.take(keys.slice(i, paced ? i + SLICE_VARS : keys.length))) {
        rows.push(r);
        this.writing.set(r.id, r.data);
        // Counted as it is taken: across the turns below a row was in neither count, and the
        // outage buffer looked emptier than it was (and took more) while the write was assembled.
        this.writingBytes += r.data.byteLength;
      }
      if (paced && i + SLICE_VARS < keys.length) await turn();
    }
    rows.sort((a, b) => b.level - a.level);
    const bytes = rows.reduce((n, r) => n + r.data.byteLength, 0);
    this.writeStartedAt = Date.now();
    try {
      await this.backend.write(rows);
      this.lastWriteError = null;
      // Says so in the trace when it ends an outage, and what the outage cost.
      this.outage.stored();
    } catch (err) {
      for (const r of rows) {
        const key = Number(r.id >> 43n);
        if (this.writing.get(r.id) === r.data && !this.unflushed.get(key)?.has(r.id)) this.queueRow(key, r.id, r.data);
      }
      this.lastWriteError = err as Error;
      this.outage.failing((err as Error).message);
    } finally {
      this.writingBytes -= bytes;
      this.writeStartedAt = null;
      for (const r of rows) if (this.writing.get(r.id) === r.data) this.writing.delete(r.id);
    }
  }

  private queueRow(varKey: number, id: bigint, bytes: Uint8Array): void {
    let m = this.unflushed.get(varKey);
    if (!m) this.unflushed.set(varKey, (m = new Map()));
    const old = m.get(id);
    this.unflushedBytes += bytes.byteLength - (old?.byteLength ?? 0);
    m.set(id, bytes);
  }

  private sinkFor(varKey: number): (key: bigint, bytes: Uint8Array) => void {
    return (key, bytes) => this.queueRow(varKey, key, bytes);
  }

  // Rebuilds the write state from the last stored rows. Rollup rows are written before (or with)
  // the raw rows, so after a crash they are never behind; the unfinished bucket of each level
  // is recomputed from the level below (pendingOf; bounded: < 64 buckets or samples per level).
  private recoverEdges(key: number, seg: Segment, edge: (lo: bigint, hi: bigint, last: boolean) => StoredRow | undefined): VarSeries {
    const vs = new VarSeries(key, seg.PeriodUs, this.sinkFor(key), this.codec);
    vs.floor = Math.ceil(seg.StartUs / seg.PeriodUs);
    this.series.set(key, vs);
    const last = edge(...rowRange(key, 0), true);
    if (!last) return vs;
    const blk = rowIndex(last.id);
    const data = decodeBlock(last.data);
    vs.blockIdx = blk;
    vs.raw.set(data);
    vs.rawLen = data.length;
    vs.begin(blk * BLOCK_SAMPLES + data.length);
    vs.first = firstIndex(edge(...rowRange(key, 0), false));
    for (let j = 1; j <= TOP; j++) {
      const row = edge(...rowRange(key, j), true);
      if (row) {
        vs.chunkIdx[j] = rowIndex(row.id);
        // A buffer of its own: the writer keeps filling this chunk.
        vs.chunks[j] = decodeChunk(row.data, emptyChunk());
      }
    }
    return vs;
  }

  // ---- reading ----

  private bytesOf(key: bigint, fetched?: Map<bigint, Uint8Array | null>): Uint8Array | undefined | typeof MISS {
    const queued = this.unflushed.get(Number(key >> 43n))?.get(key) ?? this.writing.get(key);
    if (queued) return queued;
    if (fetched?.has(key)) return fetched.get(key) ?? undefined;
    return this.backend.rowNow(key);
  }

  /**
   * Synchronous row access for one query on the embedded engine; caches what it reads, so each
   * row is decoded once. On PostgreSQL use read(), which fetches the rows first.
   */
  reader(fetched?: Map<bigint, Uint8Array | null>, missing?: Set<bigint>): RowReader {
    const cache = new Map<bigint, Float32Array | Chunk | null>();
    const get = <T>(key: bigint, decode: (b: Uint8Array) => T): T | null => {
      let hit = cache.get(key);
      if (hit === undefined) {
        const bytes = this.bytesOf(key, fetched);
        if (bytes === MISS) {
          if (!missing) throw new Error("The series store is not on SQLite: read rows through SeriesStore.read()");
          missing.add(key);
          if (missing.size >= MISS_BATCH) throw new TooManyMisses();
          return null;
        }
        hit = bytes ? (decode(bytes) as Float32Array | Chunk) : null;
        cache.set(key, hit);
      }
      return hit as T | null;
    };
    // The block of the last call again: fine buckets (a few samples each) ask for the same block
    // many times in a row, and its key is a BigInt made anew each time. A missed block (null) is
    // kept too: this reader's rows do not change while it lives (read() makes one per run).
    let lastVs: VarSeries | null = null;
    let lastBlk = -1;
    let lastData: Float32Array | null = null;
    return {
      block: (vs, blk) => {
        if (blk === vs.blockIdx) return vs.raw;
        if (vs === lastVs && blk === lastBlk) return lastData;
        const data = get(rowKey(vs.key, 0, blk), decodeBlock);
        [lastVs, lastBlk, lastData] = [vs, blk, data];
        return data;
      },
      chunk: (vs, level, c) => (c === vs.chunkIdx[level] ? vs.chunks[level]! : get(rowKey(vs.key, level, c), (b) => decodeChunk(b))),
      missed: () => (missing?.size ?? 0) > 0,
    };
  }

  /**
   * Runs a synchronous reader function over the stored rows, on either engine. SQLite: once,
   * reading as it goes. PostgreSQL: fn runs with the rows fetched so far; the rows it missed are
   * fetched in one query and fn runs again, until it misses nothing (the rows a summary needs
   * depend on the range, not on the values, so that is usually the second run). fn must not
   * have side effects beyond its result. `transient`: the result holds none of the rows fn read
   * (text, copies), so the buffers they were decoded into are reused at once (long answers read
   * slice by slice).
   */
  async read<T>(read: (rows: RowReader) => T, opts: { transient?: boolean } = {}): Promise<T> {
    const fn = opts.transient ? (rows: RowReader) => givingBackReads(() => read(rows)) : read;
    if (this.backend instanceof SqliteSeries) return fn(this.reader());
    const fetched = new Map<bigint, Uint8Array | null>();
    for (;;) {
      const missing = new Set<bigint>();
      let result: T | undefined;
      try {
        result = fn(this.reader(fetched, missing));
      } catch (err) {
        // A function may trip over a missed row (null) before it ends: fetch, and run it again.
        if (missing.size === 0) throw err;
      }
      if (missing.size === 0) return result as T;
      const ids = [...missing];
      const got = await this.backend.fetchRows(ids);
      for (const id of ids) fetched.set(id, got.get(id) ?? null);
    }
  }

  // ---- retention ----

  /**
   * Removes raw blocks and rollup chunks that lie wholly before each source's horizon. SQLite:
   * at once, returns the rows deleted. PostgreSQL: runs in the background (see retain()).
   */
  applyRetention(nowMs = Date.now()): number {
    if (!(this.backend instanceof SqliteSeries)) {
      void this.retain(nowMs).catch((err: Error) => this.onEvent("warn", `Series store: retention failed (${err.message})`));
      return 0;
    }
    let deleted = 0;
    for (const job of this.retentionJobs(nowMs, Number.NEGATIVE_INFINITY)) {
      for (const [lo, hi] of job.ranges) deleted += this.backend.deleteRange(lo, hi) as number;
      if (job.vs.first >= 0 && job.vs.first < job.cutoff) job.vs.first = job.nextFirst(firstIndex(this.backend.edgeRow(...rowRange(job.vs.key, 0), false) as StoredRow | undefined));
    }
    return deleted;
  }

  /**
   * Retention on either engine; resolves to the rows removed. On PostgreSQL raw blocks go by
   * whole partitions: those that end before the horizon of every source (docs/decisions/0013);
   * a source keeping less than the longest-keeping one has its blocks in the kept partitions
   * deleted as rows, and rollup chunks (1/64 of the raw rows and fewer) are always deleted as rows.
   */
  async retain(nowMs = Date.now()): Promise<number> {
    if (this.backend instanceof SqliteSeries) return this.applyRetention(nowMs);
    await this.settled();
    let dropHorizonUs = Number.POSITIVE_INFINITY;
    for (const src of this.sources.values()) {
      if (src.RetentionSec === null || src.RetentionSec <= 0 || this.retentionExempt.has(src.Id)) dropHorizonUs = Number.NEGATIVE_INFINITY;
      else dropHorizonUs = Math.min(dropHorizonUs, (nowMs - src.RetentionSec * 1000) * 1000);
    }
    let deleted = 0;
    if (Number.isFinite(dropHorizonUs)) deleted += await this.backend.dropBefore(dropHorizonUs);
    for (const job of this.retentionJobs(nowMs, dropHorizonUs)) {
      for (const [lo, hi] of job.ranges) deleted += await this.backend.deleteRange(lo, hi);
      if (job.vs.first >= 0 && job.vs.first < job.cutoff) job.vs.first = job.nextFirst(firstIndex(await this.backend.edgeRow(...rowRange(job.vs.key, 0), false)));
    }
    return deleted;
  }

  // Per part of every source with a retention: the key ranges to delete and the part's new first
  // sample. Raw blocks of a source whose horizon is not after droppedUs went with the partitions.
  private retentionJobs(nowMs: number, droppedUs: number) {
    const jobs: Array<{ vs: VarSeries; cutoff: number; ranges: Array<[bigint, bigint]>; nextFirst: (f: number) => number }> = [];
    for (const src of this.sources.values()) {
      if (src.RetentionSec === null || src.RetentionSec <= 0 || this.retentionExempt.has(src.Id)) continue;
      const horizonUs = (nowMs - src.RetentionSec * 1000) * 1000;
      for (const v of this.variablesOf(src.Id)) {
        // Each segment in its own sample indices; a segment wholly before the horizon goes entirely.
        for (const part of this.partsOf(v, Number.NEGATIVE_INFINITY, horizonUs)) {
          const vs = part.vs;
          const cutoff = part.toUs <= horizonUs ? Number.MAX_SAFE_INTEGER : Math.ceil(horizonUs / part.periodUs);
          const ranges: Array<[bigint, bigint]> = [];
          for (let j = horizonUs > droppedUs ? 0 : 1; j <= TOP; j++) {
            const span = j === 0 ? BLOCK_SAMPLES : CHUNK_BUCKETS * LEVELS[j]!;
            const rows = cutoff === Number.MAX_SAFE_INTEGER ? 2 ** 40 : Math.floor(cutoff / span);
            if (rows > 0) ranges.push([rowKey(vs.key, j, 0), rowKey(vs.key, j, rows - 1)]);
          }
          // No stored row left: only what follows the horizon (or nothing, for a closed segment) counts.
          const nextFirst = (f: number) => (f >= 0 ? f : Math.min(Math.max(cutoff, vs.blockIdx * BLOCK_SAMPLES), vs.end));
          jobs.push({ vs, cutoff, ranges, nextFirst });
        }
      }
    }
    return jobs;
  }

  /** First sample index a source still keeps, or null when it keeps everything. */
  horizonIndex(src: SeriesSource, nowMs = Date.now()): number | null {
    if (src.RetentionSec === null || src.RetentionSec <= 0 || this.retentionExempt.has(src.Id)) return null;
    return Math.ceil(((nowMs - src.RetentionSec * 1000) * 1000) / src.PeriodUs);
  }

  setRetention(sourceId: string, retentionSec: number | null): void {
    const src = this.sources.get(sourceId);
    if (!src) throw new Error(`Unknown source ${sourceId}`);
    src.RetentionSec = retentionSec;
    this.backend.setRetention(sourceId, retentionSec);
  }

  /**
   * Bytes per sample that rows written now take, raw block and rollups together: from the last
   * complete block and level-1 chunk of up to `sample` variables, packed as they would be
   * written if stored plain. `measured` false: nothing complete yet, the plain size is assumed.
   * Rows' bytes only: the embedded file adds ~5 % (4 KiB pages), PostgreSQL its row overhead.
   */
  async bytesPerSample(sample = 64): Promise<{ value: number; measured: boolean }> {
    const parts = this.allParts().filter((p) => p.open).slice(0, sample);
    const rows = await this.read((r) => {
      const out: Array<{ level: number; data: Uint8Array | Float32Array | Chunk }> = [];
      for (const { vs } of parts) {
        if (vs.blockIdx > 0) {
          const b = r.block(vs, vs.blockIdx - 1);
          if (b && b.length === BLOCK_SAMPLES) out.push({ level: 0, data: b });
        }
        if (vs.chunkIdx[1]! > 0) {
          const c = r.chunk(vs, 1, vs.chunkIdx[1]! - 1);
          if (c && c.length === CHUNK_BUCKETS) out.push({ level: 1, data: c });
        }
      }
      return out;
    });
    let raw = 0;
    let samples = 0;
    let rollup = 0;
    let buckets = 0;
    for (const r of rows) {
      if (r.level === 0) {
        const b = r.data as Float32Array;
        raw += this.codec.pack ? packBlock(b, b.length).byteLength : b.length * 4;
        samples += b.length;
      } else {
        const c = r.data as Chunk;
        rollup += this.codec.pack ? packChunk(c).byteLength : c.length * 20;
        buckets += c.length;
      }
    }
    // Level k has a bucket per LEVELS[k] samples: packed like the measured level-1 chunks below
    // PLAIN_FROM_LEVEL, plain (20 bytes a bucket) from it on.
    const rollupPerSample = (perBucket: number) => {
      let bytes = 0;
      for (let level = 1; level <= TOP; level++) bytes += (level < PLAIN_FROM_LEVEL ? perBucket : 20) / LEVELS[level]!;
      return bytes;
    };
    if (!samples) return { value: 4 + rollupPerSample(20), measured: false };
    return { value: raw / samples + rollupPerSample(buckets ? rollup / buckets : 20), measured: true };
  }

  /** Bytes on disk of the embedded engine (database + WAL); size() on either engine. */
  sizeOnDisk(): number {
    if (!(this.backend instanceof SqliteSeries)) throw new Error("The series store is not on SQLite: use size()");
    return this.backend.sizeOnDisk();
  }

  async size(): Promise<number> {
    return this.backend.sizeOnDisk();
  }

  checkpoint(): void {
    if (this.backend instanceof SqliteSeries) this.backend.checkpoint();
  }

  /**
   * Writes what is left and closes. SQLite: written and closed when this returns, the checkpoint
   * worker's connection closed when it resolves; PostgreSQL: when it resolves.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.compactTimer) clearTimeout(this.compactTimer);
    if (this.backend instanceof SqliteSeries) {
      void this.flush();
      this.closed = true;
      const marks = this.compactor?.followingMarks() ?? [];
      if (marks.length) this.backend.repack([], marks);
      return (this.closing = this.backend.close());
    }
    const backend = this.backend;
    return (this.closing = this.settled().then(async () => {
      this.closed = true;
      const marks = this.compactor?.followingMarks() ?? [];
      if (marks.length) await Promise.resolve(backend.repack([], marks)).catch(() => {});
      await backend.close();
    }));
  }
}

/** End of the time row `id` covers, µs, for samples `periodUs` apart. */
function tEndOf(id: bigint, periodUs: number): number {
  const level = rowLevel(id);
  const index = rowIndex(id);
  const span = level === 0 ? BLOCK_SAMPLES : CHUNK_BUCKETS * LEVELS[level]!;
  return (index + 1) * span * periodUs;
}

/** The unfinished bucket of every level after recovery: the finished buckets of the level below. */
function pendingOf(vs: VarSeries, rows: RowReader): Summary[] {
  const pending = vs.pending.map(() => emptySummary());
  for (let j = 1; j <= TOP; j++) {
    const upTo = j === 1 ? vs.end : vs.pendingIdx[j - 1]! * LEVELS[j - 1]!;
    summarize(rows, vs, vs.pendingIdx[j]! * LEVELS[j]!, upTo, j - 1, pending[j]!);
  }
  return pending;
}

/** Index of the first sample that is not a gap in a variable's first stored block; -1 without one. */
function firstIndex(row: StoredRow | undefined): number {
  if (!row) return -1;
  const data = decodeBlock(row.data);
  let i = 0;
  while (i < data.length && Number.isNaN(data[i]!)) i++;
  return rowIndex(row.id) * BLOCK_SAMPLES + i;
}
