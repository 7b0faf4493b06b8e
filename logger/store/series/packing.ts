// Lossless packing of int32 streams (the bit patterns of float32 samples, of rollup columns):
// zigzag deltas, bit-packed 32 at a time at the width that costs least, with the few values too
// wide for it (a zero crossing, the edge of a gap) kept whole as exceptions (patched frame of
// reference, "PFOR"). Integer arithmetic on bit patterns is exact, so every pattern — NaN, ±0,
// ±Inf, subnormals — comes back as it was.
//
// Hand-written rather than a library: npm has zstd/lz4 bindings and varint/FastPFOR ports for
// plain integers, but nothing for float32 bit patterns at the decode speed raw reads need
// (≥ 500 M samples/s per core: shuffle + zstd through node:zlib decodes 20–130 M/s here, see
// docs/storage.md); these are plain loops over typed arrays.
//
// A stream of n values (G = ceil(n / 32) groups), every section 4-byte aligned:
//   u16 exceptions, u16 0, i32 first value (deltas start from it) | G widths (u8, 0–32), padded
//   | Σ widths u32 words | u32 0 (read-ahead) | exceptions × u16 position, padded
//   | exceptions × u32 value (the whole residual)

const GROUP = 32;
/** Largest stream: a raw block (4080 samples); chunk columns are 816. */
export const MAX_VALUES = 4096;
const EXCEPTION_BYTES = 6;
/** Past any position: no exception left. */
const NONE = 1 << 30;

const pad4 = (n: number) => (n + 3) & ~3;
// Integer arithmetic stays in int32 (V8 deoptimises a loop whose value leaves it: (1 << 31) - 1
// does; so does -0 from negating 0).
const maskOf = (w: number) => (w === 0 ? 0 : (-1 >>> (32 - w)) | 0);

// Scratch space of the encoder (one thread; encoding never awaits).
const residual = new Int32Array(MAX_VALUES);
const widths = new Uint8Array(MAX_VALUES / GROUP);
const histogram = new Int32Array(33);
/** Values of each group too wide for its width (packInts). */
const groupExceptions = new Uint8Array(MAX_VALUES / GROUP);
/** Set by chooseWidth. */
let chosenOver = 0;

/** Upper bound of the bytes packInts writes for n values. */
export function packedBound(n: number): number {
  const groups = Math.ceil(n / GROUP);
  return 8 + pad4(groups) + groups * GROUP * 4 + 4 + pad4(2 * n) + 4 * n;
}

/**
 * Packs values[0..n) into out at byte offset `at` (a multiple of 4; out's byteOffset too) and
 * returns the offset after it. out must have packedBound(n) bytes from `at`.
 */
export function packInts(values: Int32Array, n: number, out: Uint8Array, at: number): number {
  if (n > MAX_VALUES) tooMany(n);
  const first = n > 0 ? values[0]! : 0;
  zigzagDeltas(values, n, first);
  return packResiduals(n, first, out, at);
}

/**
 * The encoder's scratch for packResiduals: a caller that has its values' differences at hand (a
 * predictor's residuals) zigzags them into it instead of summing them up for packInts to take apart.
 */
export function residualScratch(): Int32Array {
  return residual;
}

/**
 * packInts of the values that start at `first` and whose zigzagged differences are in
 * residualScratch()[0..n) (the first one 0): the same bytes packInts writes for those values.
 */
export function packResiduals(n: number, first: number, out: Uint8Array, at: number): number {
  if (n > MAX_VALUES) tooMany(n);
  const groups = (n + GROUP - 1) >>> 5;
  residual.fill(0, n, groups * GROUP);
  let exceptions = 0;
  let words = 0;
  for (let g = 0; g < groups; g++) {
    const w = chooseWidth(g * GROUP);
    widths[g] = w;
    words += w;
    groupExceptions[g] = chosenOver;
    exceptions += chosenOver;
  }
  out[at] = exceptions & 0xff;
  out[at + 1] = exceptions >>> 8;
  out[at + 2] = 0;
  out[at + 3] = 0;
  new Int32Array(out.buffer, out.byteOffset + at + 4, 1)[0] = first;
  let p = at + 8;
  out.set(widths.subarray(0, groups), p);
  out.fill(0, p + groups, p + pad4(groups));
  p += pad4(groups);
  const w32 = new Int32Array(out.buffer, out.byteOffset + p, words + 1);
  let wi = 0;
  for (let g = 0; g < groups; g++) {
    const w = widths[g]!;
    if (w !== 0) wi = packGroup(w32, wi, w, g * GROUP);
  }
  w32[wi] = 0;
  p += (words + 1) * 4;
  const positions = new Uint16Array(out.buffer, out.byteOffset + p, exceptions);
  const valuesAt = p + pad4(2 * exceptions);
  const whole = new Int32Array(out.buffer, out.byteOffset + valuesAt, exceptions);
  let e = 0;
  for (let g = 0; g < groups && e < exceptions; g++) {
    if (groupExceptions[g] !== 0) e = collectExceptions(positions, whole, e, widths[g]!, g * GROUP, n);
  }
  out.fill(0, p + 2 * exceptions, valuesAt);
  return valuesAt + 4 * exceptions;
}

