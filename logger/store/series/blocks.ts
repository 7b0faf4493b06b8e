import { MAX_VALUES, packInts, packResiduals, packedBound, residualScratch, unpackCodes, unpackInts, unpackIntsInterleaved, unpackResiduals } from "./packing.ts";
import { findQuantum, toCodes } from "./quantum.ts";

// Layout of one stored row: raw samples or rollup buckets of one variable, addressed by a
// computed rowid so that one B-tree lookup finds it and a variable's rows are contiguous.

// A full plain row is 16320 bytes: 4080 float32 samples, or 816 rollup buckets × 20 bytes.
// Packed rows are smaller and of every size (docs/storage.md). series.db files made since issue 29
// have 4 KiB pages: SQLite fills a big row's overflow pages completely and puts the rest of it in
// a leaf page shared with other rows — 5 % over the rows' bytes, where 16 KiB pages (one plain
// row each, the size before) left 23 % of the file empty around packed rows. An existing file
// keeps its page size (docs/storage.md says how to change it).
export const PAGE_SIZE = 4096;
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

/** Every row of one variable, all levels. */
export function keyRange(varKey: number): [bigint, bigint] {
  return [rowKey(varKey, 0, 0), rowKey(varKey + 1, 0, 0) - 1n];
}

export function rowLevel(key: bigint): number {
  return Number((key >> IDX_BITS) % LEVEL_SLOTS);
}

export function rowIndex(key: bigint): number {
  return Number(key & ((1n << IDX_BITS) - 1n));
}

// The store assumes a little-endian host (every platform Node runs on in practice); typed
// arrays are written as their bytes.
//
// Two forms of a row (docs/storage.md, "Row format"), told apart by their length:
// * plain — the typed arrays' bytes, a multiple of 4 long: every row written before issue 29,
//   the row still being filled (rewritten at every flush), and a row that would not get smaller;
// * packed — a codec byte, then the codec's data, padded to a length that is NOT a multiple of
//   4: raw blocks and rollup chunks once they are complete (packing.ts: lossless, every bit
//   pattern back as it was).
export const CODEC_BLOCK = 1;
export const CODEC_CHUNK = 2;

/** Whether a stored row is packed (else plain). */
export function isPacked(bytes: Uint8Array): boolean {
  return bytes.byteLength % 4 !== 0;
}

/** The plain form of the first `length` samples. */
export function encodeBlock(samples: Float32Array, length: number): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, length * 4).slice();
}

// Scratch for packing (one thread; never awaited in between).
const scratch = new Uint8Array(4 + packedBound(BLOCK_SAMPLES) + 4);
const scratch2 = new Uint8Array(scratch.length);
const chunkScratch = new Uint8Array(4 + 5 * packedBound(CHUNK_BUCKETS) + 4);
const ints = new Int32Array(MAX_VALUES);
const ints2 = new Int32Array(MAX_VALUES);

/**
 * A complete block for storage: packed, or plain when packing would not make it smaller
 * (white noise at full float32 resolution does not compress).
 * Packed: u8 CODEC_BLOCK, u8 transform, u16 length, then
 * * DELTA, SIGN_LAST: the samples' bit patterns as one stream — as they are, or with the sign bit
 *   moved to the bottom when that packs smaller: a signal swinging around zero then changes only
 *   low bits where it changes sign;
 * * CODES, CODES_DELTA2 (a converter's samples, quantum.ts): u16 exceptions, u16 0, f64 quantum,
 *   the codes as one stream (CODES_DELTA2: their first differences, so that packing stores
 *   second differences — a swing's large steps change slowly), the exceptions' u16 positions
 *   (padded) and u32 bit patterns. Tried when the block has a quantum; the smaller wins.
 * (Second differences of bit patterns were tried too: no smaller on any of the simulator's
 * signals — a float32's bit pattern is linear in its value only within a power of two.)
 *
 * view: the packed row as a view of this module's scratch, valid until the next packBlock — for a
 * caller that copies it at once (the import packer: a fresh array per block was most of its garbage).
 */
