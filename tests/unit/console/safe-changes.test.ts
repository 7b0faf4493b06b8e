import { describe, expect, it } from "vitest";
import type { ConfigOutput } from "~/schemas/config";
import { configChanges, type StoredConfig } from "~/schemas/configChanges";
import { outputValue, rangeText } from "~/ui/variables/outputValue";

// Issue 26 §5: a Simple Config save lists every changed setting old → new before it applies, and
// outputs take only what they can hold: On/Off for switches, a number within the range otherwise.

const stored: StoredConfig = {
  ProjectName: "Engine test cell",
  SampleRateHz: 100,
  DeviceName: "Test bench controller",
  Channels: [
    { VariableId: "v1", Enabled: true, Name: "Oil temperature", Unit: "°C", RangeMin: 0, RangeMax: 150, Precision: 1 },
    { VariableId: "v2", Enabled: true, Name: "Oil pressure", Unit: "bar", RangeMin: 0, RangeMax: 6, Precision: 2 },
  ],
};
const same = (): ConfigOutput => ({
  projectName: stored.ProjectName,
  sampleRate: 100,
  revision: 3,
  channels: stored.Channels.map((c) => ({ id: c.VariableId, enabled: c.Enabled, name: c.Name, unit: c.Unit, min: c.RangeMin, max: c.RangeMax, precision: c.Precision })),
});
const num = (n: number) => String(n);
const words = { on: "recording", off: "disabled" };

describe("Simple Config's changes", () => {
  it("lists nothing for an unchanged form", () => {
    expect(configChanges(stored, same(), num, words)).toEqual([]);
  });

  it("lists each changed setting with its old and new value, in the screen's order", () => {
    const next = same();
    next.sampleRate = 50;
    next.channels[1]!.enabled = false;
    next.channels[0]!.max = 200;
    next.projectName = "Cell 2";
    expect(configChanges(stored, next, num, words)).toEqual([
      { key: "config.changes.projectName", label: {}, from: "Engine test cell", to: "Cell 2" },
      { key: "config.changes.sampleRate", label: { device: "Test bench controller" }, from: "100 Hz", to: "50 Hz" },
      { key: "config.changes.range", label: { n: 1, name: "Oil temperature" }, from: "0 … 150", to: "0 … 200" },
      { key: "config.changes.enabled", label: { n: 2, name: "Oil pressure" }, from: "recording", to: "disabled" },
    ]);
  });
});

describe("output values", () => {
  const sw = { DataFormat: "BOOL", Unit: "", RangeMin: 0, RangeMax: 1 };
  const setpoint = { DataFormat: "FLOAT", Unit: "°C", RangeMin: 0, RangeMax: 100 };
  it("a switch is On or Off, never a typed 5", () => {
    expect(outputValue("1", sw)).toBe(1);
    expect(outputValue("off", sw)).toBe(0);
    expect(outputValue("5", sw)).toBe("not-a-switch");
  });
  it("a number lies within the variable's range, which the refusal names", () => {
    expect(outputValue("12,5", setpoint)).toBe(12.5);
    expect(outputValue("100", setpoint)).toBe(100);
    expect(outputValue("150", setpoint)).toBe("out-of-range");
    expect(outputValue("-1", setpoint)).toBe("out-of-range");
    expect(outputValue("12abc", setpoint)).toBe("not-a-number");
    expect(outputValue("Infinity", setpoint)).toBe("not-a-number");
    expect(rangeText(setpoint, (n) => n.toFixed(1))).toBe("0.0 … 100.0 °C");
    expect(rangeText({ ...setpoint, RangeMax: null }, String)).toBe("≥ 0 °C");
    expect(outputValue("1e9", { ...setpoint, RangeMax: null })).toBe(1e9);
  });
});
