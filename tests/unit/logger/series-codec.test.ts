import { randomFillSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BLOCK_ROOM, BLOCK_SAMPLES, CHUNK_BUCKETS, decodeBlock, decodeBlockInto, decodeChunk, emptyChunk, encodeBlock, encodeChunk, isPacked, packBlock, packChunk } from "../../../logger/store/series/blocks.ts";
import type { Chunk } from "../../../logger/store/series/blocks.ts";
import { packedBound, packInts } from "../../../logger/store/series/packing.ts";
import { gauss, mulberry32 } from "../../../logger/sim/prng.ts";
import { VarSeries } from "../../../logger/store/series/writer.ts";

const bitsOf = (a: Float32Array, n = a.length) => Array.from(new Uint32Array(a.buffer, a.byteOffset, n));

/** A block of bit patterns (given as uint32) as float32 samples. */
function fromBits(bits: number[]): Float32Array {
  const a = new Float32Array(bits.length);
  new Uint32Array(a.buffer).set(bits);
  return a;
}

function pattern(n: number, f: (i: number) => number): Float32Array {
  return fromBits(Array.from({ length: n }, (_, i) => f(i) >>> 0));
}

const f32bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0]!;

// Every edge a float32 sample may hold: quiet and signalling NaNs with payloads, both zeros,
// both infinities, the smallest and largest subnormals and normals.
const EDGES = [0x7fc00000, 0xffc00000, 0x7fa00001, 0x7f800001, 0xffffffff, 0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff];

const into = new Float32Array(BLOCK_ROOM);

function roundTrip(a: Float32Array, n: number): Uint8Array {
  const row = packBlock(a, n);
  const back = decodeBlock(row);
  expect(back.length).toBe(n);
  expect(bitsOf(back)).toEqual(bitsOf(a, n));
  // Into the caller's array, over whatever an earlier block left there.
  into.fill(Number.NaN);
  expect(decodeBlockInto(row, into)).toBe(n);
  expect(bitsOf(into, n)).toEqual(bitsOf(a, n));
  return row;
}

