import { BLOCK_SAMPLES, CHUNK_BUCKETS, LEVELS } from "./blocks.ts";
import type { Chunk } from "./blocks.ts";
import { addBuckets, addSamples } from "./rollups.ts";
import type { Summary } from "./rollups.ts";
import type { VarSeries } from "./writer.ts";

export interface RowReader {
  block(vs: VarSeries, blk: number): Float32Array | null;
  chunk(vs: VarSeries, level: number, c: number): Chunk | null;
  /**
   * Whether a row was not at hand (PostgreSQL, before SeriesStore.read() fetched it): what the
   * function computes from this reader is thrown away, so it may skip what only the result needs.
   */
  missed(): boolean;
}

/**
 * Adds samples [a, b) of a variable to `out`: whole buckets of the coarsest level that fits,
 * the ragged ends from the levels below, raw samples only for the last < 64 at each end.
 * Touches O(64 × levels) buckets per end plus (b - a) / LEVELS[top] buckets in the middle.
 */
export function summarize(rows: RowReader, vs: VarSeries, a: number, b: number, top: number, out: Summary): void {
  if (vs.end < 0) return;
  if (b > vs.end) b = vs.end;
  if (a < 0) a = 0;
  if (a < b) addRange(rows, vs, top, a, b, out);
}

function addRange(rows: RowReader, vs: VarSeries, level: number, a: number, b: number, out: Summary): void {
  if (a >= b) return;
  if (level === 0) return addRaw(rows, vs, a, b, out);
  const L = LEVELS[level]!;
  const qa = Math.ceil(a / L);
  const qb = Math.min(Math.floor(b / L), vs.done(level));
  if (qa >= qb) return addRange(rows, vs, level - 1, a, b, out);
  addRange(rows, vs, level - 1, a, qa * L, out);
  for (let c = Math.floor(qa / CHUNK_BUCKETS), last = Math.floor((qb - 1) / CHUNK_BUCKETS); c <= last; c++) {
    const ch = rows.chunk(vs, level, c);
    if (!ch) continue;
    const base = c * CHUNK_BUCKETS;
    addBuckets(out, ch, Math.max(qa - base, 0), Math.min(qb - base, ch.length));
  }
  addRange(rows, vs, level - 1, qb * L, b, out);
}

function addRaw(rows: RowReader, vs: VarSeries, a: number, b: number, out: Summary): void {
  for (let blk = Math.floor(a / BLOCK_SAMPLES), last = Math.floor((b - 1) / BLOCK_SAMPLES); blk <= last; blk++) {
    const data = rows.block(vs, blk);
    if (!data) continue;
    const base = blk * BLOCK_SAMPLES;
    addSamples(out, data, Math.max(a - base, 0), Math.min(b - base, data.length));
  }
}
