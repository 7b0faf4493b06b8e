import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RANGE_MS, QUICK_RANGES } from "~/schemas/dashboardConstants";
import { fittedTimeTicks, labelWidth, LABEL_GAP_PX, MAX_VALUE_TICKS, MIN_VALUE_TICKS, SVG_TIERS, svgTier, valueScale, valueTickLabel } from "~/ui/dashboard/chartGeometry";
import { parseRangeToken, rangeToken, zoomedOut } from "~/ui/dashboard/QuickRanges";
import { linePath, SVG_MARGIN, SvgChart } from "~/ui/dashboard/SvgChart";
import type { SeriesData } from "~/ui/dashboard/types";

// Issue 15 §3: axis labels never overlap at any range and width, gaps stay gaps, thresholds and
// events are drawn, the SVG fills its box.

const WIDTHS = [390, 768, 1024, 1366, 1920, 2560, 3840];
const LOCALES: [string, string][] = [
  ["en-US", "America/New_York"],
  ["it-IT", "Europe/Rome"],
  ["de-DE", "Asia/Kolkata"],
];
// A fixed "now" (not aligned to anything) so the test is the same every run.
const NOW = Date.UTC(2026, 10, 23, 14, 37, 21);

/** Neighbouring labels (centred on their ticks) leave at least the gap between them. */
function assertNoOverlap(ticks: number[], labels: string[], from: number, to: number, widthPx: number) {
  const x = (t: number) => ((t - from) / (to - from)) * widthPx;
  for (let k = 1; k < ticks.length; k++) {
    const room = x(ticks[k]!) - x(ticks[k - 1]!);
    const need = (labelWidth(labels[k]!) + labelWidth(labels[k - 1]!)) / 2 + LABEL_GAP_PX;
    expect(room, `${labels[k - 1]} | ${labels[k]} at ${widthPx}px`).toBeGreaterThanOrEqual(need);
  }
}

describe("time ticks fitted to the width", () => {
  for (const range of QUICK_RANGES) {
    for (const width of WIDTHS) {
      it(`${range} at ${width} px: labels do not overlap, at least one is shown, 24-hour clock`, () => {
        for (const [locale, zone] of LOCALES) {
          const from = NOW - RANGE_MS[range];
          // The plot is the chart minus its axes (both sides).
          const plot = width - SVG_MARGIN.left - SVG_MARGIN.right;
          const fitted = fittedTimeTicks(from, NOW, plot, locale, zone);
          expect(fitted.ticks.length).toBeGreaterThan(0);
          expect(fitted.ticks.every((t) => t >= from && t <= NOW)).toBe(true);
          assertNoOverlap(fitted.ticks, fitted.labels, from, NOW, plot);
          for (const l of fitted.labels) expect(l).not.toMatch(/AM|PM/);
        }
      });
    }
  }

  it("uses the room: a wide chart shows more labels than a narrow one", () => {
    const from = NOW - RANGE_MS["24h"];
    const narrow = fittedTimeTicks(from, NOW, 286, "en-US", "UTC");
    const wide = fittedTimeTicks(from, NOW, 1800, "en-US", "UTC");
    expect(wide.ticks.length).toBeGreaterThan(narrow.ticks.length);
  });

  it("falls on round wall-clock times of the zone (hours in Kolkata, +5:30)", () => {
    const fitted = fittedTimeTicks(NOW - RANGE_MS["6h"], NOW, 1000, "en-GB", "Asia/Kolkata");
    for (const l of fitted.labels) expect(l).toMatch(/:(00|30)$/);
  });

  it("the server SVG shows, at every width, a tier prepared for no more than its plot width", () => {
    for (let width = 264; width <= 3840; width += 7) {
      const plot = width - SVG_MARGIN.left - SVG_MARGIN.right;
      const tier = SVG_TIERS[svgTier(plot)]!;
      expect(tier).toBeLessThanOrEqual(plot);
      // A tier's labels fit at its own width, so at any wider plot (the gaps only grow).
      for (const range of QUICK_RANGES) {
        const from = NOW - RANGE_MS[range];
        const f = fittedTimeTicks(from, NOW, tier, "en-US", "UTC");
        assertNoOverlap(f.ticks, f.labels, from, NOW, plot);
      }
    }
  });
});