function tooMany(n: number): never {
  throw new Error(`packInts: ${n} values, at most ${MAX_VALUES}`);
}

function zigzagDeltas(values: Int32Array, n: number, first: number): void {
  let prev = first;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const d = (v - prev) | 0;
    residual[i] = (d << 1) ^ (d >> 31);
    prev = v;
  }
}

// The width of the group at `from`: 4 bytes per bit of width, EXCEPTION_BYTES per value that
// does not fit; how many do not is left in chosenOver. Starts at the widest value's width (every
// wider one costs more) and stops once the exceptions alone cost more than the best so far.
function chooseWidth(from: number): number {
  histogram.fill(0);
  let any = 0;
  for (let i = from, end = from + GROUP; i < end; i++) {
    const r = residual[i]!;
    any |= r;
    histogram[32 - Math.clz32(r)]!++;
  }
  let best = 32 - Math.clz32(any);
  let bestCost = 4 * best;
  let bestOver = 0;
  let over = 0;
  for (let w = best - 1; w >= 0; w--) {
    over += histogram[w + 1]!;
    const cost = 4 * w + EXCEPTION_BYTES * over;
    if (cost <= bestCost) {
      best = w;
      bestCost = cost;
      bestOver = over;
    } else if (EXCEPTION_BYTES * over > bestCost) break;
  }
  chosenOver = bestOver;
  return best;
}

function packGroup(w32: Int32Array, wi: number, w: number, from: number): number {
  PACK[w]!(residual, from, w32, wi);
  return wi + w;
}

type Pack = (r: Int32Array, from: number, w32: Int32Array, wi: number) => void;

/**
 * One function per width (1–32) that packs the low w bits of r[from…from+32) into w words from
 * w32[wi]: straight-line with constant shifts and masks, as the unpackers (groupSource) — the
 * loop over a variable width was the import packer's largest item.
 */
const PACK: Array<Pack | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : packOf(w)));

function packOf(w: number): Pack {
  const mask = maskOf(w);
  let code = "let acc = 0;\nlet v = 0;\n";
  for (let j = 0, bit = 0; j < GROUP; j++, bit += w) {
    const k = bit >>> 5;
    const sh = bit & 31;
    code += `v = r[from + ${j}] & ${mask};\n`;
    code += sh === 0 ? "acc = v;\n" : `acc |= v << ${sh};\n`;
    if (sh + w >= 32) {
      code += `w32[wi + ${k}] = acc;\n`;
      if (sh + w > 32) code += `acc = v >>> ${32 - sh};\n`;
    }
  }
  return new Function("r", "from", "w32", "wi", code) as Pack;
}

function collectExceptions(positions: Uint16Array, whole: Int32Array, e: number, w: number, from: number, n: number): number {
  const end = from + GROUP < n ? from + GROUP : n;
  for (let i = from; i < end; i++) {
    const r = residual[i]!;
    if (r >>> w !== 0) {
      positions[e] = i;
      whole[e++] = r;
    }
  }
  return e;
}

/**
 * Unpacks n values packed at byte offset `at` of a row into out[0..n) (out needs room for
 * ceil(n / 32) × 32). `words` is the row as Int32Array from its start (4-byte aligned).
 * Returns the byte offset after the stream.
 */
