// Lossless packing of int32 streams (the bit patterns of float32 samples, of rollup columns):
// zigzag deltas, bit-packed 32 at a time at the width that costs least, with the few values too
// wide for it (a zero crossing, the edge of a gap) kept whole as exceptions (patched frame of
// reference, "PFOR"). Integer arithmetic on bit patterns is exact, so every pattern — NaN, ±0,
// ±Inf, subnormals — comes back as it was.
//
// Hand-written rather than a library: npm has zstd/lz4 bindings and varint/FastPFOR ports for
// plain integers, but nothing for float32 bit patterns at the decode speed raw reads need
// (≥ 500 M samples/s per core: zstd through node:zlib decodes ~60–100 M/s here, see
// docs/storage.md); these are plain loops over typed arrays.
//
// A stream of n values (G = ceil(n / 32) groups), every section 4-byte aligned:
//   u16 exceptions, u16 0 | G widths (u8, 0–32), padded | Σ widths u32 words | u32 0 (read-ahead)
//   | exceptions × u16 position, padded | exceptions × u32 value (the whole residual)

const GROUP = 32;
/** Largest stream: a raw block (4080 samples); chunk columns are 816. */
export const MAX_VALUES = 4096;
const EXCEPTION_BYTES = 6;
/** Past any position: no exception left. */
const NONE = 1 << 30;

const pad4 = (n: number) => (n + 3) & ~3;

// Scratch space of the encoder (one thread; encoding never awaits).
const residual = new Int32Array(MAX_VALUES);
const widths = new Uint8Array(MAX_VALUES / GROUP);
const histogram = new Int32Array(33);

/** Upper bound of the bytes packInts writes for n values. */
export function packedBound(n: number): number {
  const groups = Math.ceil(n / GROUP);
  return 4 + pad4(groups) + groups * GROUP * 4 + 4 + pad4(2 * n) + 4 * n;
}

/**
 * Packs values[0..n) into out at byte offset `at` (a multiple of 4; out's byteOffset too) and
 * returns the offset after it. out must have packedBound(n) bytes from `at`.
 */
export function packInts(values: Int32Array, n: number, out: Uint8Array, at: number): number {
  if (n > MAX_VALUES) throw new Error(`packInts: ${n} values, at most ${MAX_VALUES}`);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const d = (v - prev) | 0;
    residual[i] = (d << 1) ^ (d >> 31);
    prev = v;
  }
  const groups = (n + GROUP - 1) >>> 5;
  residual.fill(0, n, groups * GROUP);

  // Width per group: 4 bytes per bit of width, EXCEPTION_BYTES per value that does not fit.
  let exceptions = 0;
  let words = 0;
  for (let g = 0; g < groups; g++) {
    histogram.fill(0);
    for (let i = g * GROUP, end = i + GROUP; i < end; i++) histogram[32 - Math.clz32(residual[i]!)]!++;
    let best = 32;
    let bestCost = 4 * 32;
    let over = 0;
    for (let w = 31; w >= 0; w--) {
      over += histogram[w + 1]!;
      const cost = 4 * w + EXCEPTION_BYTES * over;
      if (cost <= bestCost) {
        best = w;
        bestCost = cost;
      }
    }
    widths[g] = best;
    words += best;
    let o = 0;
    for (let k = best + 1; k <= 32; k++) o += histogram[k]!;
    exceptions += o;
  }

  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint16(at, exceptions, true);
  view.setUint16(at + 2, 0, true);
  let p = at + 4;
  out.set(widths.subarray(0, groups), p);
  out.fill(0, p + groups, p + pad4(groups));
  p += pad4(groups);
  const w32 = new Int32Array(out.buffer, out.byteOffset + p, words + 1);
  let wi = 0;
  for (let g = 0; g < groups; g++) {
    const w = widths[g]!;
    if (w === 0) continue;
    const mask = w === 32 ? -1 : (1 << w) - 1;
    let acc = 0;
    let bits = 0;
    for (let i = g * GROUP, end = i + GROUP; i < end; i++) {
      const v = residual[i]! & mask;
      acc |= v << bits;
      bits += w;
      if (bits >= 32) {
        w32[wi++] = acc;
        bits -= 32;
        acc = bits > 0 ? v >>> (w - bits) : 0;
      }
    }
  }
  w32[wi] = 0;
  p += (words + 1) * 4;

  const positions = new Uint16Array(out.buffer, out.byteOffset + p, exceptions);
  const valuesAt = p + pad4(2 * exceptions);
  const whole = new Int32Array(out.buffer, out.byteOffset + valuesAt, exceptions);
  let e = 0;
  for (let g = 0; g < groups; g++) {
    const w = widths[g]!;
    if (w === 32) continue;
    for (let i = g * GROUP, end = Math.min(i + GROUP, n); i < end; i++) {
      if (residual[i]! >>> w !== 0) {
        positions[e] = i;
        whole[e++] = residual[i]!;
      }
    }
  }
  out.fill(0, p + 2 * exceptions, valuesAt);
  return valuesAt + 4 * exceptions;
}

