import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync, writevSync } from "node:fs";
import { join } from "node:path";
import { forEachRun } from "./runs.ts";
import type { SeriesStore } from "./store.ts";

// An import's rows wait on disk until the session closes (docs/logger-api.md, "CSV import"):
// nothing reaches the series store before the whole file has been read and placed on the
// sample grid, so a bad file leaves nothing behind, and memory stays flat however big the file.
// Two files per session: `.t` holds (time µs, line) per row as float64 pairs, `.v` the row's
// values as float32 — already parsed, so closing never reads the CSV text again. A UDBF import
// spools by columns instead (addColumns): per batch of rows, `.t` their sample indices, `.v` each
// variable's values one after the other, so that closing appends each column as it is read.

/** Values per write to the spool files (1 MB). */
const SPOOL_VALUES = 256 * 1024;
/** Values per batch read back from the spool when writing to the store (256 KB). */
const WRITE_VALUES = 64 * 1024;
/** Values between flushes of the store. */
const FLUSH_VALUES = 1024 * 1024;
/**
 * SQLite's page cache of series.db while an import writes (KiB). The pages an import writes are
 * read by nobody soon; in the store's full cache (32 MB) they would only push out the pages that
 * queries use and grow the logger by as much.
 */
const IMPORT_CACHE_KIB = 2048;

export class ImportSpool {
  readonly timesPath: string;
  readonly valuesPath: string;
  /** Values per row; 0 until the first row. */
  width = 0;
  rows = 0;
  private tfd = -1;
  private vfd = -1;
  private times = new Float64Array(0);
  private values = new Float32Array(0);
  private cap = 0;
  private n = 0;
  /** Columnar spool (addColumns): rows of each batch, in order. */
  readonly batches: number[] = [];

  constructor(dir: string, id: string) {
    mkdirSync(dir, { recursive: true });
    this.timesPath = join(dir, `${id}.t`);
    this.valuesPath = join(dir, `${id}.v`);
  }

  add(us: number, line: number, values: Float32Array): void {
    if (this.tfd < 0) {
      this.width = values.length;
      this.cap = Math.max(64, Math.floor(SPOOL_VALUES / this.width));
      this.times = new Float64Array(this.cap * 2);
      this.values = new Float32Array(this.cap * this.width);
      this.tfd = openSync(this.timesPath, "wx+", 0o600);
      this.vfd = openSync(this.valuesPath, "wx+", 0o600);
    }
    this.times[this.n * 2] = us;
    this.times[this.n * 2 + 1] = line;
    this.values.set(values, this.n * this.width);
    this.rows++;
    if (++this.n === this.cap) this.flush();
  }

  /**
   * A batch of n rows already placed on the grid: their sample indices (increasing) and each
   * variable's values. Written at once, in one write per file (the batch is the buffer).
   */
  addColumns(slots: Float64Array, columns: readonly Float32Array[], n: number): void {
    if (n === 0) return;
    if (this.tfd < 0) {
      this.width = columns.length;
      this.tfd = openSync(this.timesPath, "wx+", 0o600);
      this.vfd = openSync(this.valuesPath, "wx+", 0o600);
    }
    writeAll(this.tfd, new Uint8Array(slots.buffer, slots.byteOffset, n * 8));
    // The columns one after the other in one gathered write, straight from the batch's arrays.
    const parts = columns.map((c) => new Uint8Array(c.buffer, c.byteOffset, n * 4));
    let written = writevSync(this.vfd, parts);
    // (A short write, rare on a file: the rest piece by piece.)
    for (const p of parts) {
      if (written >= p.length) written -= p.length;
      else {
        writeAll(this.vfd, p.subarray(written));
        written = 0;
      }
    }
    this.batches.push(n);
    this.rows += n;
  }

  /** Writes what is buffered; called before the files are read back. */
  flush(): void {
    if (this.n === 0) return;
    writeAll(this.tfd, new Uint8Array(this.times.buffer, 0, this.n * 16));
    writeAll(this.vfd, new Uint8Array(this.values.buffer, 0, this.n * this.width * 4));
    this.n = 0;
  }

  /** Closes and deletes both files (also after a failure; never throws). */
  remove(): void {
    for (const fd of [this.tfd, this.vfd]) {
      try {
        if (fd >= 0) closeSync(fd);
      } catch {
        // Already closed.
      }
    }
    this.tfd = this.vfd = -1;
    rmSync(this.timesPath, { force: true });
    rmSync(this.valuesPath, { force: true });
  }