export function packBlock(samples: Float32Array, length: number, view = false): Uint8Array {
  const bits = new Int32Array(samples.buffer, samples.byteOffset, length);
  // Codes when they look shorter than the bit patterns (estimated in a pass each: packing both
  // ways made ingest's packing 3× slower).
  // The quantum from the block's first quarter (a converter's block shows it there as well as
  // anywhere), checked on all of it below.
  const q = findQuantum(samples, length < PROBE * 2 ? length : PROBE * 2);
  if (q > 0) {
    const coded = packCodes(samples, bits, length, q);
    if (coded > 0) return coded >= length * 4 ? encodeBlock(samples, length) : finish(codesScratch, coded, view);
  }
  // The fitted predictor first: where its residuals are far shorter than the plain differences
  // (a pump's ripple, a smooth swing) the differences packed too would only be thrown away — a
  // whole second packing of every such block (issue 27's import: a fifth of its CPU).
  const lpc = packPredicted(bits, length);
  if (lpc > 0 && predictedShare < SURE_SHARE && lpc < length * 4) return finish(lpcScratch, lpc, view);
  let buf = scratch;
  let end = packWith(scratch, bits, length, DELTA);
  // Only a block that packed poorly is worth a second try (it costs another pass).
  if (end > length * 3) {
    for (let i = 0; i < length; i++) {
      const v = bits[i]!;
      ints[i] = (v << 1) | (v >>> 31);
    }
    const other = packWith(scratch2, ints, length, SIGN_LAST);
    if (other < end) (buf = scratch2), (end = other);
  }
  if (lpc > 0 && lpc < end) (buf = lpcScratch), (end = lpc);
  if (end >= length * 4) return encodeBlock(samples, length);
  return finish(buf, end, view);
}

const DELTA = 0;
const SIGN_LAST = 1;
const CODES = 2;
const CODES_DELTA2 = 3;
/**
 * PREDICTED: u16 a1, u16 a2 (int16, ×4096), then one stream: the running sum of what a linear
 * predictor of order 2 on the bit patterns' differences leaves, d[i] − (a1·d[i−1] + a2·d[i−2]) / 4096
 * (int32 arithmetic, wrapping as it may: the reader computes the same). Its coefficients are fitted
 * to the block (least squares): a tone far from zero frequency — a pump's ripple — whose steps
 * repeat with a period of a few samples is mostly predicted, where plain differences see its
 * whole swing every sample. Read only: rows written before PREDICTED_2.
 */
const PREDICTED = 4;
/**
 * PREDICTED_2: as PREDICTED, but the block is predicted as two halves, each from its own start
 * (u16 a1, u16 a2, then i32: the bit pattern of sample n >> 1, where the second half starts; its
 * place in the stream holds no residual). The reader's recurrence is one chain of dependent
 * multiply-add-shifts per sample; two independent chains run side by side on the core, which
 * made decoding ~1.3× faster (the pressure channels: 263–279 → 355–363 M samples per CPU-second),
 * for one header word and two samples' prediction per block.
 */
const PREDICTED_2 = 5;
const LPC_SHIFT = 12;
/** Differences wider than this are left out of the fit. */
const FIT_MAX = 1 << 22;
const lpcScratch = new Uint8Array(12 + packedBound(BLOCK_SAMPLES) + 4);

/** The predictor's residuals' bits over the plain differences' on the probe of the last packPredicted (packed only below 0.95). */
let predictedShare = 1;
/** Below this share the predicted block is taken without packing the plain differences to compare. */
const SURE_SHARE = 0.8;

