import { randomUUID } from "node:crypto";
import { Worker } from "node:worker_threads";
import { holdSmallCache, releaseSmallCache } from "./import.ts";
import { SLABS, inputHeader, slabSize, slabViews } from "./import-protocol.ts";
import type { PackerReply, PackerRequest } from "./import-protocol.ts";
import type { SeriesStore, SeriesVariable } from "./store.ts";

/** Batches of rows the packer may hold (its input slots): the reader waits beyond, so memory stays flat. */
const IN_SLOTS = 3;
/** The packer thread's young generation (MB). */
const PACKER_YOUNG_MB = 8;
/** The packer thread ends this long after its last import. */
const IDLE_MS = 30_000;

/**
 * A UDBF import into a source that holds nothing yet, written while its parts arrive (issue 27:
 * the close only registers what is there). The import packer's thread (import-packer.ts) builds
 * each variable's blocks and rollup chunks as the store's own append would, packed, off the event
 * loop; this thread writes them under keys reserved for the import (SeriesStore.reserveKeys),
 * which no reader knows until the close adopts them. A failed or abandoned import deletes its
 * rows, so a bad file still leaves nothing behind. Memory stays flat: the packer holds at most
 * IN_SLOTS batches (the reader waits beyond, but for the few one push decodes), and its rows come
 * back in SLABS slabs of 1 MB; both are memory shared with it, set up once per import.
 * SQLite only (its writes are synchronous); on PostgreSQL an import is spooled.
 */
export class StreamedImport {
  readonly periodUs: number;
  rows = 0;
  private readonly store: SeriesStore;
  private readonly keys: number[];
  private readonly width: number;
  private readonly pack: boolean;
  private id = 0;
  /** Set up at the first batch, when its size is known. */
  private shared: Shared | null = null;
  /** Batches waiting for an input slot (copies: the reader reuses its arrays). */
  private queue: Array<{ bytes: Uint8Array; n: number }> = [];
  private waiters: Array<() => void> = [];
  private failure: Error | null = null;
  private ended: { done: () => void; fail: (err: Error) => void } | null = null;
  private state: "writing" | "ended" | "adopted" | "discarded" = "writing";

  constructor(store: SeriesStore, width: number, periodUs: number) {
    if (store.engine !== "sqlite") throw new Error("A streamed import needs the embedded store");
    this.store = store;
    this.width = width;
    this.periodUs = periodUs;
    this.pack = store.codec.pack;
    this.keys = store.reserveKeys(width);
    holdSmallCache(store);
  }

  /**
   * n rows at increasing sample indices, column c's values in columns[c] (each array holds room
   * for `slots.length` rows: the largest batch): copied to a free slot of the packer's input, or
   * queued until one is free (one push of the reader may decode several batches; ready() says
   * when to push again).
   */
  add(slots: Float64Array, columns: readonly Float32Array[], n: number): void {
    if (this.failure) throw this.failure;
    if (n === 0) return;
    const sh = this.shared ?? this.setUp(Math.max(n, slots.length));
    const bytes = n * 8 + n * 4 * this.width;
    const slot = this.queue.length === 0 ? sh.inFull.indexOf(0) : -1;
    const into = slot >= 0 ? new Uint8Array(sh.input, inputHeader(IN_SLOTS) + slot * sh.slotBytes, bytes) : new Uint8Array(bytes);
    new Float64Array(into.buffer, into.byteOffset, n).set(slots.subarray(0, n));
    for (let c = 0; c < this.width; c++) new Float32Array(into.buffer, into.byteOffset + n * 8 + c * n * 4, n).set(columns[c]!.subarray(0, n));
    if (slot >= 0) this.hand(slot, n);
    else this.queue.push({ bytes: into, n });
    this.rows += n;
  }

  private hand(slot: number, n: number): void {
    Atomics.store(this.shared!.inFull, slot, 1);
    packer.post({ op: "rows", id: this.id, slot, n });
  }

