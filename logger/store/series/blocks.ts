// Layout of one stored row: raw samples or rollup buckets of one variable, addressed by a
// computed rowid so that one B-tree lookup finds it and a variable's rows are contiguous.

// 16 KiB pages hold exactly one full row each (no overflow pages, no half-empty leaves):
// 4080 float32 samples = 16320 bytes, 816 rollup buckets × 20 bytes = 16320 bytes.
export const PAGE_SIZE = 16384;
export const BLOCK_SAMPLES = 4080;
export const CHUNK_BUCKETS = 816;

// Samples per bucket at rollup level 1, 2, 3 (level 0 is raw). Each level is 64 of the one below.
export const LEVELS = [1, 64, 4096, 262144] as const;
export const TOP = LEVELS.length - 1;
export const FANOUT = 64;

const IDX_BITS = 40n;
const LEVEL_SLOTS = 8n;

export function rowKey(varKey: number, level: number, index: number): bigint {
  return ((BigInt(varKey) * LEVEL_SLOTS + BigInt(level)) << IDX_BITS) | BigInt(index);
}

export function rowRange(varKey: number, level: number): [bigint, bigint] {
  const lo = rowKey(varKey, level, 0);
  return [lo, lo + (1n << IDX_BITS) - 1n];
}

export function rowIndex(key: bigint): number {
  return Number(key & ((1n << IDX_BITS) - 1n));
}

// The store assumes a little-endian host (every platform Node runs on in practice); typed
// arrays are written as their bytes.
export function encodeBlock(samples: Float32Array, length: number): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, length * 4).slice();
}

export function decodeBlock(bytes: Uint8Array): Float32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >> 2);
}

export type Chunk = { min: Float32Array; max: Float32Array; sum: Float64Array; count: Float32Array; length: number };

export function emptyChunk(): Chunk {
  return {
    min: new Float32Array(CHUNK_BUCKETS).fill(Number.NaN),
    max: new Float32Array(CHUNK_BUCKETS).fill(Number.NaN),
    sum: new Float64Array(CHUNK_BUCKETS),
    count: new Float32Array(CHUNK_BUCKETS),
    length: 0,
  };
}

// Struct of arrays: [min f32 × n][max f32 × n][sum f64 × n][count f32 × n]; 8n keeps sums aligned.
export function encodeChunk(c: Chunk): Uint8Array {
  const n = c.length;
  const out = new Uint8Array(n * 20);
  const buf = out.buffer;
  new Float32Array(buf, 0, n).set(c.min.subarray(0, n));
  new Float32Array(buf, n * 4, n).set(c.max.subarray(0, n));
  new Float64Array(buf, n * 8, n).set(c.sum.subarray(0, n));
  new Float32Array(buf, n * 16, n).set(c.count.subarray(0, n));
  return out;
}

export function decodeChunk(bytes: Uint8Array, into: Chunk = emptyChunk()): Chunk {
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const n = aligned.byteLength / 20;
  const buf = aligned.buffer;
  const at = aligned.byteOffset;
  into.min.set(new Float32Array(buf, at, n));
  into.max.set(new Float32Array(buf, at + n * 4, n));
  into.sum.set(new Float64Array(buf, at + n * 8, n));
  into.count.set(new Float32Array(buf, at + n * 16, n));
  into.length = n;
  return into;
}