/** Packs the block with a fitted predictor into lpcScratch when its residuals look shorter than plain differences; else 0. */
function packPredicted(bits: Int32Array, n: number): number {
  if (n < 64) return 0;
  // Least squares for d[i] ≈ a1·d[i−1] + a2·d[i−2] (float64 sums: the differences are small).
  let s11 = 0, s12 = 0, s22 = 0, s01 = 0, s02 = 0;
  let plain = 0;
  // Fitted and judged on a probe of the block's first part; packed whole only when it pays there.
  const probe = n < PROBE * 2 ? n : PROBE * 2;
  for (let i = 3; i < probe; i++) {
    const d0 = (bits[i]! - bits[i - 1]!) | 0;
    const d1 = (bits[i - 1]! - bits[i - 2]!) | 0;
    const d2 = (bits[i - 2]! - bits[i - 3]!) | 0;
    plain += lengthOf(d0);
    // The edges of a gap, a spike, a jump to another power of two: fitted, they would decide
    // the coefficients alone.
    if ((d0 > FIT_MAX || d0 < -FIT_MAX) || (d1 > FIT_MAX || d1 < -FIT_MAX) || (d2 > FIT_MAX || d2 < -FIT_MAX)) continue;
    s11 += d1 * d1;
    s12 += d1 * d2;
    s22 += d2 * d2;
    s01 += d0 * d1;
    s02 += d0 * d2;
  }
  const det = s11 * s22 - s12 * s12;
  if (!(det > 0)) return 0;
  const limit = 1 << 15;
  const a1 = Math.max(-limit, Math.min(limit - 1, Math.round(((s01 * s22 - s02 * s12) / det) * (1 << LPC_SHIFT))));
  const a2 = Math.max(-limit, Math.min(limit - 1, Math.round(((s02 * s11 - s01 * s12) / det) * (1 << LPC_SHIFT))));
  // Worth packing only when clearly shorter (estimated as for codes).
  predictedShare = residualsOf(bits, 3, probe, a1, a2) / plain;
  if (predictedShare >= 0.95) return 0;
  // The stream holds the running sum of the residuals, each half predicted from its own start
  // (the sum stands still at h): its differences, the residuals, go to the packer zigzagged
  // as they are computed.
  const h = n >> 1;
  const r = residualScratch();
  r[0] = 0;
  r[h] = 0;
  for (const [from, to] of [[1, h], [h + 1, n]] as const) {
    let d1 = 0;
    let d2 = 0;
    for (let i = from; i < to; i++) {
      const d = (bits[i]! - bits[i - 1]!) | 0;
      const e = (d - ((Math.imul(a1, d1) + Math.imul(a2, d2)) >> LPC_SHIFT)) | 0;
      r[i] = (e << 1) ^ (e >> 31);
      d2 = d1;
      d1 = d;
    }
  }
  const b = lpcScratch;
  b[0] = CODEC_BLOCK;
  b[1] = PREDICTED_2;
  b[2] = n & 0xff;
  b[3] = n >>> 8;
  b[4] = a1 & 0xff;
  b[5] = (a1 >>> 8) & 0xff;
  b[6] = a2 & 0xff;
  b[7] = (a2 >>> 8) & 0xff;
  new DataView(b.buffer, b.byteOffset + 8, 4).setInt32(0, bits[h]!, true);
  return packResiduals(n, bits[0]!, b, 12);
}

/** Sum of the bit lengths of the predictor's residuals for samples from..to (from ≥ 3). */
function residualsOf(bits: Int32Array, from: number, to: number, a1: number, a2: number): number {
  let cost = 0;
  for (let i = from; i < to; i++) {
    const d = (bits[i]! - bits[i - 1]!) | 0;
    const d1 = (bits[i - 1]! - bits[i - 2]!) | 0;
    const d2 = (bits[i - 2]! - bits[i - 3]!) | 0;
    cost += lengthOf((d - ((Math.imul(a1, d1) + Math.imul(a2, d2)) >> LPC_SHIFT)) | 0);
  }
  return cost;
}

/** Where a CODES block's stream starts: after its header and quantum. */
const CODES_AT = 16;

const codesScratch = new Uint8Array(CODES_AT + packedBound(BLOCK_SAMPLES) + 6 * BLOCK_SAMPLES + 8);
const positions = new Uint16Array(BLOCK_SAMPLES);
const whole = new Int32Array(BLOCK_SAMPLES);

/** Bits of zigzag(d), d an int32. */
const lengthOf = (d: number) => 32 - Math.clz32((d << 1) ^ (d >> 31));

/** Samples probed before a whole block is turned into codes. */
const PROBE = 512;

/**
 * Whether the codes in ints[0..n) (e of them exceptions) look shorter than the bit patterns'
 * differences (DELTA; SIGN_LAST is rarely much better), by the sum of their bit lengths: false
 * when not, else whether their second differences are (true) or their first (null).
 */