  /** Queued batches into the slots the packer has freed. */
  private unqueue(): void {
    const sh = this.shared!;
    for (let slot = sh.inFull.indexOf(0); slot >= 0 && this.queue.length > 0; slot = sh.inFull.indexOf(0)) {
      const { bytes, n } = this.queue.shift()!;
      new Uint8Array(sh.input, inputHeader(IN_SLOTS) + slot * sh.slotBytes, bytes.length).set(bytes);
      this.hand(slot, n);
    }
  }

  private setUp(capacity: number): Shared {
    // A multiple of 8: each slot starts with Float64s.
    const slotBytes = Math.ceil((capacity * (8 + 4 * this.width)) / 8) * 8;
    const sh = packer.spare(slotBytes) ?? sharedOf(slotBytes);
    this.shared = sh;
    this.id = packer.open(this, { keys: this.keys, periodUs: this.periodUs, pack: this.pack, input: sh.input, inSlots: IN_SLOTS, slotBytes: sh.slotBytes, slabs: sh.sabs, slabFull: sh.slabFull.buffer as SharedArrayBuffer });
    return sh;
  }

  /** null while the packer has a free input slot and nothing waits for one; else resolves when so (or it failed: add throws then). */
  ready(): Promise<void> | null {
    if (!this.shared || this.failure || this.state !== "writing" || (this.queue.length === 0 && this.shared.inFull.includes(0))) return null;
    return new Promise((done) => this.waiters.push(done));
  }

