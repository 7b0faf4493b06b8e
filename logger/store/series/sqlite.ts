import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { StatementSync } from "node:sqlite";
import { Worker } from "node:worker_threads";
import { PAGE_SIZE } from "./blocks.ts";
import type { PackedMark, PartRow, Registry, RepackRow, SeriesBackend, StoredRow, WriteRow } from "./backend.ts";
import type { Segment, SeriesSource, SeriesVariable } from "./store.ts";

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
  -- Background compaction (compaction.ts): rows of (Key, Level) below Upto need no packing.
  CREATE TABLE IF NOT EXISTS series_packed (
    Key INTEGER NOT NULL, Level INTEGER NOT NULL, Upto INTEGER NOT NULL, PRIMARY KEY (Key, Level)
  );
`;

const CHECKPOINT_MS = 250;
// The checkpoint worker (CommonJS, evaluated): its own connection to series.db.
const CHECKPOINTER = `
  const { parentPort, workerData } = require("node:worker_threads");
  const { DatabaseSync } = require("node:sqlite");
  const db = new DatabaseSync(workerData.path);
  db.exec("PRAGMA busy_timeout = 0");
  const timer = setInterval(() => {
    try { db.exec("PRAGMA wal_checkpoint(PASSIVE)"); } catch {}
  }, workerData.everyMs);
  parentPort.once("message", () => {
    clearInterval(timer);
    db.close();
    parentPort.close();
  });