describe("value axes of the server chart (issue 28 §2)", () => {
  /** The checks every axis must pass: 4…8 labels, one 1-2-5 step apart, covering the data, formatted alike. */
  function assertNice(lo: number, hi: number) {
    const s = valueScale(lo, hi);
    expect(s.ticks.length, `${lo}…${hi}: ${s.ticks.join(", ")}`).toBeGreaterThanOrEqual(MIN_VALUE_TICKS);
    expect(s.ticks.length).toBeLessThanOrEqual(MAX_VALUE_TICKS);
    const mantissa = s.step / 10 ** Math.floor(Math.log10(s.step));
    expect([1, 2, 5]).toContain(Number(mantissa.toPrecision(6)));
    s.ticks.forEach((v, k) => {
      if (k > 0) expect(v - s.ticks[k - 1]!).toBeCloseTo(s.step, 9);
      expect(v / s.step).toBeCloseTo(Math.round(v / s.step), 6);
    });
    expect(s.min).toBe(s.ticks[0]);
    expect(s.max).toBe(s.ticks.at(-1));
    expect(s.min).toBeLessThanOrEqual(Math.min(lo, hi));
    expect(s.max).toBeGreaterThanOrEqual(Math.max(lo, hi));
    const labels = s.ticks.map((v) => valueTickLabel("en-US", s.step, v));
    expect(new Set(labels).size, labels.join(" | ")).toBe(labels.length);
    return { ...s, labels };
  }

  it("a 60–90 °C range gets 60, 70, 80, 90 (the old chart showed '80' alone)", () => {
    const s = assertNice(60, 90);
    expect(s.ticks).toEqual([60, 70, 80, 90]);
    expect(s.step).toBe(10);
  });

  it("the range is padded to whole steps around data that do not sit on one", () => {
    const s = assertNice(61.3, 88.9);
    expect(s.ticks[0]).toBeLessThanOrEqual(61.3);
    expect(s.ticks.at(-1)).toBeGreaterThanOrEqual(88.9);
  });

  it("a flat range opens around its value, zero included", () => {
    expect(assertNice(20, 20).ticks).toContain(20);
    expect(assertNice(0, 0).ticks).toContain(0);
    assertNice(-3.5, -3.5);
  });

  it("negative and mixed ranges", () => {
    const s = assertNice(-30, -10);
    expect(s.ticks.every((v) => v <= -10 + s.step && v >= -30 - s.step)).toBe(true);
    expect(assertNice(-0.7, 0.4).ticks).toContain(0);
    assertNice(-1e6, 2.5e6);
  });

  it("tiny ranges get as many decimals as their step, large ones group digits in the locale", () => {
    const tiny = assertNice(20.001, 20.003);
    expect(tiny.labels.every((l) => /^20\.00\d\d?$/.test(l))).toBe(true);
    assertNice(1e-7, 3e-7);
    const big = valueScale(12_000, 48_000);
    expect(valueTickLabel("it-IT", big.step, big.ticks[1]!)).toMatch(/^\d{2}\.\d{3}$/);
    expect(valueTickLabel("it-IT", 0.5, 2.5)).toBe("2,5");
  });

  it("no data gives 0…1; any range stays within 4…8 labels", () => {
    expect(valueScale(Infinity, -Infinity).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    for (let k = 0; k < 300; k++) {
      const lo = (Math.sin(k) * 10) ** 3;
      assertNice(lo, lo + Math.abs(Math.cos(k * 7)) * 10 ** ((k % 9) - 3));
    }
  });
});

describe("gaps", () => {
  it("a null bucket breaks the line: two runs, nothing drawn across", () => {
    const d = linePath([1, 2, null, null, 5, 6], (v) => v * 10);
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d).toMatch(/^M0 10/);
    expect(d).toContain("M4 50");
  });
});