describe("series codec: raw blocks", () => {
  // [name, samples, at most this part of the plain size when packed (null: need not be smaller)]
  const kinds: Array<[string, Float32Array, number | null]> = (() => {
    const rnd = mulberry32(5);
    const random = new Float32Array(BLOCK_SAMPLES);
    randomFillSync(new Uint8Array(random.buffer));
    const lsb = 170 / 2 ** 24;
    return [
      ["edge patterns in turn", pattern(BLOCK_SAMPLES, (i) => EDGES[i % EDGES.length]!), null],
      ["edge patterns at random", pattern(BLOCK_SAMPLES, () => EDGES[Math.floor(rnd() * EDGES.length)]!), null],
      ["constant", new Float32Array(BLOCK_SAMPLES).fill(23.5), 0.75],
      ["all NaN (a gap)", new Float32Array(BLOCK_SAMPLES).fill(Number.NaN), 0.75],
      ["negative zeros", new Float32Array(BLOCK_SAMPLES).fill(-0), 0.75],
      // A sign flip is a full-width delta: lossless, not smaller.
      ["alternating +1 / -1", pattern(BLOCK_SAMPLES, (i) => f32bits(i % 2 ? 1 : -1)), null],
      ["alternating value / NaN", pattern(BLOCK_SAMPLES, (i) => (i % 2 ? 0x7fc00000 : f32bits(i * 0.5))), null],
      ["subnormal ramp", pattern(BLOCK_SAMPLES, (i) => i + 1), 0.75],
      ["ramp", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => 10 + i * 0.001), 0.75],
      ["ramp through zero", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => -2 + i * 0.001), 0.75],
      ["random bit patterns", random, null],
      ["24-bit quantised noise on a range", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => -20 + Math.round((108 + 0.3 * Math.sin(i / 300)) / lsb + 16 * gauss(3, 4, i)) * lsb), 0.75],
      // Swings around zero: packed with the sign bit moved to the bottom.
      ["noise around zero", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => 4 * Math.sin(i * 0.52) + 1.8 * Math.sin(i * 1.36) + 0.6 * gauss(5, 6, i)), 0.92],
      // Exceptions (full-width residuals) at a group's first and last place, several in one group,
      // in the last partial group, as they are and sign-last: each moves the rest of its group.
      ["spikes packed as exceptions", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => ([0, 31, 32, 40, 41, 63, 95, 4064, 4070, 4079].includes(i % 4096) || i % 97 === 0 ? 3e30 * (i % 2 ? -1 : 1) : 100 + Math.round(gauss(2, 3, i) * 30) * 2 ** -16)), 0.75],
      ["spikes around zero (sign-last)", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => (i % 61 === 31 ? Number.NaN : 4 * Math.sin(i * 0.52) + 0.6 * gauss(5, 7, i))), 0.95],
      ["quantised noise with gaps", Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => (i % 1000 < 50 ? Number.NaN : 2.5 + Math.round(gauss(1, 2, i) * 40) * 2 ** -20)), 0.75],
    ];
  })();

  for (const [name, a, ratio] of kinds) {
    it(`round-trips ${name} bit for bit, at every length`, () => {
      for (const n of [1, 2, 31, 32, 33, 64, 1000, BLOCK_SAMPLES - 1, BLOCK_SAMPLES]) roundTrip(a, n);
      const row = roundTrip(a, BLOCK_SAMPLES);
      if (ratio !== null) {
        expect(isPacked(row)).toBe(true);
        expect(row.byteLength).toBeLessThan(BLOCK_SAMPLES * 4 * ratio);
      }
    });
  }

  it("keeps a block plain when packing would not make it smaller, and reads old plain rows as they are", () => {
    const random = new Float32Array(BLOCK_SAMPLES);
    randomFillSync(new Uint8Array(random.buffer));
    const row = packBlock(random, BLOCK_SAMPLES);
    expect(isPacked(row)).toBe(false);
    expect(row.byteLength).toBe(BLOCK_SAMPLES * 4);
    // A row written before packing existed: the float32 bytes, a multiple of 4 long.
    const old = encodeBlock(Float32Array.from({ length: 100 }, (_, i) => i - 50.25), 100);
    expect(isPacked(old)).toBe(false);
    expect(Array.from(decodeBlock(old))).toEqual(Array.from({ length: 100 }, (_, i) => i - 50.25));
    // Packed rows are never a multiple of 4 long, so the two forms cannot be confused.
    for (let n = 1; n <= 200; n++) {
      const row = packBlock(new Float32Array(n).fill(1), n);
      if (n >= 8) expect(isPacked(row), `n = ${n}`).toBe(true);
      expect(row.byteLength % 4 !== 0 || row.byteLength === 4 * n, `n = ${n}`).toBe(true);
    }
  });

  it("decodes rows handed out at any byte offset", () => {
    const a = Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => 88 + Math.round(gauss(7, 1, i) * 100) * 2 ** -17);
    const row = packBlock(a, BLOCK_SAMPLES);
    for (const offset of [1, 2, 3, 5]) {
      const shifted = new Uint8Array(row.byteLength + offset);
      shifted.set(row, offset);
      expect(bitsOf(decodeBlock(shifted.subarray(offset)))).toEqual(bitsOf(a));
    }
  });

  it("keeps every decoded block and chunk intact while many more are decoded (shared read buffers)", () => {
    const blocks = Array.from({ length: 150 }, (_, k) => Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => k * 1000 + Math.round(gauss(k, 1, i) * 50) / 64));
    const chunks = blocks.map((b, k) => {
      const c = emptyChunk();
      for (let i = 0; i < CHUNK_BUCKETS; i++) (c.min[i] = b[i]!), (c.max[i] = b[i]! + 1), (c.sum[i] = k + i / 8), (c.count[i] = 64);
      c.length = CHUNK_BUCKETS;
      return c;
    });
    // Blocks and chunks decoded in turn, all kept: more than one shared buffer's worth.
    const decoded = blocks.map((b, k) => [decodeBlock(packBlock(b, BLOCK_SAMPLES)), decodeChunk(packChunk(chunks[k]!))] as const);
    decoded.forEach(([b, c], k) => {
      expect(bitsOf(b), `block ${k}`).toEqual(bitsOf(blocks[k]!));
      expect(Array.from(c.sum.subarray(0, CHUNK_BUCKETS)), `chunk ${k}`).toEqual(Array.from(chunks[k]!.sum.subarray(0, CHUNK_BUCKETS)));
      expect(bitsOf(c.min, CHUNK_BUCKETS), `chunk ${k}`).toEqual(bitsOf(chunks[k]!.min, CHUNK_BUCKETS));
    });
  });

  describe("a converter's samples (multiples of one quantum) packed as codes", () => {
    // A 24-bit converter on ±2000 (a strain gauge's range): value = code × 4000 / 2^24.
    const q = 4000 / 2 ** 24;
    const onGrid = (x: number) => Math.fround(Math.round(x / q) * q);
    const sine = (i: number) => onGrid(450 * Math.sin((2 * Math.PI * i) / 80) + 0.2 * gauss(8, 9, i));
    const transformOf = (row: Uint8Array) => (isPacked(row) ? row[1] : null);
    const cases: Array<[string, (i: number) => number, number, number]> = [
      // [name, sample i, transform expected (2: codes' differences, 3: their second differences), at most this part of plain]
      ["a strain cycle through zero", sine, 3, 0.55],
      ["noise around zero", (i) => onGrid(3 * gauss(10, 11, i)), 2, 0.75],
      ["a cycle with gaps (NaN) in the middle and at the ends", (i) => (i < 3 || (i > 1000 && i < 1100) || i === 2222 || i > 4070 ? Number.NaN : sine(i)), 3, 0.6],
      ["a cycle with -0, +0, ±Inf and a NaN payload among its codes", (i) => (i % 500 === 7 ? -0 : i % 500 === 8 ? 0 : i === 1234 ? Number.POSITIVE_INFINITY : i === 1235 ? Number.NEGATIVE_INFINITY : i === 3000 ? fromBits([0x7fa00001])[0]! : sine(i)), 3, 0.6],
      // (The quantum is found among the smallest values of the first 1024: an off-grid value
      // among them, like 1e-30 there, leaves the block to the bit patterns.)
      ["a cycle with values off the grid (kept whole)", (i) => (i % 100 === 50 ? sine(i) + q / 3 : i % 333 === 1 && i > 1024 ? 1e-30 : sine(i)), 3, 0.6],
      ["the largest codes of a 24-bit converter (±2^23)", (i) => onGrid(1999.9 * Math.sin((2 * Math.PI * i) / 4000) + 0.2 * gauss(8, 9, i)), 3, 0.6],
    ];
    for (const [name, f, transform, ratio] of cases) {
      it(`round-trips ${name} bit for bit, at every length`, () => {
        const a = Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => f(i));
        for (const n of [1, 2, 31, 32, 33, 64, 600, 1000, BLOCK_SAMPLES - 1]) roundTrip(a, n);
        const row = roundTrip(a, BLOCK_SAMPLES);
        expect(transformOf(row)).toBe(transform);
        expect(row.byteLength).toBeLessThan(BLOCK_SAMPLES * 4 * ratio);
      });
    }

    it("falls back to the bit patterns, losslessly, when the grid does not hold or does not pay", () => {
      // Most samples off any grid: a quantum is found among the smallest, but too many miss it.
      const mixed = Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => (i % 4 === 0 ? sine(i) : sine(i) + 0.0001 * Math.sin(i)));
      expect([0, 1]).toContain(transformOf(roundTrip(mixed, BLOCK_SAMPLES)));
      // Far from zero on a grid coarser than nothing: a temperature's codes are its float32 steps.
      const warm = Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => 88 + Math.round(gauss(7, 1, i) * 100) * 2 ** -17);
      expect(transformOf(roundTrip(warm, BLOCK_SAMPLES))).toBe(0);
    });
  });

  describe("a tone far from zero frequency packed with a fitted predictor", () => {
    // A pump's ripple at 0.4 of the sample rate on a pressure's set point, noise on a 24-bit grid.
    const ripple = (i: number) => 3.3 + 0.04 * Math.sin(2 * Math.PI * 0.4 * i) + 0.003 * gauss(12, 13, i);
    const cases: Array<[string, (i: number) => number, number]> = [
      ["a ripple", ripple, 0.6],
      ["a ripple across a power of two, with gaps", (i) => ((i > 700 && i < 760) || i === 3001 ? Number.NaN : i > 2000 ? ripple(i) + 0.7 : ripple(i)), 0.7],
      // Wide differences: the predictor's products wrap around in int32, on both sides alike.
      ["a ripple with spikes (wrapping products)", (i) => ripple(i) + (i % 200 === 0 ? 3e20 : 0), 0.7],
    ];
    for (const [name, f, ratio] of cases) {
      it(`round-trips ${name} bit for bit, at every length`, () => {
        const a = Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => f(i));
        for (const n of [1, 2, 31, 33, 63, 64, 65, 600, BLOCK_SAMPLES - 1]) roundTrip(a, n);
        const row = roundTrip(a, BLOCK_SAMPLES);
        if (ratio < 1) {
          expect(row[1]).toBe(5);
          expect(row.byteLength).toBeLessThan(BLOCK_SAMPLES * 4 * ratio);
        }
      });
    }
  });

  it("reads rows of the one-chain predictor written before the two halves (transform 4)", () => {
    const ripple = (i: number) => 3.3 + 0.04 * Math.sin(2 * Math.PI * 0.4 * i) + 0.003 * gauss(12, 13, i);
    for (const n of [600, 1001, BLOCK_SAMPLES - 1, BLOCK_SAMPLES]) {
      const a = Float32Array.from({ length: n }, (_, i) => ripple(i));
      const now = packBlock(a, n);
      expect(now[1]).toBe(5);
      // The old layout, written as its packer did: u16 a1, u16 a2, then one running sum of residuals.
      const [a1, a2] = [now[4]! | (now[5]! << 8), now[6]! | (now[7]! << 8)].map((v) => (v << 16) >> 16) as [number, number];
      const bits = new Int32Array(a.buffer);
      const sums = new Int32Array(n);
      for (let i = 1, y = (sums[0] = bits[0]!), d1 = 0, d2 = 0; i < n; i++) {
        const d = (bits[i]! - bits[i - 1]!) | 0;
        y = (y + d - ((Math.imul(a1, d1) + Math.imul(a2, d2)) >> 12)) | 0;
        sums[i] = y;
        [d2, d1] = [d1, d];
      }
      const old = new Uint8Array(8 + packedBound(n) + 4);
      old.set(now.subarray(0, 8));
      old[1] = 4;
      const end = packInts(sums, n, old, 8);
      const row = old.slice(0, end % 4 === 0 ? end + 1 : end);
      expect(bitsOf(decodeBlock(row))).toEqual(bitsOf(a));
      into.fill(Number.NaN);
      expect(decodeBlockInto(row, into)).toBe(n);
      expect(bitsOf(into, n)).toEqual(bitsOf(a));
    }
  });

  it("decodes into the caller's array only when it has room for the whole last group", () => {
    const a = Float32Array.from({ length: BLOCK_SAMPLES }, (_, i) => 20 + i / 64);
    const row = packBlock(a, BLOCK_SAMPLES);
    expect(isPacked(row)).toBe(true);
    expect(() => decodeBlockInto(row, new Float32Array(BLOCK_SAMPLES))).toThrow(/room for 4080/);
    const plain = encodeBlock(a, 100);
    expect(decodeBlockInto(plain, into)).toBe(100);
    expect(bitsOf(into, 100)).toEqual(bitsOf(a, 100));
  });

  it("refuses a row of an unknown codec instead of misreading it", () => {
    const row = packBlock(new Float32Array(100).fill(5), 100);
    row[0] = 77;
    expect(() => decodeBlock(row)).toThrow(/codec 77/);
    row[0] = 1;
    row[1] = 9;
    expect(() => decodeBlock(row)).toThrow(/transform 9/);
  });
});