  tfdOf(): number {
    return this.tfd;
  }
  vfdOf(): number {
    return this.vfd;
  }

  /** Reads rows [from, from + count) back: times as (µs, line) pairs, values row by row. */
  read(from: number, count: number, times: Float64Array, values: Float32Array | null): void {
    readAll(this.tfd, new Uint8Array(times.buffer, 0, count * 16), from * 16);
    if (values) readAll(this.vfd, new Uint8Array(values.buffer, 0, count * this.width * 4), from * this.width * 4);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
}

function readAll(fd: number, into: Uint8Array, position: number): void {
  for (let off = 0; off < into.length; ) {
    const n = readSync(fd, into, off, into.length - off, position + off);
    if (n === 0) throw new Error("Import spool file is shorter than expected");
    off += n;
  }
}

/** Where the rows go: row i at sample g0 + round((t_i − t_0) / periodUs) of the source. */
export type Placement = {
  periodUs: number;
  g0: number;
  /** Slot of the last row. */
  lastSlot: number;
  /** Stored time of the first row minus its time in the file (|shift| ≤ periodUs / 2). */
  shiftUs: number;
};

/** A row that does not fit the grid: the session answers 400 with this text. */
export class PlacementError extends Error {}

const yieldToEvents = () => new Promise<void>((done) => setImmediate(done));

const duration = (us: number) => (us % 1000 === 0 ? (us % 1e6 === 0 ? `${us / 1e6} s` : `${us / 1000} ms`) : `${us} µs`);

/**
 * Places every row on the grid of `periodUs` anchored at the first row (rounded to the nearest
 * sample time of the source): each row may be off its slot by 1 % of the period (at least
 * 1 µs), gaps must be whole periods, no two rows may share a slot, and the first row must not
 * lie before `storedEndUs` (the store only grows forward). Throws PlacementError naming the line.
 */
export async function placeRows(spool: ImportSpool, periodUs: number, storedEndUs: number): Promise<Placement> {
  spool.flush();
  const tolerance = Math.max(1, Math.floor(periodUs / 100));
  const batch = 64 * 1024;
  const times = new Float64Array(batch * 2);
  let t0 = 0;
  let g0 = 0;
  let prev = -1;
  for (let from = 0; from < spool.rows; from += batch) {
    const count = Math.min(batch, spool.rows - from);
    spool.read(from, count, times, null);
    if (from === 0) {
      t0 = times[0]!;
      g0 = Math.round(t0 / periodUs);
      if (g0 * periodUs < storedEndUs) {
        throw new PlacementError(`Line ${times[1]}: the rows start at ${iso(t0)}, before the end of what the source already holds (${iso(storedEndUs)}); an import can only add after it`);
      }
    }
    for (let r = 0; r < count; r++) {
      const rel = times[r * 2]! - t0;
      const q = Math.round(rel / periodUs);
      const off = rel - q * periodUs;
      if (Math.abs(off) > tolerance) {
        throw new PlacementError(
          `Line ${times[r * 2 + 1]}, column 1: ${iso(times[r * 2]!)} is ${duration(Math.abs(off))} off the ${duration(periodUs)} grid the rows keep from the first data row on; rows must be equidistant (gaps of whole periods are fine)`,
        );
      }
      if (q <= prev) {
        throw new PlacementError(`Line ${times[r * 2 + 1]}, column 1: ${iso(times[r * 2]!)} falls into the same ${duration(periodUs)} sample period as the row before it`);
      }
      prev = q;
    }
    await yieldToEvents();
  }
  return { periodUs, g0, lastSlot: g0 + prev, shiftUs: g0 * periodUs - t0 };
}

/**
 * Appends the spooled rows to the store: column `c` of the file to variable `varIds[c]`, each
 * row at its slot, contiguous runs of rows as one append. Flushes every ~1 M values and lets
 * other requests run in between, so memory stays flat and the logger keeps answering; the page
 * cache is held small meanwhile (IMPORT_CACHE_KIB) and given back its size afterwards.
 */
export async function writeRows(store: SeriesStore, spool: ImportSpool, placement: Placement, varIds: readonly string[], onProgress: (rows: number) => void = () => {}): Promise<void> {
  const width = spool.width;
  if (varIds.length !== width) throw new Error(`${varIds.length} variables for ${width} columns`);
  // Imports into different sources may write at the same time: the first one shrinks the cache,
  // the last one gives it back its size.
  const write = spool.batches.length ? writeColumns : writeBatches;
  holdSmallCache(store);
  try {
    await write(store, spool, placement, varIds, onProgress);
  } finally {
    releaseSmallCache(store);
  }
}

const smallCache = new WeakMap<SeriesStore, { writers: number; size: number }>();

/** Holds SQLite's page cache small while an import writes (PostgreSQL has none of ours to hold). */
export function holdSmallCache(store: SeriesStore): void {
  if (store.engine !== "sqlite") return;
  let held = smallCache.get(store);
  if (!held) {
    const size = (store.db.prepare("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
    smallCache.set(store, (held = { writers: 0, size }));
    store.db.exec(`PRAGMA cache_size = -${IMPORT_CACHE_KIB}`);
  }
  held.writers++;
}

/** The last import that writes gives the cache its size back. */
export function releaseSmallCache(store: SeriesStore): void {
  const held = smallCache.get(store);
  if (!held || --held.writers > 0) return;
  smallCache.delete(store);
  if (!store.isClosed) store.db.exec(`PRAGMA cache_size = ${held.size}`);
}

async function writeBatches(store: SeriesStore, spool: ImportSpool, placement: Placement, varIds: readonly string[], onProgress: (rows: number) => void): Promise<void> {
  const width = spool.width;
  const batch = Math.max(64, Math.floor(WRITE_VALUES / width));
  const times = new Float64Array(batch * 2);
  const values = new Float32Array(batch * width);
  const columns = Array.from({ length: width }, () => new Float32Array(batch));
  const slots = new Float64Array(batch);
  const { periodUs, g0 } = placement;
  let t0 = 0;
  let unflushed = 0;
  for (let from = 0; from < spool.rows; from += batch) {
    const count = Math.min(batch, spool.rows - from);
    spool.read(from, count, times, values);
    if (from === 0) t0 = times[0]!;
    for (let r = 0; r < count; r++) slots[r] = g0 + Math.round((times[r * 2]! - t0) / periodUs);
    for (let c = 0; c < width; c++) {
      const col = columns[c]!;
      for (let r = 0, k = c; r < count; r++, k += width) col[r] = values[k]!;
    }
    forEachRun(slots, count, (a, b) => {
      for (let c = 0; c < width; c++) store.append(varIds[c]!, slots[a]!, columns[c]!.subarray(a, b));
    });
    unflushed += count * width;
    if (unflushed >= FLUSH_VALUES || from + count >= spool.rows) {
      // On PostgreSQL this waits for the write: memory stays flat however big the file.
      await store.flush();
      unflushed = 0;
      onProgress(from + count);
      await yieldToEvents();
    }
  }
}

/**
 * Appends a columnar spool (addColumns): batch by batch, each run of consecutive samples of each
 * column as one append, straight from the bytes read (no transposing, no time arithmetic).
 */
async function writeColumns(store: SeriesStore, spool: ImportSpool, _placement: Placement, varIds: readonly string[], onProgress: (rows: number) => void): Promise<void> {
  const width = spool.width;
  const most = Math.max(...spool.batches);
  const slots = new Float64Array(most);
  const values = new Float32Array(most * width);
  let unflushed = 0;
  let done = 0;
  let tAt = 0;
  let vAt = 0;
  for (const n of spool.batches) {
    readAll(spool.tfdOf(), new Uint8Array(slots.buffer, 0, n * 8), tAt);
    readAll(spool.vfdOf(), new Uint8Array(values.buffer, 0, n * width * 4), vAt);
    tAt += n * 8;
    vAt += n * width * 4;
    forEachRun(slots, n, (a, b) => {
      for (let c = 0; c < width; c++) store.append(varIds[c]!, slots[a]!, values.subarray(c * n + a, c * n + b));
    });
    done += n;
    unflushed += n * width;
    if (unflushed >= FLUSH_VALUES || done === spool.rows) {
      // On PostgreSQL this waits for the write: memory stays flat however big the file.
      await store.flush();
      unflushed = 0;
      onProgress(done);
      await yieldToEvents();
    }
  }
}

function iso(us: number): string {
  const ms = Math.floor(us / 1000);
  const rest = us - ms * 1000;
  const text = new Date(ms).toISOString();
  return rest ? `${text.slice(0, -1)}${String(rest).padStart(3, "0")}Z` : text;
}
