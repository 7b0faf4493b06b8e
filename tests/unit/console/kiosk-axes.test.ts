import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { chartOptions } from "~/ui/dashboard/UPlotChart";

// Issue 28 §B1: on a kiosk the root font size follows the screen, and the canvas charts' axes
// with it (chartOptions' `scale`: the root size over 16 px); ordinary pages keep uPlot's sizes.
describe("uPlot axes at the kiosk's scale", () => {
  const vars = [
    { Id: "a", Name: "Oil pressure", Unit: "bar", DataFormat: "FLOAT" },
    { Id: "b", Name: "Oil temperature", Unit: "°C", DataFormat: "FLOAT" },
  ];
  const from = Date.UTC(2026, 0, 1, 10, 0, 0);
  const base = { vars, from, to: from + 3_600_000, locale: "en-US", timeZone: "Europe/Rome", syncKey: "t" };
  const fakeUPlot = { tzDate: (d: Date) => d } as unknown as typeof uPlot;
  type Space = (u: unknown, i: number, min: number, max: number, plotDim: number) => number;

  it("leaves an ordinary page's axes at uPlot's own sizes", () => {
    const opts = chartOptions(base, fakeUPlot, false, { width: 800, height: 300 });
    for (const axis of opts.axes!) {
      expect(axis.font).toBeUndefined();
      expect(axis.size).toBeUndefined();
      expect(axis.space).toBeUndefined();
    }
    expect(opts.axes![1]!.labelSize).toBe(16);
    expect(opts.axes![1]!.labelFont).toBe("bold 12px system-ui, sans-serif");
    expect(opts.padding).toBeUndefined();
  });

  it("draws a 1080p kiosk's axes at 24 px (4K: 48 px) with room, spacing and padding to match", () => {
    for (const [scale, px] of [
      [2, 24],
      [4, 48],
    ] as const) {
      const opts = chartOptions(base, fakeUPlot, false, { width: 800, height: 300 }, false, scale);
      const [x, left, right] = opts.axes!;
      for (const axis of [x!, left!, right!]) expect(axis.font).toMatch(new RegExp(`^${px}px `));
      expect(left!.labelFont).toBe(`bold ${px}px system-ui, sans-serif`);
      expect(left!.labelSize).toBe(16 * scale);
      // The time axis is tall enough for a line of its text below the ticks.
      expect(x!.size as number).toBeGreaterThanOrEqual(px * 1.25);
      expect(x!.ticks!.size).toBe(6 * scale);
      // Value labels at least 1.2 lines apart; on a tall plot an eighth of it apart, not a ladder.
      const space = left!.space as Space;
      expect(space(null, 1, 0, 10, 100)).toBe(Math.round(px * 1.2));
      expect(space(null, 1, 0, 10, 1600)).toBe(200);
      expect(opts.padding![0]).toBe(Math.round(px * 0.6));
    }
  });

  it("reports how many value labels the first value axis drew", () => {
    const heard: number[] = [];
    const opts = chartOptions(base, fakeUPlot, false, { width: 800, height: 300 }, false, 2, (n) => heard.push(n));
    const values = (i: number) => opts.axes![i]!.values as (u: unknown, t: number[]) => string[];
    expect(values(1)(null, [0, 2.5, 5, 7.5])).toEqual(["0", "2.5", "5", "7.5"]);
    values(2)(null, [10, 20]);
    expect(heard).toEqual([4]);
  });
});
