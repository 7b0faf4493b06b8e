import { describe, expect, it } from "vitest";
import { ConditionState } from "../../../logger/alarms/condition.ts";
import type { ConditionChange } from "../../../logger/alarms/condition.ts";
import { nextState } from "../../../logger/alarms/lifecycle.ts";
import type { AlarmEvent } from "../../../logger/alarms/lifecycle.ts";
import type { AlarmState, Condition } from "../../../logger/alarms/types.ts";

const base: Condition = { Type: "high", High: null, Low: null, Deadband: 0, RatePerSec: null, WindowSec: 1, StaleSec: null, State: null, OnDelaySec: 0, OffDelaySec: 0 };

/** Feeds values one per second (t in ms from 0) and returns the changes as [t, active]. */
function run(c: Partial<Condition>, values: number[], stepMs = 1000): Array<[number, boolean]> {
  const s = new ConditionState({ ...base, ...c }, false, 0);
  const out: Array<[number, boolean]> = [];
  values.forEach((v, i) => {
    const ch = s.feed(i * stepMs, v);
    if (ch) out.push([ch.t, ch.active]);
  });
  return out;
}

describe("alarm conditions", () => {
  it("high limit with deadband: values crossing back and forth around the limit give one alarm", () => {
    expect(run({ High: 10, Deadband: 1 }, [9, 10.1, 9.9, 10.2, 9.5, 10.3, 9.1, 8.9, 9.5, 10.1])).toEqual([
      [1000, true],
      [7000, false],
      [9000, true],
    ]);
    // Without a deadband every crossing counts.
    expect(run({ High: 10 }, [9, 10.1, 9.9, 10.2])).toEqual([
      [1000, true],
      [2000, false],
      [3000, true],
    ]);
    // Exactly at the limit is not above it.
    expect(run({ High: 10 }, [10, 10, 10])).toEqual([]);
  });

  it("low limit with deadband", () => {
    expect(run({ Type: "low", Low: 5, Deadband: 0.5 }, [6, 4.9, 5.2, 4.8, 5.4, 5.5, 4.99])).toEqual([
      [1000, true],
      [5000, false],
      [6000, true],
    ]);
  });

  it("range: outside either limit, back inside past the deadband", () => {
    expect(run({ Type: "range", Low: 0, High: 10, Deadband: 1 }, [5, 10.5, 9.5, 8.9, -0.1, 0.5, 1, 5])).toEqual([
      [1000, true],
      [3000, false],
      [4000, true],
      [6000, false],
    ]);
  });

  it("rate of change is measured per window", () => {
    // 100 ms samples, 1 s window: a ramp of 5/s against a limit of 3/s, then flat.
    const ramp = [...Array.from({ length: 31 }, (_, i) => i * 0.5), ...Array.from({ length: 30 }, () => 15)];
    expect(run({ Type: "rate", RatePerSec: 3, WindowSec: 1 }, ramp, 100)).toEqual([
      [1000, true],
      [4000, false],
    ]);
  });

  it("digital state", () => {
    expect(run({ Type: "digital", State: 1 }, [0, 0, 1, 1, 0, 1])).toEqual([
      [2000, true],
      [4000, false],
      [5000, true],
    ]);
    expect(run({ Type: "digital", State: 0 }, [1, 0, 1])).toEqual([
      [1000, true],
      [2000, false],
    ]);
  });

  it("stale data: raised by the clock, cleared by a fresh sample; gaps (NaN) are no samples", () => {
    const s = new ConditionState({ ...base, Type: "stale", StaleSec: 5 }, false, 0);
    expect(s.feed(1000, 1)).toBeNull();
    expect(s.check(5000)).toBeNull();
    expect(s.feed(5500, Number.NaN)).toBeNull();
    expect(s.check(6001)).toEqual({ active: true, t: 6001, value: 1 });
    expect(s.check(7000)).toBeNull();
    expect(s.feed(8000, 2)).toEqual({ active: false, t: 8000, value: 2 });
    // Other types ignore the clock.
    const high = new ConditionState({ ...base, High: 1 }, false, 0);
    expect(high.check(1e9)).toBeNull();
  });

  it("on-delay: the condition must hold for the delay; a blip does not alarm", () => {
    // High 10, on-delay 2 s, samples every 500 ms.
    const blip = [11, 11, 11, 9, 11, 11, 11, 11, 11];
    expect(run({ High: 10, OnDelaySec: 2 }, blip, 500)).toEqual([[4000, true]]);
    expect(run({ High: 10, OnDelaySec: 2 }, [11, 11, 11, 9], 500)).toEqual([]);
  });

  it("off-delay: the alarm stays until the condition has been gone for the delay", () => {
    const values = [11, 9, 9, 11, 9, 9, 9, 9];
    expect(run({ High: 10, OffDelaySec: 2 }, values, 1000)).toEqual([
      [0, true],
      [6000, false],
    ]);
  });

  it("is deterministic: the same samples give the same changes however they are batched", () => {
    const values = Array.from({ length: 5000 }, (_, i) => 10 + 3 * Math.sin(i / 37) + ((i * 7919) % 13) / 10);
    const cond = { High: 12, Low: 8, Type: "range" as const, Deadband: 0.4, OnDelaySec: 0.05, OffDelaySec: 0.1 };
    const once = run(cond, values, 10);
    const s = new ConditionState({ ...base, ...cond }, false, 0);
    const batched: ConditionChange[] = [];
    for (let i = 0; i < values.length; i += 333) {
      values.slice(i, i + 333).forEach((v, j) => {
        const ch = s.feed((i + j) * 10, v);
        if (ch) batched.push(ch);
      });
    }
    expect(once.length).toBeGreaterThan(4);
    expect(batched.map((c) => [c.t, c.active])).toEqual(once);
  });
});

describe("alarm lifecycle (ISA-18.2)", () => {
  const S: AlarmState[] = ["Normal", "ActiveUnacknowledged", "ActiveAcknowledged", "ReturnedUnacknowledged", "Shelved", "OutOfService"];
  // Rows: state; columns: activate, clear, acknowledge, shelve, unshelve (condition active / not), disable, enable (active / not).
  const table: Record<AlarmState, Array<AlarmState | null>> = {
    Normal: ["ActiveUnacknowledged", null, null, "Shelved", null, null, "OutOfService", null, null],
    ActiveUnacknowledged: [null, "ReturnedUnacknowledged", "ActiveAcknowledged", "Shelved", null, null, "OutOfService", null, null],
    ActiveAcknowledged: [null, "Normal", null, "Shelved", null, null, "OutOfService", null, null],
    ReturnedUnacknowledged: ["ActiveUnacknowledged", null, "Normal", "Shelved", null, null, "OutOfService", null, null],
    Shelved: [null, null, null, "Shelved", "ActiveUnacknowledged", "Normal", "OutOfService", null, null],
    OutOfService: [null, null, null, null, null, null, null, "ActiveUnacknowledged", "Normal"],
  };
  const columns: Array<[AlarmEvent, boolean]> = [
    ["activate", true],
    ["clear", false],
    ["acknowledge", true],
    ["shelve", true],
    ["unshelve", true],
    ["unshelve", false],
    ["disable", true],
    ["enable", true],
    ["enable", false],
  ];
  it.each(S)("from %s", (state) => {
    expect(columns.map(([event, active]) => nextState(state, event, active))).toEqual(table[state]);
  });
});