export function unpackInts(bytes: Uint8Array, words: Int32Array, at: number, n: number, out: Int32Array, signLast = false): number {
  const runs = signLast ? RUNS_SIGN_LAST : RUNS;
  const exceptions = bytes[at]! | (bytes[at + 1]! << 8);
  const groups = (n + GROUP - 1) >>> 5;
  const widthsAt = at + 8;
  let wi = (widthsAt + pad4(groups)) >> 2;
  let total = 0;
  for (let g = 0; g < groups; g++) total += bytes[widthsAt + g]!;
  const positionsAt = (wi + total + 1) << 2;
  const valuesAt = positionsAt + pad4(2 * exceptions);
  let p = words[(at + 4) >> 2]!;
  if (total === 0 && exceptions === 0) {
    // A constant stream (a rollup chunk's counts): one fill instead of one per group.
    out.fill(signLast ? signFirst(p) : p, 0, groups * GROUP);
    return valuesAt;
  }
  let e = 0;
  let nextException = exceptions > 0 ? bytes[positionsAt]! | (bytes[positionsAt + 1]! << 8) : NONE;
  for (let g = 0, o = 0; g < groups; g++, o += GROUP) {
    const w = bytes[widthsAt + g]!;
    if (nextException < o + GROUP && manyIn(bytes, positionsAt, e, exceptions, o + GROUP)) {
      // Many exceptions in the group (a rollup chunk's noisy sums): unpacked, patched, then
      // zigzag and delta undone — cheaper than moving the rest of the group for each.
      if (w === 0) out.fill(0, o, o + GROUP);
      else UNPACK[w]!(words, wi, out, o);
      wi += w;
      while (nextException < o + GROUP) {
        out[nextException] = words[(valuesAt >> 2) + e]!;
        e++;
        nextException = e < exceptions ? bytes[positionsAt + 2 * e]! | (bytes[positionsAt + 2 * e + 1]! << 8) : NONE;
      }
      const end = o + GROUP < n ? o + GROUP : n;
      if (signLast) {
        for (let i = o; i < end; i++) {
          p = (p + unzigzag(out[i]!)) | 0;
          out[i] = signFirst(p);
        }
      } else {
        for (let i = o; i < end; i++) out[i] = p = (p + unzigzag(out[i]!)) | 0;
      }
      continue;
    }
    // Unpack, undo zigzag and delta in one pass (a last, partial group too: out has room for it,
    // and its padding decodes to repeats of the last value).
    if (w === 0) out.fill(signLast ? signFirst(p) : p, o, o + GROUP);
    else p = runs[w]!(words, wi, out, o, p);
    wi += w;
    // An exception's low w bits were packed and added up as its residual: every value from it
    // to the group's end is off by the rest of the whole residual, and is moved by that. (Cheaper
    // than a second, slower path for a group with exceptions: a strain cycle's zero crossings
    // put one in most groups.)
    while (nextException < o + GROUP) {
      const whole = words[(valuesAt >> 2) + e]!;
      const d = (unzigzag(whole) - unzigzag(whole & maskOf(w))) | 0;
      if (signLast) {
        for (let i = nextException; i < o + GROUP; i++) {
          const x = out[i]!;
          out[i] = signFirst((((x << 1) | (x >>> 31)) + d) | 0);
        }
      } else {
        for (let i = nextException; i < o + GROUP; i++) out[i] = (out[i]! + d) | 0;
      }
      p = (p + d) | 0;
      e++;
      nextException = e < exceptions ? bytes[positionsAt + 2 * e]! | (bytes[positionsAt + 2 * e + 1]! << 8) : NONE;
    }
  }
  return valuesAt + 4 * exceptions;
}

/**
 * Unpacks the zigzag residuals of a stream packed by packInts into out[0..n) — its values'
 * differences, zigzagged (out[0] is 0: the first value is `first` of the stream's header) —
 * without adding them up: for a reader that needs the differences (blocks.ts, PREDICTED_2) a
 * running sum it would take apart again is a dependent add per value and a pass it saves.
 * Returns the stream's first value.
 */
export function unpackResiduals(bytes: Uint8Array, words: Int32Array, at: number, n: number, out: Int32Array): number {
  const exceptions = bytes[at]! | (bytes[at + 1]! << 8);
  const groups = (n + GROUP - 1) >>> 5;
  const widthsAt = at + 8;
  let wi = (widthsAt + pad4(groups)) >> 2;
  for (let g = 0, o = 0; g < groups; g++, o += GROUP) {
    const w = bytes[widthsAt + g]!;
    if (w === 0) out.fill(0, o, o + GROUP);
    else UNPACK[w]!(words, wi, out, o);
    wi += w;
  }
  // An exception's slot holds its low bits only: the whole residual replaces them.
  const positionsAt = (wi + 1) << 2;
  const valuesAt = (positionsAt + pad4(2 * exceptions)) >> 2;
  for (let e = 0; e < exceptions; e++) out[bytes[positionsAt + 2 * e]! | (bytes[positionsAt + 2 * e + 1]! << 8)] = words[valuesAt + e]!;
  return words[(at + 4) >> 2]!;
}