function codesPay(bits: Int32Array, n: number, e: number): boolean | null {
  let one = 0;
  let two = 0;
  let plain = 0;
  for (let i = 1, d0 = ints[0]!; i < n; i++) {
    const d = (ints[i]! - ints[i - 1]!) | 0;
    one += lengthOf(d);
    two += lengthOf((d - d0) | 0);
    plain += lengthOf((bits[i]! - bits[i - 1]!) | 0);
    d0 = d;
  }
  // An exception costs its 48 bits besides.
  if ((two < one ? two : one) + 48 * e >= plain) return false;
  return two < one ? true : null;
}

/**
 * Packs the block as codes on quantum q into codesScratch; returns its end, or 0 when too many
 * samples are off the grid or the bit patterns look shorter.
 */
function packCodes(samples: Float32Array, bits: Int32Array, length: number, q: number): number {
  // First a probe of the first PROBE samples: most blocks with a quantum that does not pay (a
  // power of two: the float32's own steps, as in a temperature far from zero) stop here.
  if (length > PROBE) {
    const e = toCodes(samples, bits, PROBE, q, ints, positions, whole, PROBE >> 3);
    if (e < 0 || codesPay(bits, PROBE, e) === false) return 0;
  }
  const e = toCodes(samples, bits, length, q, ints, positions, whole, length >> 3);
  if (e < 0) return 0;
  const second = codesPay(bits, length, e);
  if (second === false) return 0;
  if (second) for (let i = length - 1; i > 0; i--) ints[i] = (ints[i]! - ints[i - 1]!) | 0;
  const b = codesScratch;
  b[0] = CODEC_BLOCK;
  b[1] = second ? CODES_DELTA2 : CODES;
  b[2] = length & 0xff;
  b[3] = length >>> 8;
  b[4] = e & 0xff;
  b[5] = e >>> 8;
  b[6] = 0;
  b[7] = 0;
  new DataView(b.buffer, b.byteOffset + 8, 8).setFloat64(0, q, true);
  let at = packInts(ints, length, b, CODES_AT);
  new Uint16Array(b.buffer, b.byteOffset + at, e).set(positions.subarray(0, e));
  b.fill(0, at + 2 * e, at + ((2 * e + 3) & ~3));
  at += (2 * e + 3) & ~3;
  new Int32Array(b.buffer, b.byteOffset + at, e).set(whole.subarray(0, e));
  return at + 4 * e;
}

function packWith(out: Uint8Array, values: Int32Array, length: number, transform: number): number {
  out[0] = CODEC_BLOCK;
  out[1] = transform;
  out[2] = length & 0xff;
  out[3] = length >>> 8;
  return packInts(values, length, out, 4);
}

/** Copies a packed row out of scratch (or, view, shows it there), one byte longer than its (aligned) data: not a multiple of 4. */
function finish(buf: Uint8Array, end: number, view = false): Uint8Array {
  if (view) {
    if (end % 4 !== 0) return buf.subarray(0, end);
    buf[end] = 0;
    return buf.subarray(0, end + 1);
  }
  const out = new Uint8Array(end % 4 === 0 ? end + 1 : end);
  out.set(buf.subarray(0, end));
  return out;
}

/** A packed row's bytes, 4-byte aligned (a copy only when the engine handed out an unaligned view). */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
}

export function decodeBlock(bytes: Uint8Array): Float32Array {
  if (!isPacked(bytes)) {
    const a = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    return new Float32Array(a.buffer, a.byteOffset, a.byteLength >> 2);
  }
  const b = aligned(bytes);
  const n = checkBlock(b);
  const room = Math.max(32, (n + 31) & ~31);
  const at = take(room);
  const out = new Int32Array(slab, at * 4, room);
  unpackBlock(b, n, out);
  return new Float32Array(slab, out.byteOffset, n);
}

/** Room decodeBlockInto needs for any block: BLOCK_SAMPLES up to a whole group of 32. */
export const BLOCK_ROOM = (BLOCK_SAMPLES + 31) & ~31;

/**
 * A stored block, either form, decoded into the caller's array (at least BLOCK_ROOM long; what
 * lies past the returned length is scratch): no array is made for it. Returns its length.
 * For readers that go through many blocks once (exports): decodeBlock hands out a view that
 * lives as long as the query.
 */
