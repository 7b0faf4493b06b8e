import { gauss, smooth, uniform } from "./prng.ts";

/** Fills out[0..n) with samples start … start+n-1; NaN = no sample (the store keeps it as a gap). */
export type Fill = (out: Float32Array, start: number, n: number) => void;

export type SignalContext = { seed: number; stream: number; periodUs: number };

const hz = (c: SignalContext) => 1e6 / c.periodUs;
const seconds = (c: SignalContext, g: number) => (g * c.periodUs) / 1e6;
// Triangular noise in [-1, 1]: two hashes instead of a gaussian's four.
const noise = (c: SignalContext, g: number) => uniform(c.seed, c.stream, g * 2) + uniform(c.seed, c.stream, g * 2 + 1) - 1;
const param = (c: SignalContext, k: number) => uniform(c.seed, c.stream ^ 0x5bd1e995, k);

/** Bits of the bench controller's converters (the logger family's controllers acquire at 24 bits). */
export const CONVERTER_BITS = 24;
/**
 * The converter's own noise, RMS in LSB: about 21 effective bits, what a 24-bit delta-sigma
 * converter gives at tens to hundreds of samples per second.
 */
export const CONVERTER_NOISE_LSB = 8;

/**
 * What a 24-bit converter on [min, max] makes of a signal, as in real recordings: its noise
 * added, then quantised to one of its 2^24 codes (clipped at the ends of the range) and scaled
 * back to the channel's unit as float32. Gaps (NaN) stay gaps. The quantisation and noise are
 * what the store's packing meets in a user's data (docs/storage.md).
 */
export function converter(c: SignalContext, min: number, max: number, signal: Fill): Fill {
  const codes = 2 ** CONVERTER_BITS;
  const lsb = (max - min) / codes;
  const stream = c.stream ^ 0x2c1b3c6d;
  return (out, start, n) => {
    signal(out, start, n);
    for (let i = 0; i < n; i++) {
      const x = out[i]!;
      if (x !== x) continue;
      const code = Math.round((x - min) / lsb + CONVERTER_NOISE_LSB * gauss(c.seed, stream, start + i));
      out[i] = min + Math.min(codes - 1, Math.max(0, code)) * lsb;
    }
  };
}

/** A slowly drifting temperature: minutes-long wander, a daily swing, a little sensor noise. */
export function temperature(c: SignalContext, base: number, swing: number): Fill {
  const r = hz(c);
  const slow = Math.max(1, Math.round(r * 600));
  const mid = Math.max(1, Math.round(r * 45));
  const phase = param(c, 1) * 2 * Math.PI;
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      const day = Math.sin((2 * Math.PI * seconds(c, g)) / 86400 + phase);
      out[i] = base + swing * (0.6 * smooth(c.seed, c.stream, g, slow) + 0.25 * day) + 0.3 * smooth(c.seed, c.stream + 1, g, mid) + 0.04 * noise(c, g);
    }
  };
}

/** Pressure holding set points that change every few minutes, with pump ripple. */
export function pressure(c: SignalContext, base: number, step: number): Fill {
  const r = hz(c);
  const hold = Math.max(1, Math.round(r * 180));
  const ripple = Math.min(r * 0.4, 25);
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      const level = Math.floor(uniform(c.seed, c.stream, Math.floor(g / hold)) * 4);
      const t = seconds(c, g);
      out[i] = base + step * level + 0.05 * step * Math.sin(2 * Math.PI * ripple * t) + 0.01 * step * noise(c, g);
    }
  };
}

/**
 * Noise of a strain gauge bridge's amplifier, µm/m rms: of the order of 0.1 µV/V at tens of Hz of
 * bandwidth, 0.2 µm/m at gauge factor 2 — about 840 LSB of the bench's 24-bit converter on its
 * ±2000 µm/m range (12–13 effective bits: the amplifier, not the converter, limits a bridge).
 * Until issue 29's second part this was ±2 % of the cycle's amplitude (2.4–4.2 µm/m rms on the
 * bench's gauges, 12–21 times more), far above a bridge amplifier's noise (docs/storage.md,
 * "The simulator's signals").
 */
export const STRAIN_NOISE_RMS = 0.2;
/** Triangular noise in [-1, 1] has an rms of 1/√6. */
const TRIANGULAR_RMS = 1 / Math.sqrt(6);