  /** Resolves when every row, the partial blocks and chunks too, is written. */
  finish(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.state !== "writing") throw new Error(`A ${this.state} import cannot finish`);
    if (!this.shared) {
      this.state = "ended";
      return Promise.resolve();
    }
    return new Promise<void>((done, fail) => {
      this.ended = { done, fail };
      // After the queued batches (reply posts it when the queue has drained).
      if (this.queue.length === 0) packer.post({ op: "end", id: this.id });
    });
  }

  /** The variables, in column order, on a source the store holds no sample of (after finish). */
  adopt(sourceId: string, columns: ReadonlyArray<{ Name: string; Unit: string }>): SeriesVariable[] {
    if (this.state !== "ended") throw new Error(`A ${this.state} import cannot be adopted`);
    this.state = "adopted";
    releaseSmallCache(this.store);
    return columns.map((c, i) => this.store.adoptVariable({ Id: randomUUID(), SourceId: sourceId, Name: c.Name, Unit: c.Unit }, this.keys[i]!));
  }

  /** Deletes what was written (a failed, cancelled or expired import); nothing once adopted. */
  discard(): void {
    if (this.state === "adopted" || this.state === "discarded") return;
    const packing = this.state === "writing" && this.shared !== null;
    this.state = "discarded";
    this.queue = [];
    releaseSmallCache(this.store);
    if (packing) {
      // The packer answers the drop with "ended"; until then every slab it hands over is freed
      // unwritten, so it never waits for one. (Not after "ended": the memory may be another's.)
      packer.post({ op: "drop", id: this.id });
      for (let k = 0; k < SLABS; k++) this.free(k);
    }
    this.wake();
    if (!this.store.isClosed) void this.store.dropKeys(this.keys);
  }

  /** A message of the packer about this import. */
  reply(m: PackerReply): void {
    if (m.op === "took") {
      if (this.state !== "writing") return;
      const queued = this.queue.length > 0;
      this.unqueue();
      if (this.queue.length === 0) {
        this.wake();
        if (queued && this.ended) packer.post({ op: "end", id: this.id });
      }
    } else if (m.op === "rows") {
      if (this.state !== "discarded" && !this.failure) {
        try {
          const { bytes, ids, ends } = this.shared!.slabs[m.slab]!;
          const rows: Array<readonly [bigint, Uint8Array]> = [];
          for (let i = 0, from = 0; i < m.count; from = ends[i++]!) rows.push([ids[i]!, bytes.subarray(from, ends[i]!)]);
          void this.store.writeReserved(rows, this.periodUs);
        } catch (err) {
          this.fail(err as Error);
        }
      }
      this.free(m.slab);
    } else if (m.op === "ended") {
      packer.close(this.id);
      if (this.state !== "writing") return;
      this.state = "ended";
      // Every slab is written and every input slot taken: the next import may use them.
      packer.keep(this.shared!);
      if (this.failure) this.ended?.fail(this.failure);
      else this.ended?.done();
    } else {
      packer.close(this.id);
      this.fail(new Error(`The import packer failed: ${m.message}`));
    }
  }

  fail(err: Error): void {
    this.failure ??= err;
    this.wake();
    this.ended?.fail(this.failure);
  }

  private free(slab: number): void {
    const full = this.shared!.slabFull;
    Atomics.store(full, slab, 0);
    Atomics.notify(full, slab);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** An import's memory shared with the packer: IN_SLOTS input slots, SLABS slabs, their flags. */
type Shared = { input: SharedArrayBuffer; inFull: Int32Array; slotBytes: number; sabs: SharedArrayBuffer[]; slabs: ReturnType<typeof slabViews>[]; slabFull: Int32Array };

function sharedOf(slotBytes: number): Shared {
  const input = new SharedArrayBuffer(inputHeader(IN_SLOTS) + IN_SLOTS * slotBytes);
  const sabs = Array.from({ length: SLABS }, () => new SharedArrayBuffer(slabSize()));
  return { input, inFull: new Int32Array(input, 0, IN_SLOTS), slotBytes, sabs, slabs: sabs.map(slabViews), slabFull: new Int32Array(new SharedArrayBuffer(4 * SLABS)) };
}

/** The packer thread: started by the first streamed import, ended IDLE_MS after the last. */
class Packer {
  private worker: Worker | null = null;
  private readonly imports = new Map<number, StreamedImport>();
  private next = 1;
  private idle: NodeJS.Timeout | null = null;
  /** The memory of the last import that ended, for the next (a discarded one's may still be in use). */
  private kept: Shared | null = null;

  keep(sh: Shared): void {
    this.kept = sh;
  }

  /** Kept memory with slots of at least slotBytes, if any. */
  spare(slotBytes: number): Shared | null {
    const sh = this.kept;
    if (!sh || sh.slotBytes < slotBytes) return null;
    this.kept = null;
    return sh;
  }

  open(im: StreamedImport, o: Omit<Extract<PackerRequest, { op: "open" }>, "op" | "id">): number {
    const id = this.next++;
    this.imports.set(id, im);
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.post({ op: "open", id, ...o });
    return id;
  }

  post(m: PackerRequest): void {
    this.started().postMessage(m);
  }

  /** The import needs no more replies. */
  close(id: number): void {
    this.imports.delete(id);
    if (this.imports.size > 0 || !this.worker || this.idle) return;
    // (open() clears the timer: no import is open when it fires.)
    this.idle = setTimeout(() => {
      this.idle = null;
      void this.worker?.terminate();
      this.worker = null;
      this.kept = null;
    }, IDLE_MS);
    this.idle.unref();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // A small young generation: the packer's garbage (a finished chunk's arrays, views) is
    // collected every few MB instead of piling up outside its heap: with V8's default its
    // allocator arena grew to ~30 MB over a 500 MB import, to ~10 MB with 3 MB (bench/udbf.ts).
    const w = new Worker(new URL("./import-packer.ts", import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: PACKER_YOUNG_MB } });
    // An idle packer must not keep a stopping logger alive.
    w.unref();
    w.on("message", (m: PackerReply) => this.imports.get(m.id)?.reply(m));
    const lost = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      for (const im of this.imports.values()) im.fail(err);
    };
    w.on("error", (err) => lost(err));
    w.on("exit", (code) => lost(new Error(`The import packer stopped (exit code ${code})`)));
    this.worker = w;
    return w;
  }
}

const packer = new Packer();
