// Background compaction: packs the plain rows a store holds from before issue 29 (and the few a
// writer leaves plain, such as the last block of a segment closed by a rate change). Never at
// start-up and never in one go: one window of rows at a time, with pauses, on the engine's write
// path (PostgreSQL: queued behind the flushes), so ingest and queries do not notice it.
//
// Safe against a crash at any moment: each window's packed rows and its progress mark are one
// transaction, and a row is replaced only while it still is the plain row that was read (same
// length; a row's samples only ever grow), so a crash leaves the old plain rows, never less.
//
// What needs looking at, per part (a variable's samples at one rate) and level: the rows from
// its mark (series_packed.Upto) up to where this run's writer started — rows the writer completes
// are packed as it goes. Once a part is done, its mark follows the writer (saved every
// MARK_EVERY_MS and at close), so the next start looks only at what is new to it.
import { BLOCK_SAMPLES, CHUNK_BUCKETS, PLAIN_FROM_LEVEL, TOP, isPacked, decodeBlock, decodeChunk, packBlock, packChunk, rowKey, rowRange } from "./blocks.ts";
import type { PackedMark, RepackRow, SeriesBackend, StoredRow } from "./backend.ts";
import type { RowCodec, VarSeries } from "./writer.ts";

/** Rows looked at per step: a raw window is up to 1 MB read and a few ms of packing. */
export const WINDOW = 64;
const MARK_EVERY_MS = 10 * 60_000;

export type CompactionHost = {
  readonly backend: SeriesBackend;
  readonly codec: RowCodec;
  /** Every part's write state, and whether appends still go to it (its source's current segment). */
  parts(): Array<{ vs: VarSeries; open: boolean }>;
  /** A newer version of the row waits to be written: the writer's, not ours. */
  queued(id: bigint): boolean;
  /** The lowest row index of a part and level that waits to be written (Infinity: none). */
  queuedFloor(key: number, level: number): number;
  /** End of the time a row covers, µs (the partition key on PostgreSQL). */
  tEndUs(id: bigint): number;
};

type Task = { vs: VarSeries; level: number; next: number; end: number | null };

const slot = (key: number, level: number) => `${key}:${level}`;

/** Index of the row a writer fills now at a level, and whether it is already complete. */
function current(vs: VarSeries, level: number): { index: number; full: boolean } {
  if (level === 0) return { index: vs.blockIdx, full: vs.rawLen === BLOCK_SAMPLES };
  return { index: vs.chunkIdx[level]!, full: vs.chunks[level]!.length === CHUNK_BUCKETS };
}

export class Compactor {
  private readonly host: CompactionHost;
  private marks = new Map<string, number>();
  /** Where each part's writer began at this start, per level (rows from there on are its own). */
  private readonly began = new Map<string, number>();
  private tasks: Task[] | null = null;
  private lastMarks = 0;
  /** Rows packed, and bytes saved, by this run (tests, the trace). */
  packed = 0;
  saved = 0;

  /** Call when the store has recovered every part's write state (before any append). */
  constructor(host: CompactionHost) {
    this.host = host;
    for (const { vs } of host.parts()) {
      for (let level = 0; level <= TOP; level++) {
        const c = current(vs, level);
        // A complete current row is never rewritten by the writer: it is ours to pack.
        this.began.set(slot(vs.key, level), c.index < 0 ? 0 : c.full ? c.index + 1 : c.index);
      }
    }
  }

  /** Whether there is nothing left to look at (after the first step). */
  get done(): boolean {
    return this.tasks !== null && this.tasks.length === 0;
  }

