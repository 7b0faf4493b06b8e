export type SimOptions = {
  /** Seeds every random choice and sample; IDs derive from it too. */
  seed?: number;
  /** Sample rate of the test bench controller (must divide 1,000,000 µs evenly). */
  benchRateHz?: number;
  /** Analog input channels of the bench (1–256). */
  benchChannels?: number;
  /** Batch timer; samples are aligned to wall-clock time, so a late timer loses nothing. */
  tickMs?: number;
  /** Retention of every simulated source, seconds (null = keep forever). Applied when a source is first created. */
  retentionSec?: number | null;
  /** Seconds of history to generate into the store before going live (skips what is stored). */
  backfillSec?: number;
  /** Clock, for tests. */
  now?: () => number;
};

export type ResolvedSim = Required<Omit<SimOptions, "now" | "retentionSec">> & { retentionSec: number | null; now: () => number };

export function resolveSim(o: SimOptions = {}): ResolvedSim {
  const benchRateHz = o.benchRateHz ?? 100;
  if (!(benchRateHz > 0) || !Number.isInteger(1e6 / benchRateHz)) {
    throw new Error(`Bench sample rate ${benchRateHz} Hz: 1,000,000 / rate must be a whole number of microseconds`);
  }
  const benchChannels = o.benchChannels ?? 16;
  if (!Number.isInteger(benchChannels) || benchChannels < 1 || benchChannels > 256) throw new Error("Bench channels must be 1–256");
  return {
    seed: (o.seed ?? 1) >>> 0,
    benchRateHz,
    benchChannels,
    tickMs: o.tickMs ?? 100,
    retentionSec: o.retentionSec === undefined ? 90 * 86400 : o.retentionSec,
    backfillSec: o.backfillSec ?? 0,
    now: o.now ?? Date.now,
  };
}

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, min: 60, h: 3600, d: 86400, w: 604800 };

/** "30d", "12h", "90m", "3600" (seconds) → seconds; NaN when it is not a duration. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|min|m|h|d|w)?\s*$/i.exec(text);
  if (!m) return Number.NaN;
  return Number(m[1]) * UNITS[(m[2] ?? "s").toLowerCase()]!;
}
