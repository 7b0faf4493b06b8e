import { BLOCK_SAMPLES, CHUNK_BUCKETS, FANOUT, LEVELS, TOP, emptyChunk, encodeBlock, encodeChunk, packBlock, resetChunk, rowKey, storedChunk } from "./blocks.ts";
import type { Chunk } from "./blocks.ts";
import { addSamples, addSummary, emptySummary, putBucket, resetSummary } from "./rollups.ts";
import type { Summary } from "./rollups.ts";

export type RowSink = (key: bigint, bytes: Uint8Array) => void;

/**
 * How complete rows are stored, shared by every variable of a store: packed (docs/storage.md;
 * the default) or plain (SERIES_CODEC=plain, and the benchmark's reference). The row still
 * being filled is always written plain: it is rewritten at every flush until it is complete.
 */
export type RowCodec = {
  pack: boolean;
  /** Complete blocks reach the sink as views of the packer's scratch, valid only during the call (the import packer copies them). */
  transient?: boolean;
};

// The write side of one variable: the block and rollup chunks being filled, and the
// unfinished bucket of every level. Invariant: pending[j] is bucket floor(end / LEVELS[j]),
// so every bucket below it is final and may be read from its chunk.
export class VarSeries {
  readonly key: number;
  readonly periodUs: number;
  end = -1;
  first = -1;
  /** First sample index this series accepts (its segment's start); earlier samples are dropped. */
  floor = 0;
  blockIdx = -1;
  raw = new Float32Array(BLOCK_SAMPLES).fill(Number.NaN);
  rawLen = 0;
  rawDirty = false;
  chunkIdx: number[] = new Array(TOP + 1).fill(-1);
  chunks: Chunk[] = [];
  chunkDirty: boolean[] = new Array(TOP + 1).fill(false);
  pending: Summary[] = [];
  pendingIdx: number[] = new Array(TOP + 1).fill(0);
  private readonly sink: RowSink;
  private readonly codec: RowCodec;

  constructor(key: number, periodUs: number, sink: RowSink, codec: RowCodec = { pack: false }) {
    this.key = key;
    this.periodUs = periodUs;
    this.sink = sink;
    this.codec = codec;
    for (let j = 0; j <= TOP; j++) {
      this.chunks.push(emptyChunk());
      this.pending.push(emptySummary());
    }
  }

  /** Index of the first bucket of level j that is not final yet. */
  done(level: number): number {
    return this.end < 0 ? 0 : Math.floor(this.end / LEVELS[level]!);
  }

  begin(start: number): void {
    this.end = start;
    if (this.first < 0) this.first = start;
    for (let j = 1; j <= TOP; j++) this.pendingIdx[j] = Math.floor(start / LEVELS[j]!);
  }

  // Samples before `end` are dropped: the store only grows forward.
  append(start: number, values: Float32Array): void {
    if (start < this.floor) {
      if (this.floor - start >= values.length) return;
      values = values.subarray(this.floor - start);
      start = this.floor;
    }
    let off = 0;
    const n = values.length;
    if (this.end < 0) this.begin(start);
    if (start < this.end) {
      off = this.end - start;
      if (off >= n) return;
      start = this.end;
    } else if (start > this.end) {
      this.jump(start);
    }

    for (let g = start, i = off; i < n; ) {
      const blk = Math.floor(g / BLOCK_SAMPLES);
      if (blk !== this.blockIdx) this.nextBlock(blk);
      const pos = g - blk * BLOCK_SAMPLES;
      const take = Math.min(n - i, BLOCK_SAMPLES - pos);
      this.raw.set(values.subarray(i, i + take), pos);
      this.rawLen = pos + take;
      this.rawDirty = true;
      i += take;
      g += take;
    }

    const p = this.pending[1]!;
    for (let g = start, i = off; i < n; ) {
      const pos = g % FANOUT;
      const take = Math.min(n - i, FANOUT - pos);
      addSamples(p, values, i, i + take);
      i += take;
      g += take;
      if (pos + take === FANOUT) this.close(1);
    }
    this.end = start + (n - off);
  }

  // A gap: every unfinished bucket the gap leaves behind becomes final with what it has.
  private jump(g: number): void {
    for (let j = 1; j <= TOP; j++) {
      const target = Math.floor(g / LEVELS[j]!);
      if (this.pendingIdx[j]! < target) {
        if (this.pending[j]!.count > 0) this.emit(j);
        resetSummary(this.pending[j]!);
        this.pendingIdx[j] = target;
      }
    }
    this.end = g;
  }

  // Bucket pendingIdx[level] is complete: store it, fold it into the level above.
  private close(level: number): void {
    const idx = this.pendingIdx[level]!;
    this.emit(level);
    resetSummary(this.pending[level]!);
    this.pendingIdx[level] = idx + 1;
    if (level < TOP && (idx + 1) % FANOUT === 0) this.close(level + 1);
  }

  private emit(level: number): void {
    const idx = this.pendingIdx[level]!;
    const s = this.pending[level]!;
    const c = Math.floor(idx / CHUNK_BUCKETS);
    if (c !== this.chunkIdx[level]) this.nextChunk(level, c);
    putBucket(this.chunks[level]!, idx - c * CHUNK_BUCKETS, s);
    this.chunkDirty[level] = true;
    if (level < TOP) addSummary(this.pending[level + 1]!, s);
  }

  private nextBlock(blk: number): void {
    if (this.blockIdx >= 0 && this.rawDirty) {
      // Complete: no sample of it comes any more (the store only grows forward).
      this.sink(rowKey(this.key, 0, this.blockIdx), this.codec.pack ? packBlock(this.raw, this.rawLen, this.codec.transient) : encodeBlock(this.raw, this.rawLen));
    }
    this.blockIdx = blk;
    // Reused, not replaced: encodeBlock copied it, and two 16 KB arrays per block were an
    // import's main garbage. Readers use a block they get synchronously (no await in between).
    this.raw.fill(Number.NaN);
    this.rawLen = 0;
    this.rawDirty = false;
  }

  private nextChunk(level: number, c: number): void {
    if (this.chunkIdx[level]! >= 0 && this.chunkDirty[level]) {
      const chunk = this.chunks[level]!;
      this.sink(rowKey(this.key, level, this.chunkIdx[level]!), this.codec.pack ? storedChunk(chunk, level, this.codec.transient) : encodeChunk(chunk));
    }
    this.chunkIdx[level] = c;
    // A transient sink has copied the chunk's row: its arrays are refilled rather than replaced.
    // (A new 16 KB buffer per chunk left tens of MB of dead buffers in the import packer between
    // its collections.) The store's own writers keep a fresh one: readers may hold the last.
    if (this.codec.transient) resetChunk(this.chunks[level]!);
    else this.chunks[level] = emptyChunk();
    this.chunkDirty[level] = false;
  }

  /** Hands the partly filled block and chunks to the sink (they stay current). */
  flushPartial(): void {
    if (this.rawDirty) {
      this.sink(rowKey(this.key, 0, this.blockIdx), encodeBlock(this.raw, this.rawLen));
      this.rawDirty = false;
    }
    for (let j = 1; j <= TOP; j++) {
      if (this.chunkDirty[j]) {
        this.sink(rowKey(this.key, j, this.chunkIdx[j]!), encodeChunk(this.chunks[j]!));
        this.chunkDirty[j] = false;
      }
    }
  }
}