/**
 * Unpacks n values packed at byte offset `at` of a row into out[0..n) (out needs room for
 * ceil(n / 32) × 32). `words` is the row as Int32Array from its start (4-byte aligned).
 * Returns the byte offset after the stream.
 */
export function unpackInts(bytes: Uint8Array, words: Int32Array, at: number, n: number, out: Int32Array): number {
  const exceptions = bytes[at]! | (bytes[at + 1]! << 8);
  const groups = (n + GROUP - 1) >>> 5;
  const widthsAt = at + 4;
  let wi = (widthsAt + pad4(groups)) >> 2;
  let total = 0;
  for (let g = 0; g < groups; g++) total += bytes[widthsAt + g]!;
  const positionsAt = (wi + total + 1) << 2;
  const valuesAt = positionsAt + pad4(2 * exceptions);
  let e = 0;
  let nextException = exceptions > 0 ? bytes[positionsAt]! | (bytes[positionsAt + 1]! << 8) : NONE;
  let p = 0;
  for (let g = 0, o = 0; g < groups; g++, o += GROUP) {
    const w = bytes[widthsAt + g]!;
    const end = Math.min(o + GROUP, n);
    if (nextException >= o + GROUP) {
      // The common case, in one pass: unpack, undo zigzag and delta.
      p = w === 0 ? fillRun(out, o, end, p) : unpackRun(words, wi, w, out, o, end, p);
      wi += w;
      continue;
    }
    if (w === 0) out.fill(0, o, o + GROUP);
    else unpackGroup(words, wi, w, out, o);
    wi += w;
    // Exceptions of this group replace what was packed for them.
    while (nextException < o + GROUP) {
      out[nextException] = words[(valuesAt >> 2) + e]!;
      e++;
      nextException = e < exceptions ? bytes[positionsAt + 2 * e]! | (bytes[positionsAt + 2 * e + 1]! << 8) : NONE;
    }
    for (let i = o; i < end; i++) {
      const r = out[i]!;
      p = (p + ((r >>> 1) ^ -(r & 1))) | 0;
      out[i] = p;
    }
  }
  return valuesAt + 4 * exceptions;
}

/** Values o..end of a group without exceptions, straight to their final value; returns the last. */
function unpackRun(words: Int32Array, wi: number, w: number, out: Int32Array, o: number, end: number, p: number): number {
  const mask = w === 32 ? -1 : (1 << w) - 1;
  let cur = words[wi]!;
  let sh = 0;
  for (let i = o; i < end; i++) {
    let v = cur >>> sh;
    sh += w;
    if (sh >= 32) {
      sh -= 32;
      cur = words[++wi]!;
      if (sh > 0) v |= cur << (w - sh);
    }
    v &= mask;
    p = (p + ((v >>> 1) ^ -(v & 1))) | 0;
    out[i] = p;
  }
  return p;
}

/** A group of width 0: every delta is 0. */
function fillRun(out: Int32Array, o: number, end: number, p: number): number {
  out.fill(p, o, end);
  return p;
}

function unpackGroup(words: Int32Array, wi: number, w: number, out: Int32Array, o: number): void {
  const mask = w === 32 ? -1 : (1 << w) - 1;
  let cur = words[wi]!;
  let sh = 0;
  for (let j = 0; j < GROUP; j++) {
    let v = cur >>> sh;
    sh += w;
    if (sh >= 32) {
      sh -= 32;
      cur = words[++wi]!;
      if (sh > 0) v |= cur << (w - sh);
    }
    out[o + j] = v & mask;
  }
}
