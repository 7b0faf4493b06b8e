import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { metadataComments, MAX_COMMENTS } from "~/services/export.server";
import type { Variable } from "~/services/logger/schemas";
import { formatOffset, offsetTicks } from "~/ui/dashboard/chartGeometry";
import { chartOptions } from "~/ui/dashboard/UPlotChart";
import { cmpAtInput, resolveComparison, wallShift } from "~/ui/history/compare";
import { resolveHistoryRange } from "~/ui/history/historyRange";

const ROME = "Europe/Rome";
const H = 3_600_000;
const measurements = [
  { ID: "m-a", Name: "Run A", Start: 0, End: 0, SourceId: "s", Kind: "Measurement", start: Date.UTC(2026, 2, 10, 8), end: Date.UTC(2026, 2, 10, 9), MetaData: [], Variables: [] },
  { ID: "m-b", Name: "Run B", Start: 0, End: 0, SourceId: "s", Kind: "Measurement", start: Date.UTC(2026, 2, 12, 14), end: Date.UTC(2026, 2, 12, 16), MetaData: [], Variables: [] },
];
const NOW = Date.UTC(2026, 2, 29, 12); // the Sunday Rome moves to summer time (02:00 → 03:00)

function compare(query: string) {
  const params = new URLSearchParams(query);
  const range = resolveHistoryRange(params, ROME, NOW, measurements);
  return { range, ...resolveComparison(params, range, ROME, measurements) };
}

describe("resolveComparison", () => {
  it("has no comparison without cmp, or when A itself is refused", () => {
    expect(compare("range=1h").compare).toBeNull();
    expect(compare("span=absolute&from=2026-01-02T10:00&to=2026-01-01T10:00&cmp=previous")).toMatchObject({ compare: null, problem: null });
  });

  it("puts the previous period right before A, with A's length", () => {
    const { range, compare: c } = compare("span=absolute&from=2026-03-20T10:00&to=2026-03-20T10:30&cmp=previous");
    expect(c).toMatchObject({ kind: "previous", shift: -30 * 60_000, from: range.base.from - 30 * 60_000, to: range.base.from });
  });

  it("shifts to the same wall time yesterday and a week before, across the DST change", () => {
    // A on 29 March 10:00 (UTC+2); yesterday 10:00 was UTC+1: 23 hours earlier, not 24.
    const day = compare("span=absolute&from=2026-03-29T10:00&to=2026-03-29T11:00&cmp=day").compare!;
    expect(day.shift).toBe(-23 * H);
    expect(day.to - day.from).toBe(H);
    const week = compare("span=absolute&from=2026-03-29T10:00&to=2026-03-29T11:00&cmp=week").compare!;
    expect(week.shift).toBe(-(7 * 24 - 1) * H);
    // An ordinary day: 24 hours.
    expect(wallShift(Date.UTC(2026, 2, 20, 9, 15, 30), 1, ROME)).toBe(-24 * H);
  });

  it("starts B where asked, in the user's zone or as epoch ms; refuses a missing start or B = A", () => {
    const at = compare("span=absolute&from=2026-03-20T10:00&to=2026-03-20T10:30&cmp=at&cmpAt=2026-03-19T08:00").compare!;
    expect(at.from).toBe(Date.UTC(2026, 2, 19, 7));
    expect(at.to - at.from).toBe(30 * 60_000);
    expect(compare(`span=absolute&from=2026-03-20T10:00&to=2026-03-20T10:30&cmp=at&cmpAt=${Date.UTC(2026, 2, 1)}`).compare!.from).toBe(Date.UTC(2026, 2, 1));
    expect(compare("span=absolute&from=2026-03-20T10:00&to=2026-03-20T10:30&cmp=at&cmpAt=").problem).toBe("history.analytics.cmpAtInvalid");
    // The input shows B's start in the user's zone, to the second, whichever way it came.
    expect(cmpAtInput(String(Date.UTC(2026, 2, 19, 7, 0, 42, 500)), ROME)).toBe("2026-03-19T08:00:42");
    expect(cmpAtInput("2026-03-19T08:00", ROME)).toBe("2026-03-19T08:00:00");
    expect(cmpAtInput("garbage", ROME)).toBe("garbage");
    expect(compare("span=absolute&from=2026-03-20T10:00&to=2026-03-20T10:30&cmp=at&cmpAt=2026-03-20T10:00").problem).toBe("history.analytics.cmpSame");
  });

  it("aligns another measurement at its start; the same or an unknown one is refused", () => {
    const { range, compare: c } = compare("span=measurement&m=m-a&cmp=m-b");
    expect(c).toMatchObject({ kind: "measurement", measurement: { ID: "m-b", Name: "Run B" }, from: measurements[1]!.start });
    // A's length (1 h), not B's (2 h).
    expect(c!.to - c!.from).toBe(range.base.to - range.base.from);
    expect(compare("span=measurement&m=m-a&cmp=m-a").problem).toBe("history.analytics.cmpSame");
    expect(compare("span=measurement&m=m-a&cmp=gone").problem).toBe("history.analytics.cmpNoMeasurement");
    // A measurement is comparable with any range A, from its own start.
    expect(compare("span=absolute&from=2026-03-20T10:00&to=2026-03-20T10:30&cmp=m-b").compare!.from).toBe(measurements[1]!.start);
  });
});