describe("the server SVG", () => {
  const series: SeriesData = { start: NOW - 3_600_000, delta: 60_000, size: 60, values: [Array.from({ length: 60 }, (_, k) => (k >= 20 && k < 30 ? null : 50 + (k % 10)))] };
  const svg = renderToStaticMarkup(
    createElement(SvgChart, {
      series,
      vars: [{ Id: "a", Name: "Oil temperature", Unit: "°C", DataFormat: "float" }],
      height: 300,
      from: NOW - 3_600_000,
      to: NOW,
      locale: "en-US",
      timeZone: "UTC",
      label: "Chart of Oil temperature",
      thresholds: [
        { Value: 55, Color: "amber" },
        { Value: 58, Color: "red" },
      ],
      events: [
        { t: NOW - 1_800_000, kind: "alarmRaised", name: "Oil hot" },
        { t: NOW - 900_000, kind: "alarmCleared", name: "Oil hot" },
        { t: NOW - 7_200_000, kind: "measStart", name: "Before the range" },
      ],
      eventWords: { alarmRaised: "Alarm raised", alarmCleared: "Alarm cleared", measStart: "Measurement started", measStop: "Measurement stopped" },
    }),
  );

  it("labels the value axis with 4–8 nice values of the data's range, and leaves room for long labels", () => {
    // 50…59 with thresholds: labels at a 1-2-5 step over the padded range.
    const left = /data-axis="left">(.*?)<\/g>/.exec(svg)![1]!;
    const values = [...left.matchAll(/data-value="([^"]+)"/g)].map((m) => Number(m[1]));
    expect(values.length).toBeGreaterThanOrEqual(4);
    expect(values[0]).toBeLessThanOrEqual(50);
    expect(values.at(-1)).toBeGreaterThanOrEqual(59);
    // Millions: the axis widens beyond the default margin, and the plot starts after it.
    const big: SeriesData = { start: NOW - 3_600_000, delta: 60_000, size: 60, values: [Array.from({ length: 60 }, (_, k) => 1_234_000 + k * 997)] };
    const wide = renderToStaticMarkup(createElement(SvgChart, { series: big, vars: [{ Id: "a", Name: "Energy", Unit: "Wh", DataFormat: "float" }], height: 300, from: NOW - 3_600_000, to: NOW, locale: "en-US", timeZone: "UTC", label: "Energy" }));
    const plotLeft = Number(/style="left:(\d+)px/.exec(wide)![1]);
    const longest = Math.max(...[...wide.matchAll(/data-value="[^"]+"[^>]*>([^<]+)</g)].map((m) => labelWidth(m[1]!)));
    expect(longest).toBeGreaterThan(SVG_MARGIN.left);
    expect(plotLeft).toBeGreaterThanOrEqual(longest + 4);
  });

  it("fills its box: the plot is sized by CSS from the box, the data stretch to it", () => {
    expect(svg).toMatch(/^<div class="@container relative h-full w-full"/);
    expect(svg).toMatch(/width:calc\(100% - \d+px\);height:calc\(100% - \d+px\)/);
    expect(svg).toContain('preserveAspectRatio="none"');
  });

  it("draws each threshold as a line in its colour", () => {
    expect(svg).toContain('data-threshold="55" data-colour="amber"');
    expect(svg).toContain('data-threshold="58" data-colour="red"');
    expect(svg).toContain('stroke="#dc2626" stroke-width="1.5" stroke-dasharray="4 3"');
  });

  it("marks the events in the range with their kind and name, not those outside", () => {
    expect(svg).toContain("<title>Alarm raised: Oil hot</title>");
    expect(svg).toContain("<title>Alarm cleared: Oil hot</title>");
    expect(svg).not.toContain("Before the range");
  });

  it("leaves the gap open and keys the axis to the series' colour", () => {
    const line = /<path d="([^"]+)"[^>]*data-series="0"/.exec(svg)![1]!;
    expect(line.match(/M/g)).toHaveLength(2);
    expect(svg).toMatch(/<g class="fill-blue-700 dark:fill-blue-300" data-axis="left">/);
  });
});

describe("quick ranges, zoom out and back", () => {
  it("zoom out doubles the span: around the centre, or back from the end of a range that ends now", () => {
    expect(zoomedOut({ from: 1000, to: 2000, preset: null })).toEqual({ from: 500, to: 2500 });
    expect(zoomedOut({ from: 1000, to: 2000, preset: "1h" })).toEqual({ from: 0, to: 2000 });
  });

  it("the range left is written into and read back from `back`; nonsense is ignored", () => {
    expect(parseRangeToken(rangeToken({ from: 1000, to: 2000, preset: null }))).toEqual({ from: 1000, to: 2000 });
    expect(parseRangeToken(rangeToken({ from: 1000, to: 2000, preset: "6h" }))).toEqual({ preset: "6h" });
    for (const bad of ["", "2000~1000", "<script>", "1h;x", null]) expect(parseRangeToken(bad)).toBeNull();
  });
});