describe("series codec: rollup chunks", () => {
  function sameChunk(a: Chunk, b: Chunk): void {
    expect(a.length).toBe(b.length);
    const n = a.length;
    expect(bitsOf(a.min, n)).toEqual(bitsOf(b.min, n));
    expect(bitsOf(a.max, n)).toEqual(bitsOf(b.max, n));
    expect(Array.from(new Uint32Array(a.sum.buffer, a.sum.byteOffset, 2 * n))).toEqual(Array.from(new Uint32Array(b.sum.buffer, b.sum.byteOffset, 2 * n)));
    expect(bitsOf(a.count, n)).toEqual(bitsOf(b.count, n));
  }

  it("round-trips chunks bit for bit: gaps, edge values, exact float64 sums, every length", () => {
    const rnd = mulberry32(11);
    for (const n of [1, 2, 33, 500, CHUNK_BUCKETS]) {
      const c = emptyChunk();
      for (let i = 0; i < n; i++) {
        if (rnd() < 0.05) continue; // a gap: NaN min and max, sum 0, count 0
        const base = 80 + 5 * Math.sin(i / 50);
        const lsb = 2 ** -17;
        const lo = Math.fround(base - Math.round(rnd() * 100) * lsb);
        const hi = Math.fround(base + Math.round(rnd() * 100) * lsb);
        c.min[i] = lo;
        c.max[i] = hi;
        c.count[i] = rnd() < 0.9 ? 64 : 1 + Math.floor(rnd() * 63);
        c.sum[i] = c.count[i]! * Math.fround(base);
      }
      c.min[0] = -0;
      c.max[n - 1] = Number.POSITIVE_INFINITY;
      c.sum[n - 1] = Number.NEGATIVE_INFINITY;
      c.length = n;
      const row = packChunk(c);
      sameChunk(decodeChunk(row), c);
      if (n >= 500) {
        expect(isPacked(row)).toBe(true);
        expect(row.byteLength).toBeLessThan(n * 20 * 0.6);
      }
    }
  });

  it("round-trips the common chunk: equal counts, smooth sums without exceptions, at every length", () => {
    // The counts are one constant stream (one fill), the sums' words are unpacked straight into
    // place; a decode into a chunk holding other values shows nothing of them.
    for (const n of [1, 31, 32, 33, 500, CHUNK_BUCKETS]) {
      const c = emptyChunk();
      for (let i = 0; i < n; i++) {
        const v = Math.fround(20 + Math.sin(i / 40));
        c.min[i] = Math.fround(v - 2 ** -12);
        c.max[i] = Math.fround(v + 2 ** -12);
        c.count[i] = 64;
        c.sum[i] = 64 * v + i * 2 ** -20;
      }
      c.length = n;
      const into = emptyChunk();
      into.count.fill(7);
      into.sum.fill(-3.5);
      const row = packChunk(c);
      if (n >= 32) expect(isPacked(row)).toBe(true);
      sameChunk(decodeChunk(row, into), c);
      expect(Array.from(into.count.subarray(n))).toEqual(new Array(into.count.length - n).fill(0));
      expect(Array.from(into.sum.subarray(n))).toEqual(new Array(into.sum.length - n).fill(0));
    }
  });

  it("reads old plain chunks, keeps random chunks plain, and decodes into a given chunk", () => {
    const c = emptyChunk();
    for (let i = 0; i < CHUNK_BUCKETS; i++) {
      c.min[i] = -i;
      c.max[i] = i * 2;
      c.sum[i] = i * 1.5e9 + 0.125;
      c.count[i] = i % 65;
    }
    c.length = CHUNK_BUCKETS;
    sameChunk(decodeChunk(encodeChunk(c)), c);
    const noise = emptyChunk();
    randomFillSync(new Uint8Array(noise.min.buffer));
    randomFillSync(new Uint8Array(noise.max.buffer));
    randomFillSync(new Uint8Array(noise.sum.buffer));
    randomFillSync(new Uint8Array(noise.count.buffer));
    noise.length = CHUNK_BUCKETS;
    const row = packChunk(noise);
    expect(isPacked(row)).toBe(false);
    const into = emptyChunk();
    expect(decodeChunk(packChunk(c), into)).toBe(into);
    sameChunk(into, c);
  });
});

describe("series writer: the import packer's transient rows", () => {
  it("are the rows the store's own writer makes, chunk after chunk, gaps and all", () => {
    // The packer's writer hands rows over as views of its scratch and refills its chunks in
    // place; the store's writer gets fresh arrays. Over several level-1 chunks (816 × 64 samples
    // each) with gaps, both must hand over the same bytes under the same keys.
    const rows = (transient: boolean) => {
      const out: Array<[string, number[]]> = [];
      const vs = new VarSeries(7, 1000, (key, bytes) => out.push([String(key), Array.from(bytes)]), { pack: true, transient });
      const rand = mulberry32(11);
      let at = 0;
      for (let run = 0; run < 40; run++) {
        const n = 2000 + Math.floor(rand() * 9000);
        vs.append(at, Float32Array.from({ length: n }, (_, i) => Math.fround(20 + 5 * Math.sin((at + i) / 300) + 0.01 * (rand() - 0.5))));
        at += n + (run % 7 === 3 ? 70_000 : 0);
      }
      vs.flushPartial();
      return out;
    };
    const own = rows(false);
    expect(own.filter(([key]) => (BigInt(key) >> 40n) % 8n === 1n).length).toBeGreaterThan(5);
    expect(rows(true)).toEqual(own);
  });
});