  /**
   * Looks at one window of rows and packs the plain ones; resolves to false when every part is
   * done. Synchronous on SQLite (one short transaction), one queued transaction on PostgreSQL.
   */
  async step(): Promise<boolean> {
    if (!this.host.codec.pack) return false;
    if (!this.tasks) {
      const marks = await this.host.backend.loadPackedMarks();
      this.marks = new Map(marks.map((m) => [slot(m.Key, m.Level), m.Upto]));
      this.tasks = this.plan();
    }
    const task = this.tasks[0];
    if (!task) return false;
    if (task.end === null) task.end = (await this.lastIndex(task)) + 1;
    if (task.next < task.end) {
      // On to the next stored row: indices are sample times, with long stretches of none.
      const row = await this.host.backend.edgeRow(rowKey(task.vs.key, task.level, task.next), rowKey(task.vs.key, task.level, task.end - 1), false);
      task.next = row ? Number(row.id & 0xffffffffffn) : task.end;
    }
    if (task.next >= task.end) {
      this.tasks.shift();
      await this.host.backend.repack([], [{ Key: task.vs.key, Level: task.level, Upto: task.end }]);
      this.marks.set(slot(task.vs.key, task.level), task.end);
      return this.tasks.length > 0;
    }
    const to = Math.min(task.end, task.next + WINDOW);
    const rows = await this.host.backend.plainRows(rowKey(task.vs.key, task.level, task.next), rowKey(task.vs.key, task.level, to - 1));
    const repacked: RepackRow[] = [];
    for (const row of rows) {
      if (this.host.queued(row.id)) continue;
      const data = packRow(row, task.level);
      if (data) repacked.push({ id: row.id, data, oldLength: row.data.byteLength, level: task.level, tEndUs: this.host.tEndUs(row.id) });
    }
    task.next = to;
    const changed = await this.host.backend.repack(repacked, [{ Key: task.vs.key, Level: task.level, Upto: to }]);
    this.marks.set(slot(task.vs.key, task.level), to);
    this.packed += changed;
    for (const r of repacked) this.saved += r.oldLength - r.data.byteLength;
    return true;
  }

  /**
   * Saves the marks of followingMarks() (every MARK_EVERY_MS while idle; the store saves them at
   * close), so the next start does not look again at rows this run's writers packed.
   */
  async saveMarks(): Promise<void> {
    const now = Date.now();
    if (now - this.lastMarks < MARK_EVERY_MS) return;
    this.lastMarks = now;
    const marks = this.followingMarks();
    if (marks.length) await this.host.backend.repack([], marks);
  }

  /**
   * Marks that follow the writers, once the look-back is done: every row below the one a writer
   * fills (and below any still waiting to be written) was packed when it was completed.
   */
  followingMarks(): PackedMark[] {
    if (!this.done || !this.host.codec.pack) return [];
    const marks: PackedMark[] = [];
    for (const { vs } of this.host.parts()) {
      for (let level = 0; level <= TOP; level++) {
        const c = current(vs, level);
        if (c.index < 0) continue;
        const upto = Math.min(c.full ? c.index + 1 : c.index, this.host.queuedFloor(vs.key, level));
        if (upto > (this.marks.get(slot(vs.key, level)) ?? 0)) {
          marks.push({ Key: vs.key, Level: level, Upto: upto });
          this.marks.set(slot(vs.key, level), upto);
        }
      }
    }
    return marks;
  }

  // Parts and levels with rows to look at: open parts up to where their writer began, closed
  // parts (earlier rates) to their last row.
  private plan(): Task[] {
    const tasks: Task[] = [];
    for (const { vs, open } of this.host.parts()) {
      for (let level = 0; level <= TOP; level++) {
        const from = this.marks.get(slot(vs.key, level)) ?? 0;
        const began = this.began.get(slot(vs.key, level));
        // A part defined during this run holds only what this run's writer wrote.
        if (began === undefined) continue;
        const end = open ? began : null;
        if (end !== null && from >= end) continue;
        tasks.push({ vs, level, next: from, end });
      }
    }
    return tasks;
  }

  private async lastIndex(task: Task): Promise<number> {
    const [lo, hi] = rowRange(task.vs.key, task.level);
    const row: StoredRow | undefined = await this.host.backend.edgeRow(lo, hi, true);
    return row ? Number(row.id & 0xffffffffffn) : -1;
  }
}

/** The packed form of a plain row, or null when packing would not make it smaller. */
function packRow(row: StoredRow, level: number): Uint8Array | null {
  if (isPacked(row.data) || level >= PLAIN_FROM_LEVEL) return null;
  const data = level === 0 ? packBlock(decodeBlock(row.data), row.data.byteLength >> 2) : packChunk(decodeChunk(row.data));
  return isPacked(data) ? data : null;
}