describe("offset time axis", () => {
  it("ticks at round steps counted from A's start, labelled as offsets", () => {
    const origin = Date.UTC(2026, 0, 1, 10, 0, 7, 300); // not on a round second
    const { ticks, step } = offsetTicks(origin, origin + 5 * 60_000, origin);
    expect(step).toBe(60_000);
    expect(ticks.map((t) => formatOffset(t - origin))).toEqual(["+0:00", "+1:00", "+2:00", "+3:00", "+4:00", "+5:00"]);
    // Zoomed in: the first tick is the first round offset inside the window.
    const zoomed = offsetTicks(origin + 95_000, origin + 160_000, origin);
    expect(zoomed.step).toBe(15_000);
    expect(formatOffset(zoomed.ticks[0]! - origin)).toBe("+1:45");
    expect(formatOffset(2 * H + 5_000)).toBe("+2:00:05");
  });
});

describe("metadataComments", () => {
  const v = (Id: string, Name: string, DeviceId: string, deviceName: string) => ({ Id, Name, DeviceId, deviceName }) as unknown as Variable & { deviceName: string };
  const rows = [
    { Type: "variable", ID: "v1", Key: "Sensor", Value: "PT100" },
    { Type: "variable", ID: "v9", Key: "Sensor", Value: "not exported" },
    { Type: "device", ID: "d1", Key: "Location", Value: "Cell 3" },
    { Type: "device", ID: "d2", Key: "Location", Value: "not exported" },
    { Type: "measurement", ID: "m", Key: "Operator", Value: "measurement rows come from the measurement" },
  ];
  it("writes the measurement's lines, then each exported variable's, then each of their devices' once", () => {
    expect(metadataComments(["Measurement: Run"], [v("v1", "Oil", "d1", "Bench"), v("v2", "Volt", "d1", "Bench")], rows)).toEqual(["Measurement: Run", "Variable Oil: Sensor: PT100", "Device Bench: Location: Cell 3"]);
  });
  it("stays within the logger's 200 lines and says how many were left out", () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ Type: "variable", ID: "v1", Key: `K${i}`, Value: "x" }));
    const lines = metadataComments([], [v("v1", "Oil", "d1", "Bench")], many);
    expect(lines).toHaveLength(MAX_COMMENTS);
    expect(lines.at(-1)).toBe("(51 more metadata lines left out)");
  });
});

describe("uPlot options of a compare overlay", () => {
  const vars = [
    { Id: "a", Name: "Oil", Unit: "°C", DataFormat: "FLOAT" },
    { Id: "a~cmp", Name: "Oil · yesterday", Unit: "°C", DataFormat: "FLOAT" },
  ];
  const origin = Date.UTC(2026, 0, 1, 10, 0, 0);
  const base = { vars, from: origin, to: origin + 600_000, locale: "en-US", timeZone: ROME, syncKey: "t" };
  const fakeUPlot = { tzDate: (d: Date) => d } as unknown as typeof uPlot;

  it("draws B dashed in A's colour and labels the time axis as offsets from A's start", () => {
    const opts = chartOptions({ ...base, overlay: { origin, pairs: 1 } }, fakeUPlot, true, { width: 800, height: 300 });
    expect(opts.series[1]!.dash).toBeUndefined();
    expect(opts.series[2]!.dash).toEqual([6, 4]);
    expect(opts.series[2]!.stroke).toBe(opts.series[1]!.stroke);
    const axis = opts.axes![0]!;
    const splits = (axis.splits as (u: unknown, i: number, min: number, max: number) => number[])(null, 0, origin / 1000, (origin + 600_000) / 1000);
    expect(splits[0]).toBe(origin / 1000);
    const labels = (axis.values as (u: unknown, t: number[]) => string[])(null, splits);
    expect(labels).toEqual(["+0:00", "+5:00", "+10:00"]);
  });

  it("keeps the clock axis and distinct colours without an overlay", () => {
    const opts = chartOptions(base, fakeUPlot, true, { width: 800, height: 300 });
    expect(opts.series[2]!.dash).toBeUndefined();
    expect(opts.series[2]!.stroke).not.toBe(opts.series[1]!.stroke);
    // Clock times in the user's zone (Rome is UTC+1 in January), 24-hour as the server SVG.
    const values = opts.axes![0]!.values as (u: unknown, t: number[], i: number, space: number, step: number) => string[];
    expect(values(null, [origin / 1000, (origin + 300_000) / 1000], 0, 50, 300)).toEqual(["11:00", "11:05"]);
  });
});
