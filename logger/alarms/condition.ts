import type { Condition } from "./types.ts";

export type ConditionChange = { active: boolean; t: number; value: number | null };

/**
 * One rule's condition over a stream of samples: limit with hysteresis, then on/off delay.
 * Pure and driven only by sample times (stale by the clock given to `check`), so the same
 * samples always give the same changes, however they are batched.
 */
export class ConditionState {
  private readonly c: Condition;
  /** The condition after hysteresis, before the delays. */
  private raw: boolean;
  /** The condition after the delays: what the alarm follows. */
  active: boolean;
  private pendingSince: number | null = null;
  private lastSample: number;
  private ref: { t: number; v: number } | null = null;
  lastValue: number | null = null;

  constructor(c: Condition, active: boolean, now: number) {
    this.c = c;
    this.raw = active;
    this.active = active;
    this.lastSample = now;
  }

  /** Feeds one sample (t in ms, NaN = gap); returns the change it causes, if any. */
  feed(t: number, v: number): ConditionChange | null {
    if (Number.isNaN(v)) return null;
    this.lastSample = t;
    this.lastValue = v;
    const raw = this.evaluate(t, v);
    if (raw === null) return null;
    this.raw = raw;
    return this.settle(t, v);
  }

  /** Stale data is the one condition the clock raises; the others follow samples only. */
  check(now: number): ConditionChange | null {
    if (this.c.Type !== "stale") return null;
    // A fresh sample clears it; time alone only raises it.
    if (now - this.lastSample > (this.c.StaleSec ?? 0) * 1000) this.raw = true;
    return this.settle(now, this.lastValue);
  }

  private evaluate(t: number, v: number): boolean | null {
    const { Type, High, Low, Deadband: db } = this.c;
    switch (Type) {
      case "high":
        return this.raw ? v > High! - db : v > High!;
      case "low":
        return this.raw ? v < Low! + db : v < Low!;
      case "range":
        return this.raw ? v > High! - db || v < Low! + db : v > High! || v < Low!;
      case "digital":
        return (v >= 0.5 ? 1 : 0) === this.c.State;
      case "stale":
        return false;
      case "rate": {
        // A rate is measured once per window, from the window's first sample to its last.
        if (!this.ref) {
          this.ref = { t, v };
          return null;
        }
        const dt = (t - this.ref.t) / 1000;
        if (dt < this.c.WindowSec) return null;
        const rate = Math.abs(v - this.ref.v) / dt;
        this.ref = { t, v };
        return this.raw ? rate > this.c.RatePerSec! - db : rate > this.c.RatePerSec!;
      }
    }
  }

  private settle(t: number, value: number | null): ConditionChange | null {
    if (this.raw === this.active) {
      this.pendingSince = null;
      return null;
    }
    this.pendingSince ??= t;
    const delay = (this.raw ? this.c.OnDelaySec : this.c.OffDelaySec) * 1000;
    if (t - this.pendingSince < delay) return null;
    this.active = this.raw;
    this.pendingSince = null;
    return { active: this.active, t, value };
  }
}
