// Samples of a converter: float32 values that are integer multiples of one quantum (the
// converter's LSB in the channel's unit), v = fround(k × q). A 24-bit converter's value scaled to
// a range around zero (±10 V, ±2000 µm/m, ±50 m/s²) is one: its float32 carries the code's 24
// bits, but in a float32's own steps (its ulp, finer near zero and coarser away from it) the
// codes are 8–16 ulps apart and a swing through zero crosses a dozen powers of two — the bit
// patterns' differences are 3–4 bits wider than the codes'. Packing the codes k instead (their
// differences, or their second differences for a swing) is lossless where it holds, and the
// samples where it does not (a gap, −0, a value off the grid) are kept whole as exceptions.
//
// The quantum is found in the block itself (the row says what it is, so a row is read without
// knowing where it came from): the smallest values of a converter's block are exact multiples of
// q — near zero a float32 has room for the whole product — and the exact remainders of float64
// division (Euclid) give their greatest common divisor, q itself as soon as two of their codes
// share no factor. Whether q holds is then checked on every sample.

/** How many of the smallest values go into the greatest common divisor. */
const SMALLEST = 8;
/**
 * Euclid's steps on two codes below 2^29: at most ~43 (consecutive Fibonacci numbers are the
 * worst case); more means the values are no multiples of one quantum, and stopping there keeps
 * a block without one (a temperature far from zero) cheap to pack.
 */
const EUCLID_STEPS = 44;
/** Codes stay within int32 with room for their differences. */
const MAX_CODE = 2 ** 29;

const smallest = new Float64Array(SMALLEST);

/**
 * The quantum of the block's finite non-zero samples, or 0 when they have none: the greatest
 * common divisor of the SMALLEST of them by magnitude, if they are all exact multiples of one.
 */
export function findQuantum(f: Float32Array, n: number): number {
  let have = 0;
  let top = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const v = f[i]!;
    const a = v < 0 ? -v : v;
    if (!(a < top) || a === 0) continue; // NaN, ±Inf, not among the smallest, ±0
    // Insert into the SMALLEST least magnitudes so far (ascending; top: the largest kept).
    let j = have < SMALLEST ? have++ : SMALLEST - 1;
    while (j > 0 && smallest[j - 1]! > a) {
      smallest[j] = smallest[j - 1]!;
      j--;
    }
    smallest[j] = a;
    if (have === SMALLEST) top = smallest[SMALLEST - 1]!;
  }
  if (have < 2) return 0;
  let g = smallest[0]!;
  for (let i = 1; i < have; i++) {
    let x = smallest[i]!;
    let y = g;
    let steps = 0;
    while (y !== 0) {
      const r = x % y;
      x = y;
      y = r;
      if (++steps > EUCLID_STEPS) return 0;
    }
    g = x;
  }
  return g;
}

/**
 * The codes of f[0..n) on quantum q into codes[], NaN-free: a sample off the grid takes the code
 * before it (no step to pack) and goes to positions[]/whole[] as its bit pattern. Returns how
 * many went there, or -1 past `limit`.
 */
export function toCodes(f: Float32Array, bits: Int32Array, n: number, q: number, codes: Int32Array, positions: Uint16Array, whole: Int32Array, limit: number): number {
  let e = 0;
  let k = 0;
  // A multiplication instead of a division per sample: a code it misses by one is caught below.
  const inverse = 1 / q;
  for (let i = 0; i < n; i++) {
    const v = f[i]!;
    const c = Math.round(v * inverse);
    // Equal values, and not −0 for a 0 (nor NaN, never equal): the grid gives back this sample.
    if (Math.fround(c * q) === v && (v !== 0 || bits[i] === 0) && c < MAX_CODE && c > -MAX_CODE) k = c;
    else {
      if (e === limit) return -1;
      positions[e] = i;
      whole[e++] = bits[i]!;
    }
    codes[i] = k;
  }
  return e;
}