export function decodeBlockInto(bytes: Uint8Array, into: Float32Array): number {
  if (!isPacked(bytes)) {
    const n = bytes.byteLength >> 2;
    new Uint8Array(into.buffer, into.byteOffset, n * 4).set(bytes);
    return n;
  }
  const b = aligned(bytes);
  const n = checkBlock(b);
  if (into.length < ((n + 31) & ~31)) throw new Error(`decodeBlockInto: room for ${into.length} samples, the block needs ${(n + 31) & ~31}`);
  unpackBlock(b, n, new Int32Array(into.buffer, into.byteOffset, into.length));
  return n;
}

/** A packed raw block's length, after checking its header. */
function checkBlock(b: Uint8Array): number {
  if (b[0] !== CODEC_BLOCK) throw new Error(`Series row: codec ${b[0]} is not a raw block's`);
  if (b[1]! > PREDICTED_2) throw new Error(`Series row: unknown transform ${b[1]} of a raw block`);
  return b[2]! | (b[3]! << 8);
}

function unpackBlock(b: Uint8Array, n: number, out: Int32Array): void {
  const t = b[1]!;
  const words = new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  if (t < CODES) {
    unpackInts(b, words, 4, n, out, t === SIGN_LAST);
    return;
  }
  if (t === PREDICTED_2) {
    unpackPredicted2(b, words, n, out);
    return;
  }
  if (t === PREDICTED) {
    unpackPredicted(b, words, n, out);
    return;
  }
  const e = b[4]! | (b[5]! << 8);
  const q = new DataView(b.buffer, b.byteOffset + 8, 8).getFloat64(0, true);
  const at = unpackCodes(b, words, CODES_AT, n, new Float32Array(out.buffer, out.byteOffset, out.length), q, t === CODES_DELTA2);
  // Exceptions: their bit patterns as they were.
  const valuesAt = (at + 2 * e + 3) >> 2;
  for (let j = 0; j < e; j++) out[b[at + 2 * j]! | (b[at + 2 * j + 1]! << 8)] = words[valuesAt + j]!;
}

function unpackPredicted(b: Uint8Array, words: Int32Array, n: number, out: Int32Array): void {
  const a1 = ((b[4]! | (b[5]! << 8)) << 16) >> 16;
  const a2 = ((b[6]! | (b[7]! << 8)) << 16) >> 16;
  unpackInts(b, words, 8, n, out, false);
  let prev = out[0]!;
  let x = prev;
  let d1 = 0;
  let d2 = 0;
  for (let i = 1; i < n; i++) {
    const y = out[i]!;
    const d = (y - prev + ((Math.imul(a1, d1) + Math.imul(a2, d2)) >> LPC_SHIFT)) | 0;
    prev = y;
    x = (x + d) | 0;
    out[i] = x;
    d2 = d1;
    d1 = d;
  }
}

function unpackPredicted2(b: Uint8Array, words: Int32Array, n: number, out: Int32Array): void {
  const a1 = ((b[4]! | (b[5]! << 8)) << 16) >> 16;
  const a2 = ((b[6]! | (b[7]! << 8)) << 16) >> 16;
  // The stream is the running sum of the residuals: its own differences are the residuals.
  let x = unpackResiduals(b, words, 12, n, out);
  const h = n >> 1;
  // Both halves in one loop: their chains are independent (the second half may be one longer).
  out[0] = x;
  let d1 = 0;
  let d2 = 0;
  let xB = words[2]!;
  let d1B = 0;
  let d2B = 0;
  out[h] = xB;
  for (let k = 1; k < h; k++) {
    const r = out[k]!;
    const d = (((r >>> 1) ^ (0 - (r & 1))) + ((Math.imul(a1, d1) + Math.imul(a2, d2)) >> LPC_SHIFT)) | 0;
    x = (x + d) | 0;
    out[k] = x;
    d2 = d1;
    d1 = d;
    const rB = out[h + k]!;
    const dB = (((rB >>> 1) ^ (0 - (rB & 1))) + ((Math.imul(a1, d1B) + Math.imul(a2, d2B)) >> LPC_SHIFT)) | 0;
    xB = (xB + dB) | 0;
    out[h + k] = xB;
    d2B = d1B;
    d1B = dB;
  }
  if (n - h > h) {
    const r = out[n - 1]!;
    out[n - 1] = (xB + ((r >>> 1) ^ (0 - (r & 1))) + ((Math.imul(a1, d1B) + Math.imul(a2, d2B)) >> LPC_SHIFT)) | 0;
  }
}