/** Strain under cyclic loading (a fatigue test at 0.5 Hz) with a slowly creeping mean. */
export function strain(c: SignalContext, amplitude: number): Fill {
  const r = hz(c);
  const creep = Math.max(1, Math.round(r * 900));
  const phase = param(c, 2) * 2 * Math.PI;
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      const t = seconds(c, g);
      out[i] = amplitude * Math.sin(2 * Math.PI * 0.5 * t + phase) + 0.1 * amplitude * smooth(c.seed, c.stream, g, creep) + (STRAIN_NOISE_RMS / TRIANGULAR_RMS) * noise(c, g);
    }
  };
}

/**
 * Vibration with a real spectrum: lines at fixed fractions of the sample rate (rotation,
 * gear mesh, a bearing tone) over broadband noise, so an FFT shows peaks at any rate.
 */
export function vibration(c: SignalContext, scale: number): Fill {
  const r = hz(c);
  const lines = [
    { f: 0.083 * r, a: 1.0 * scale, p: param(c, 3) * 2 * Math.PI },
    { f: 0.217 * r, a: 0.45 * scale, p: param(c, 4) * 2 * Math.PI },
    { f: 0.331 * r, a: 0.2 * scale, p: param(c, 5) * 2 * Math.PI },
  ];
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      const t = seconds(c, g);
      let v = 0.15 * scale * noise(c, g);
      for (const l of lines) v += l.a * Math.sin(2 * Math.PI * l.f * t + l.p);
      out[i] = v;
    }
  };
}

/** Shaft speed: steps between test points, ramps between them. */
export function speed(c: SignalContext, max: number): Fill {
  const r = hz(c);
  const hold = Math.max(1, Math.round(r * 240));
  const level = (k: number) => Math.round(uniform(c.seed, c.stream, k) * 4) / 4;
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      const k = Math.floor(g / hold);
      const f = Math.min(1, ((g - k * hold) / hold) * 8);
      out[i] = max * (level(k - 1) + (level(k) - level(k - 1)) * f) + 2 * noise(c, g);
    }
  };
}

/** A digital input that holds each state for a random while (probability `p` of being 1). */
export function digital(c: SignalContext, p: number, holdSec: number): Fill {
  const hold = Math.max(1, Math.round(hz(c) * holdSec));
  return (out, start, n) => {
    for (let i = 0; i < n; i++) out[i] = uniform(c.seed, c.stream, Math.floor((start + i) / hold)) < p ? 1 : 0;
  };
}

/** An output: whatever was last written to it. */
export function held(read: () => number): Fill {
  return (out, _start, n) => out.fill(read(), 0, n);
}

/** Smooth wander between lo and hi with noise, e.g. humidity or mains voltage. */
export function wander(c: SignalContext, lo: number, hi: number, spanSec: number, jitter: number): Fill {
  const span = Math.max(1, Math.round(hz(c) * spanSec));
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      out[i] = lo + ((hi - lo) * (smooth(c.seed, c.stream, g, span) + 1)) / 2 + jitter * noise(c, g);
    }
  };
}

/** Daylight curve: solar radiation, 0 at night. */
export function solar(c: SignalContext, peak: number): Fill {
  const clouds = Math.max(1, Math.round(hz(c) * 300));
  return (out, start, n) => {
    for (let i = 0; i < n; i++) {
      const g = start + i;
      const day = Math.sin((2 * Math.PI * ((seconds(c, g) % 86400) - 6 * 3600)) / 86400 / 1);
      const cloud = 0.75 + 0.25 * smooth(c.seed, c.stream, g, clouds);
      out[i] = Math.max(0, peak * day * cloud);
    }
  };
}

/** Electric load: base + a cycle with a closed-form integral, so the energy counter needs no history. */
export function load(c: SignalContext, baseKw: number, swingKw: number, periodSec: number) {
  const w = (2 * Math.PI) / periodSec;
  const kw = (t: number) => baseKw + swingKw * Math.sin(w * t);
  const kwh = (t: number) => (baseKw * t - (swingKw / w) * (Math.cos(w * t) - 1)) / 3600;
  return { kw, kwh, seconds: (g: number) => seconds(c, g), noise: (g: number) => noise(c, g) };
}
