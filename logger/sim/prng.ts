import { nameUuid } from "../uuid.ts";

// Counter-based randomness: a sample's noise depends only on (seed, stream, index), never on
// how the samples were batched, so live runs, backfills and tests produce identical values.

/** 32-bit integer hash of (a, b, c) (murmur3 finaliser over a simple mix). */
export function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (b + 0x7f4a7c15), 0xc2b2ae35);
  h ^= c + Math.imul(h >>> 15, 0x27d4eb2d);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Uniform in [0, 1) for sample `index` (any integer below 2^53) of `stream`. */
export function uniform(seed: number, stream: number, index: number): number {
  const lo = index >>> 0;
  const hi = Math.floor(index / 4294967296) >>> 0;
  return hash3(seed ^ hi, stream, lo) / 4294967296;
}

/** Roughly normal (sum of four uniforms, scaled to unit variance). */
export function gauss(seed: number, stream: number, index: number): number {
  const s = uniform(seed, stream, index * 4) + uniform(seed, stream, index * 4 + 1) + uniform(seed, stream, index * 4 + 2) + uniform(seed, stream, index * 4 + 3);
  return (s - 2) * 1.7320508;
}

/** Smooth noise in [-1, 1]: random knots every `span` samples, cosine-interpolated. */
export function smooth(seed: number, stream: number, index: number, span: number): number {
  const k = Math.floor(index / span);
  const f = (index - k * span) / span;
  const a = uniform(seed, stream, k) * 2 - 1;
  const b = uniform(seed, stream, k + 1) * 2 - 1;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return a + (b - a) * w;
}

/** Sequential generator for structure (not samples): mulberry32. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID (version 5 layout) that depends only on the seed and the name. */
export function stableUuid(seed: number, name: string): string {
  return nameUuid(`loggia-sim:${seed}:${name}`);
}