// Decoded blocks are cut from shared 1 MB buffers, not zeroed (every value a block shows is
// written first): an ArrayBuffer of its own per block — calloc, zeroing, a finaliser for the
// garbage collector — took a third of the decode time. A block kept keeps its buffer alive;
// decoded blocks live for one query (the reader's cache, one slice of an export).
const SLAB_WORDS = 1 << 18;
const newSlab = () => {
  const b = Buffer.allocUnsafeSlow(SLAB_WORDS * 4);
  return b.buffer as ArrayBuffer;
};
let slab = newSlab();
let slabAt = 0;

/**
 * Word offset in `slab` of `words` 32-bit words (an even number: float64 views stay aligned).
 * It may start a new slab: read `slab` after calling it.
 */
function take(words: number): number {
  if (slabAt + words > SLAB_WORDS) {
    slab = newSlab();
    slabAt = 0;
  }
  const at = slabAt;
  slabAt += words;
  return at;
}

/**
 * Runs fn (synchronous), whose result holds none of the blocks and chunks decoded meanwhile (text,
 * copies), and gives the read buffers they took back at once. Slices of a long answer otherwise
 * leave a dead buffer behind every 64 blocks; a buffer lives long enough to reach V8's old
 * generation, so the dead ones were freed only by a full collection, which external memory
 * starts after ~64 MB: a streamed answer grew the logger by +45 MB (heavy-readers.test.ts).
 * Nothing else decodes while fn runs, so whatever was taken after the mark is fn's.
 */
export function givingBackReads<T>(fn: () => T): T {
  const mark = slab;
  const markAt = slabAt;
  try {
    return fn();
  } finally {
    // A buffer started meanwhile holds only fn's blocks: start it over.
    slabAt = slab === mark ? markAt : 0;
  }
}

/** A chunk to decode into, cut from the read buffers (its arrays are written before being read). */
function readChunk(): Chunk {
  const at = take(CHUNK_BYTES >> 2);
  return chunkAt(slab, at * 4);
}

export type Chunk = { min: Float32Array; max: Float32Array; sum: Float64Array; count: Float32Array; length: number };

/** Room of a chunk's arrays: CHUNK_BUCKETS up to a whole group of 32, so packed columns unpack in place. */
const CHUNK_ROOM = (CHUNK_BUCKETS + 31) & ~31;

/** Bytes of a chunk's four arrays, laid out in one buffer: sum (float64) first, for alignment. */
const CHUNK_BYTES = CHUNK_ROOM * 20;

/** A chunk's arrays as views of one buffer: one allocation instead of four (a third of a read's cost). */
function chunkAt(buffer: ArrayBuffer, at: number): Chunk {
  return {
    sum: new Float64Array(buffer, at, CHUNK_ROOM),
    min: new Float32Array(buffer, at + CHUNK_ROOM * 8, CHUNK_ROOM),
    max: new Float32Array(buffer, at + CHUNK_ROOM * 12, CHUNK_ROOM),
    count: new Float32Array(buffer, at + CHUNK_ROOM * 16, CHUNK_ROOM),
    length: 0,
  };
}

/** An empty chunk with a buffer of its own (a writer keeps it for as long as it fills it). */
export function emptyChunk(): Chunk {
  const c = chunkAt(new ArrayBuffer(CHUNK_BYTES), 0);
  c.min.fill(Number.NaN);
  c.max.fill(Number.NaN);
  return c;
}

/** Empties a chunk in place, as emptyChunk() makes one. */
export function resetChunk(c: Chunk): void {
  c.min.fill(Number.NaN);
  c.max.fill(Number.NaN);
  c.sum.fill(0);
  c.count.fill(0);
  c.length = 0;
}

// Plain: struct of arrays, [min f32 × n][max f32 × n][sum f64 × n][count f32 × n]; 8n keeps sums aligned.
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

/**
 * Rollup levels whose chunks are stored plain. A query of days or weeks reads mostly chunks of
 * levels 2 and 3 (one bucket: 4096 or 262144 samples), and decoding a packed one cost 3× a plain
 * one's copy — queries over 7 and 30 days were 1.2–1.3× slower packed. Those levels hold 1/64
 * and 1/4096 of level 1's buckets: plain, they add ~0.005 bytes per sample (bench/compression.ts:
 * 2.277 → 2.283–2.287 on the bench's 16 channels).
 */