/**
 * Like unpackInts, for one word of float64 values: writes value << shift into out[2i + lane]
 * (a Float64Array's Int32 view: lane 1 the high words, lane 0 the low ones), so a chunk's sums
 * are put together as they are unpacked instead of in a pass of their own. A stream with
 * exceptions (rare in sums) goes through unpackInts and `scratch`. Returns the byte offset after it.
 */
export function unpackIntsInterleaved(bytes: Uint8Array, words: Int32Array, at: number, n: number, out: Int32Array, lane: number, shift: number, scratch: Int32Array): number {
  const exceptions = bytes[at]! | (bytes[at + 1]! << 8);
  if (exceptions > 0) {
    const end = unpackInts(bytes, words, at, n, scratch);
    for (let i = 0; i < n; i++) out[2 * i + lane] = scratch[i]! << shift;
    return end;
  }
  const groups = (n + GROUP - 1) >>> 5;
  const widthsAt = at + 8;
  let wi = (widthsAt + pad4(groups)) >> 2;
  let p = words[(at + 4) >> 2]!;
  for (let g = 0, o = lane; g < groups; g++, o += 2 * GROUP) {
    const w = bytes[widthsAt + g]!;
    if (w === 0) {
      const v = p << shift;
      for (let j = 0; j < 2 * GROUP; j += 2) out[o + j] = v;
    } else p = INTERLEAVED_RUNS[w]!(words, wi, out, o, p, shift);
    wi += w;
  }
  return (wi + 1) << 2;
}

/** Exceptions a group can have before it is cheaper to unpack it apart than to move the rest of it for each. */
const FEW = 2;

/** Whether more than FEW exceptions from the e-th on lie before `end`. */
function manyIn(bytes: Uint8Array, positionsAt: number, e: number, exceptions: number, end: number): boolean {
  const k = e + FEW;
  return k < exceptions && (bytes[positionsAt + 2 * k]! | (bytes[positionsAt + 2 * k + 1]! << 8)) < end;
}

type Unpack = (words: Int32Array, wi: number, out: Int32Array, o: number) => void;

/** One function per width that only unpacks a group (straight-line, like RUNS). */
const UNPACK: Array<Unpack | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : unpackOf(w)));

function unpackOf(w: number): Unpack {
  return new Function("words", "wi", "out", "o", groupSource(w, (j) => `out[o + ${j}] = v;\n`)) as Unpack;
}

/**
 * Straight-line source that reads the 32 values of a group packed at width w from words[wi…],
 * each into `v` in turn, followed by what `each(j)` does with value j. Constant shifts and masks:
 * 1.3–1.6× faster than a loop over a variable width, which V8 cannot unroll (measured in one
 * process on the simulator's bench signals). Built here from numbers only — nothing from
 * outside reaches it.
 */
function groupSource(w: number, each: (j: number) => string): string {
  const mask = maskOf(w);
  let code = "let c = words[wi];\nlet v = 0;\n";
  for (let j = 0, bit = 0; j < GROUP; j++, bit += w) {
    const k = bit >>> 5;
    const sh = bit & 31;
    if (sh + w > 32) code += `v = ((c >>> ${sh}) | ((c = words[wi + ${k + 1}]) << ${32 - sh})) & ${mask};\n`;
    else code += `v = ${sh === 0 ? "c" : `(c >>> ${sh})`} & ${mask};\n${sh + w === 32 && j < GROUP - 1 ? `c = words[wi + ${k + 1}];\n` : ""}`;
    code += each(j);
  }
  return code;
}

/** Source that adds value v's zigzag delta to p. */
const ADD_DELTA = "p = (p + ((v >>> 1) ^ (0 - (v & 1)))) | 0;\n";

const unzigzag = (r: number) => (r >>> 1) ^ (0 - (r & 1));

/** Moves the sign bit back from the bottom to the top (the inverse of signLast's packing). */
const signFirst = (v: number) => (v >>> 1) | (v << 31);

type Run = (words: Int32Array, wi: number, out: Int32Array, o: number, p: number) => number;

/**
 * One function per width (1–32) that unpacks a whole group of 32 values from words[wi…] into
 * out[o…] and undoes zigzag and delta from p; returns the last value (groupSource).
 */
const RUNS: Array<Run | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : runOf(w, false)));
/** The same, storing each value with its sign bit moved back to the top (blocks packed sign-last). */
const RUNS_SIGN_LAST: Array<Run | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : runOf(w, true)));

function runOf(w: number, signLast: boolean): Run {
  const code = groupSource(w, (j) => `${ADD_DELTA}out[o + ${j}] = ${signLast ? "(p >>> 1) | (p << 31)" : "p"};\n`);
  return new Function("words", "wi", "out", "o", "p", `${code}return p;`) as Run;
}

