import { describe, expect, it } from "vitest";
import type uPlot from "uplot";
import { traceBand, type PathSink } from "~/ui/dashboard/bandPaths";
import { chartOptions } from "~/ui/dashboard/UPlotChart";

/** The polygons a band was traced as, each a list of [x, y]. */
function recorder() {
  const polygons: Array<Array<[number, number]>> = [];
  let open: Array<[number, number]> | null = null;
  const sink: PathSink = {
    moveTo: (x, y) => void polygons.push((open = [[x, y]])),
    lineTo: (x, y) => void open!.push([x, y]),
    closePath: () => void (open = null),
  };
  return { sink, polygons, closed: () => open === null };
}

// A 100 × 50 px plot at (10, 0): x 0…10 s, the value scale 0…100.
const plot = (times: number[], low: (number | null)[], high: (number | null)[]) =>
  ({ scales: { x: { min: 0, max: 10 }, "u:°C": { min: 0, max: 100 } }, bbox: { left: 10, top: 0, width: 100, height: 50 }, data: [times, [], low, high] }) as unknown as uPlot;

describe("a chart's min-max band", () => {
  it("is one polygon per run of buckets that have both edges: highs forward, lows back", () => {
    const times = [0, 1, 2, 3, 4, 5, 6];
    const low = [10, 20, 30, null, 40, 50, 60];
    const high = [30, 40, 50, 60, 60, 70, 80];
    const { sink, polygons, closed } = recorder();
    expect(traceBand(sink, plot(times, low, high), "u:°C", 2, 3, 0, 6)).toBe(true);
    expect(closed()).toBe(true);
    expect(polygons).toEqual([
      [[10, 35], [20, 30], [30, 25], [30, 35], [20, 40], [10, 45]],
      [[50, 20], [60, 15], [70, 10], [70, 20], [60, 25], [50, 30]],
    ]);
  });

  it("merges the buckets of one pixel column into their extremes, so dense data stays two points a column", () => {
    // 1,001 buckets over 100 px: ten a column.
    const times = Array.from({ length: 1001 }, (_, k) => k / 100);
    const low = times.map((_, k) => 40 - (k % 10));
    const high = times.map((_, k) => 60 + (k % 10));
    const { sink, polygons } = recorder();
    traceBand(sink, plot(times, low, high), "u:°C", 2, 3, 0, 1000);
    expect(polygons).toHaveLength(1);
    const points = polygons[0]!;
    expect(points.length).toBeLessThanOrEqual(2 * 101);
    // The highest high of a column (69) is its top, the lowest low (31) its bottom.
    expect(Math.min(...points.map(([, y]) => y))).toBeCloseTo(50 - 69 / 2);
    expect(Math.max(...points.map(([, y]) => y))).toBeCloseTo(50 - 31 / 2);
  });

  it("traces nothing for a lone bucket or before the scales are set", () => {
    const { sink, polygons } = recorder();
    expect(traceBand(sink, plot([0, 1, 2], [10, null, 10], [20, null, 20]), "u:°C", 2, 3, 0, 2)).toBe(true);
    expect(polygons).toEqual([]);
    const unset = { ...plot([0], [1], [2]), scales: { x: { min: null, max: null } } } as unknown as uPlot;
    expect(traceBand(sink, unset, "u:°C", 2, 3, 0, 0)).toBe(false);
  });

  it("is drawn with its mean's line; the edges themselves draw nothing, uPlot's clipped bands are not used", () => {
    const vars = [
      { Id: "a", Name: "Oil", Unit: "°C", DataFormat: "FLOAT" },
      { Id: "b", Name: "Air", Unit: "°C", DataFormat: "FLOAT" },
    ];
    const opts = chartOptions({ vars, from: 0, to: 10_000, locale: "en-US", timeZone: "UTC", syncKey: "t" }, { tzDate: (d: Date) => d } as unknown as typeof uPlot, true, { width: 800, height: 300 });
    expect(opts.bands ?? []).toEqual([]);
    expect(opts.series).toHaveLength(1 + 3 * 2);
    expect(opts.series.slice(1, 3).every((s) => typeof s.paths === "function")).toBe(true);
    for (const edge of opts.series.slice(3)) expect(edge.paths!(null as unknown as uPlot, 0, 0, 0)).toBeNull();
    // Without min and max: uPlot's own line only.
    const plain = chartOptions({ vars, from: 0, to: 10_000, locale: "en-US", timeZone: "UTC", syncKey: "t" }, { tzDate: (d: Date) => d } as unknown as typeof uPlot, false, { width: 800, height: 300 });
    expect(plain.series).toHaveLength(3);
    expect(plain.series[1]!.paths).toBeUndefined();
  });
});