export const PLAIN_FROM_LEVEL = 2;

/** A complete chunk of `level` as it is stored: packed below PLAIN_FROM_LEVEL (when that is smaller), plain above. */
export function storedChunk(c: Chunk, level: number, view = false): Uint8Array {
  return level < PLAIN_FROM_LEVEL ? packChunk(c, view) : encodeChunk(c);
}

/**
 * A complete chunk for storage: packed, or plain when that is not smaller. Packed: u8
 * CODEC_CHUNK, u8 shift, u16 length, then five streams: min, max, the sums' high and low words
 * (the low words shifted right by their common trailing zero bits — sums of float32 samples
 * leave many), count.
 */
export function packChunk(c: Chunk, view = false): Uint8Array {
  const n = c.length;
  const sum = new Int32Array(c.sum.buffer, c.sum.byteOffset, 2 * n);
  let low = 0;
  for (let i = 0; i < n; i++) low |= sum[2 * i]!;
  const shift = low === 0 ? 0 : 31 - Math.clz32(low & -low);
  for (let i = 0; i < n; i++) {
    ints[i] = sum[2 * i + 1]!;
    ints2[i] = sum[2 * i]! >>> shift;
  }
  const b = chunkScratch;
  b[0] = CODEC_CHUNK;
  b[1] = shift;
  b[2] = n & 0xff;
  b[3] = n >>> 8;
  let at = packInts(new Int32Array(c.min.buffer, c.min.byteOffset, n), n, b, 4);
  at = packInts(new Int32Array(c.max.buffer, c.max.byteOffset, n), n, b, at);
  at = packInts(ints, n, b, at);
  at = packInts(ints2, n, b, at);
  at = packInts(new Int32Array(c.count.buffer, c.count.byteOffset, n), n, b, at);
  if (at >= n * 20) return encodeChunk(c);
  return finish(b, at, view);
}

/**
 * A stored chunk, either form. Without `into`, its arrays are cut from the shared read buffers
 * (like decoded blocks: for a query's life); give `into` (emptyChunk()) for a chunk kept longer.
 */
export function decodeChunk(bytes: Uint8Array, into: Chunk = readChunk()): Chunk {
  if (isPacked(bytes)) return unpackChunk(aligned(bytes), into);
  const a = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const n = a.byteLength / 20;
  const buf = a.buffer;
  const at = a.byteOffset;
  into.min.set(new Float32Array(buf, at, n));
  into.max.set(new Float32Array(buf, at + n * 4, n));
  into.sum.set(new Float64Array(buf, at + n * 8, n));
  into.count.set(new Float32Array(buf, at + n * 16, n));
  return emptyAfter(into, n);
}

/** Every bucket past the chunk's length is empty (a writer recovering a chunk appends after it, over gaps). */
function emptyAfter(c: Chunk, n: number): Chunk {
  c.min.fill(Number.NaN, n);
  c.max.fill(Number.NaN, n);
  c.sum.fill(0, n);
  c.count.fill(0, n);
  c.length = n;
  return c;
}

function unpackChunk(b: Uint8Array, into: Chunk): Chunk {
  if (b[0] !== CODEC_CHUNK) throw new Error(`Series row: codec ${b[0]} is not a rollup chunk's`);
  const shift = b[1]!;
  const n = b[2]! | (b[3]! << 8);
  const words = new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  const bits = (a: Float32Array) => new Int32Array(a.buffer, a.byteOffset, CHUNK_ROOM);
  let at = unpackInts(b, words, 4, n, bits(into.min));
  at = unpackInts(b, words, at, n, bits(into.max));
  const sum = new Int32Array(into.sum.buffer, into.sum.byteOffset, 2 * CHUNK_ROOM);
  at = unpackIntsInterleaved(b, words, at, n, sum, 1, 0, ints);
  at = unpackIntsInterleaved(b, words, at, n, sum, 0, shift, ints);
  unpackInts(b, words, at, n, bits(into.count));
  // Unpacking wrote whole groups of 32: past the length they are emptied again.
  return emptyAfter(into, n);
}