type InterleavedRun = (words: Int32Array, wi: number, out: Int32Array, o: number, p: number, shift: number) => number;

/** RUNS writing every second slot, value << shift (unpackIntsInterleaved). */
const INTERLEAVED_RUNS: Array<InterleavedRun | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : interleavedRunOf(w)));

function interleavedRunOf(w: number): InterleavedRun {
  const code = groupSource(w, (j) => `${ADD_DELTA}out[o + ${2 * j}] = p << shift;\n`);
  return new Function("words", "wi", "out", "o", "p", "shift", `${code}return p;`) as InterleavedRun;
}

type CodesRun = (words: Int32Array, wi: number, f: Float32Array, o: number, p: number, q: number, k: Int32Array) => number;

/**
 * Like RUNS, for a stream of a converter's codes (blocks.ts, quantum.ts): each value is written
 * as code × q into a float32 array in the same pass, not stored as an integer and read back.
 * CODES_RUNS: the stream holds the codes; CODES2_RUNS: their first differences, added up in k[0].
 */
const CODES_RUNS: Array<CodesRun | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : codesRunOf(w, false)));
const CODES2_RUNS: Array<CodesRun | null> = Array.from({ length: 33 }, (_, w) => (w === 0 ? null : codesRunOf(w, true)));

function codesRunOf(w: number, second: boolean): CodesRun {
  const code = groupSource(w, (j) => ADD_DELTA + (second ? `s = (s + p) | 0;\nf[o + ${j}] = s * q;\n` : `f[o + ${j}] = p * q;\n`));
  return new Function("words", "wi", "f", "o", "p", "q", "k", `${second ? "let s = k[0];\n" : ""}${code}${second ? "k[0] = s;\n" : ""}return p;`) as CodesRun;
}

const group = new Int32Array(GROUP);
const sumOf = new Int32Array(1);

/**
 * Unpacks n codes packed at byte offset `at` (as unpackInts) and writes code × q into f[0..n)
 * as float32 (f needs room for ceil(n / 32) × 32); `second`: the stream holds the codes' first
 * differences. Returns the byte offset after the stream.
 */
export function unpackCodes(bytes: Uint8Array, words: Int32Array, at: number, n: number, f: Float32Array, q: number, second: boolean): number {
  const runs = second ? CODES2_RUNS : CODES_RUNS;
  const exceptions = bytes[at]! | (bytes[at + 1]! << 8);
  const groups = (n + GROUP - 1) >>> 5;
  const widthsAt = at + 8;
  let wi = (widthsAt + pad4(groups)) >> 2;
  let total = 0;
  for (let g = 0; g < groups; g++) total += bytes[widthsAt + g]!;
  const positionsAt = (wi + total + 1) << 2;
  const valuesAt = positionsAt + pad4(2 * exceptions);
  let e = 0;
  let nextException = exceptions > 0 ? bytes[positionsAt]! | (bytes[positionsAt + 1]! << 8) : NONE;
  let p = words[(at + 4) >> 2]!;
  sumOf[0] = 0;
  for (let g = 0, o = 0; g < groups; g++, o += GROUP) {
    const w = bytes[widthsAt + g]!;
    if (nextException >= o + GROUP) {
      if (w !== 0) p = runs[w]!(words, wi, f, o, p, q, sumOf);
      else if (!second) f.fill(p * q, o, o + GROUP);
      else for (let j = 0; j < GROUP; j++) f[o + j] = (sumOf[0] = (sumOf[0]! + p) | 0) * q;
      wi += w;
      continue;
    }
    // A group with exceptions: as integers first (unpackInts' way), then scaled.
    if (w === 0) group.fill(p);
    else p = RUNS[w]!(words, wi, group, 0, p);
    wi += w;
    while (nextException < o + GROUP) {
      const whole = words[(valuesAt >> 2) + e]!;
      const d = (unzigzag(whole) - unzigzag(whole & maskOf(w))) | 0;
      for (let i = nextException - o; i < GROUP; i++) group[i] = (group[i]! + d) | 0;
      p = (p + d) | 0;
      e++;
      nextException = e < exceptions ? bytes[positionsAt + 2 * e]! | (bytes[positionsAt + 2 * e + 1]! << 8) : NONE;
    }
    if (second) for (let j = 0; j < GROUP; j++) f[o + j] = (sumOf[0] = (sumOf[0]! + group[j]!) | 0) * q;
    else for (let j = 0; j < GROUP; j++) f[o + j] = group[j]! * q;
  }
  return valuesAt + 4 * exceptions;
}