`;
/** How long a closing store waits for the checkpoint worker to close its connection. */
const CHECKPOINTER_STOP_MS = 2000;

/** The embedded engine: everything in ${dataDir}/series.db, synchronous. */
export class SqliteSeries implements SeriesBackend {
  readonly engine = "sqlite" as const;
  readonly describe = "embedded (series.db)";
  readonly path: string;
  readonly db: DatabaseSync;
  private readonly put: StatementSync;
  private readonly getRow: StatementSync;
  private readonly lastRow: StatementSync;
  private readonly firstRow: StatementSync;
  private readonly delRange: StatementSync;
  private readonly plainIn: StatementSync;
  private readonly repackRow: StatementSync;
  private readonly putMark: StatementSync;
  private checkpointer: Worker | null = null;

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
    // length() of a BLOB is read from the record header, without the blob itself.
    this.plainIn = this.db.prepare("SELECT Id, Data FROM series_rows WHERE Id BETWEEN ? AND ? AND length(Data) % 4 = 0 ORDER BY Id");
    this.plainIn.setReadBigInts(true);
    this.repackRow = this.db.prepare("UPDATE series_rows SET Data = ? WHERE Id = ? AND length(Data) = ?");
    this.putMark = this.db.prepare("INSERT OR REPLACE INTO series_packed (Key, Level, Upto) VALUES (?, ?, ?)");
  }

  loadRegistry(): Registry {
    return {
      sources: this.db.prepare("SELECT * FROM series_sources").all() as SeriesSource[],
      segments: this.db.prepare("SELECT * FROM series_segments ORDER BY SourceId, Seq").all() as Registry["segments"],
      parts: this.db.prepare("SELECT * FROM series_parts").all() as PartRow[],
      vars: this.db.prepare("SELECT * FROM series_vars").all() as SeriesVariable[],
    };
  }

  putSource(s: SeriesSource): void {
    this.db.prepare("INSERT OR REPLACE INTO series_sources (Id, Name, PeriodUs, RetentionSec) VALUES (?, ?, ?, ?)").run(s.Id, s.Name, s.PeriodUs, s.RetentionSec);
  }

  setRetention(sourceId: string, retentionSec: number | null): void {
    this.db.prepare("UPDATE series_sources SET RetentionSec = ? WHERE Id = ?").run(retentionSec, sourceId);
  }

  renameVariable(key: number, name: string, unit: string): void {
    this.db.prepare("UPDATE series_vars SET Name = ?, Unit = ? WHERE Key = ?").run(name, unit, key);
  }

  putVariable(v: SeriesVariable, seq: number): void {
    this.db.prepare("INSERT INTO series_vars (Key, Id, SourceId, Name, Unit) VALUES (?, ?, ?, ?, ?)").run(v.Key, v.Id, v.SourceId, v.Name, v.Unit);
    // A variable added after a period change owns its Key from the current segment on.
    if (seq !== 0) this.putPart({ Key: v.Key, VarId: v.Id, Seq: seq });
  }

  putPart(p: PartRow): void {
    this.db.prepare("INSERT INTO series_parts (Key, VarId, Seq) VALUES (?, ?, ?)").run(p.Key, p.VarId, p.Seq);
  }

  putSegments(sourceId: string, list: readonly Segment[], periodUs: number): void {
    // Every segment is written (segment 0 too: series_sources.PeriodUs becomes the current one).
    const put = this.db.prepare("INSERT OR REPLACE INTO series_segments (SourceId, Seq, StartUs, PeriodUs) VALUES (?, ?, ?, ?)");
    for (const g of list) put.run(sourceId, g.Seq, g.StartUs, g.PeriodUs);
    this.db.prepare("UPDATE series_sources SET PeriodUs = ? WHERE Id = ?").run(periodUs, sourceId);
  }

  /** Runs fn in one transaction (a period change's registry rows together). */
  transaction(fn: () => void): void {
    this.db.exec("BEGIN");
    try {
      fn();
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw err;
    }
  }

  rowNow(id: bigint): Uint8Array | undefined {
    return (this.getRow.get(id) as { Data: Uint8Array } | undefined)?.Data;
  }

  async fetchRows(ids: readonly bigint[]): Promise<Map<bigint, Uint8Array>> {
    const out = new Map<bigint, Uint8Array>();
    for (const id of ids) {
      const data = this.rowNow(id);
      if (data) out.set(id, data);
    }
    return out;
  }

  edgeRow(lo: bigint, hi: bigint, last: boolean): StoredRow | undefined {
    const row = (last ? this.lastRow : this.firstRow).get(lo, hi) as { Id: bigint; Data: Uint8Array } | undefined;
    return row ? { id: row.Id, data: row.Data } : undefined;
  }

  write(rows: readonly WriteRow[]): void {
    this.transaction(() => {
      for (const r of rows) this.put.run(r.id, r.data);
    });
  }

  /** The variable keys that have rows, in order (an index seek per key). */
  rowKeys(): number[] {
    const next = this.db.prepare("SELECT Id FROM series_rows WHERE Id >= ? ORDER BY Id LIMIT 1");
    next.setReadBigInts(true);
    const keys: number[] = [];
    for (let from = 0n; ; ) {
      const row = next.get(from) as { Id: bigint } | undefined;
      if (!row) return keys;
      const key = row.Id >> 43n;
      keys.push(Number(key));
      from = (key + 1n) << 43n;
    }
  }

  deleteRange(lo: bigint, hi: bigint): number {
    return Number(this.delRange.run(lo, hi).changes);
  }

  dropBefore(): number {
    return 0;
  }

  loadPackedMarks(): PackedMark[] {
    return this.db.prepare("SELECT Key, Level, Upto FROM series_packed").all() as PackedMark[];
  }

  plainRows(lo: bigint, hi: bigint): StoredRow[] {
    return (this.plainIn.all(lo, hi) as Array<{ Id: bigint; Data: Uint8Array }>).map((r) => ({ id: r.Id, data: r.Data }));
  }

  repack(rows: readonly RepackRow[], marks: readonly PackedMark[]): number {
    let changed = 0;
    this.transaction(() => {
      for (const r of rows) changed += Number(this.repackRow.run(r.data, r.id, r.oldLength).changes);
      for (const m of marks) this.putMark.run(m.Key, m.Level, m.Upto);
    });
    return changed;
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

  async settled(): Promise<void> {}

  checkpoint(): void {
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  /**
   * Moves WAL checkpoints off the event loop (the logger's paced flush; issue 16): SQLite's
   * automatic checkpoint runs inside the commit that crosses 1000 pages — with 16 KB pages about
   * every flush — and copied ~16 MB while the event loop waited. A worker thread with its own
   * connection runs PASSIVE checkpoints (they never block the writer) every CHECKPOINT_MS instead;
   * if it cannot start or stops, the automatic checkpoint comes back.
   */
  offloadCheckpoints(): void {
    if (this.checkpointer) return;
    try {
      const w = new Worker(CHECKPOINTER, { eval: true, workerData: { path: this.path, everyMs: CHECKPOINT_MS } });
      w.unref();
      const restore = () => {
        if (this.checkpointer !== w) return;
        this.checkpointer = null;
        if (this.db.isOpen) this.db.exec("PRAGMA wal_autocheckpoint = 1000");
      };
      w.once("error", restore);
      w.once("exit", restore);
      this.checkpointer = w;
      this.db.exec("PRAGMA wal_autocheckpoint = 0");
    } catch {
      this.checkpointer = null;
    }
  }

  /**
   * Closed when this returns; resolves once the checkpoint worker closed its own connection too —
   * a logger started next on the same folder (a restart) found series.db locked while it was still
   * checkpointing ("database is locked" at its first statement).
   */
  close(): Promise<void> {
    const w = this.checkpointer;
    this.checkpointer = null;
    this.db.close();
    if (!w) return Promise.resolve();
    return new Promise<void>((done) => {
      const force = setTimeout(() => void w.terminate(), CHECKPOINTER_STOP_MS);
      w.once("exit", () => {
        clearTimeout(force);
        done();
      });
      w.postMessage("close");
    });
  }
}
