import { withTimeConvention } from "~/ui/timeConvention";
import { wallParts } from "./timeRange";
import type { SeriesData, VariableInfo } from "./types";

// Shared by the server SVG chart and the uPlot chart: which unit goes on which axis, scales,
// and "nice" ticks. Plain arithmetic, no DOM, so the server builds a chart in a few ms.

export interface UnitScale {
  unit: string;
  min: number;
  max: number;
  /** 0 = left axis, 1 = right axis, null = no axis (third and further units). */
  side: 0 | 1 | null;
  /** The axis labels: a 1-2-5 step, from `min` to `max` (the scale is padded to whole steps). */
  ticks: number[];
  step: number;
}

/** Units in order of first appearance; the first two get axes. Each scale spans whole nice steps. */
export function unitScales(vars: VariableInfo[], series: SeriesData): UnitScale[] {
  const found = new Map<string, { min: number; max: number; side: 0 | 1 | null }>();
  vars.forEach((v, i) => {
    const unit = v.Unit ?? "";
    let s = found.get(unit);
    if (!s) {
      s = { min: Infinity, max: -Infinity, side: found.size < 2 ? (found.size as 0 | 1) : null };
      found.set(unit, s);
    }
    for (const col of [series.min?.[i], series.max?.[i], series.values[i]]) {
      if (!col) continue;
      for (const x of col) {
        if (x === null) continue;
        if (x < s.min) s.min = x;
        if (x > s.max) s.max = x;
      }
    }
  });
  return [...found].map(([unit, s]) => ({ unit, side: s.side, ...valueScale(s.min, s.max) }));
}

/** Fewest and most value labels an axis shows (issue 28 §2: at least 4, as the interactive chart). */
export const MIN_VALUE_TICKS = 4;
export const MAX_VALUE_TICKS = 8;

/**
 * A value axis over the data range [lo, hi]: the largest 1-2-5 × 10^n step that still gives at
 * least MIN_VALUE_TICKS labels, the range widened to whole steps (so the first and last labels
 * sit on the plot's edges). A flat range is opened around its value; no data gives 0…1.
 */
export function valueScale(lo: number, hi: number): { min: number; max: number; step: number; ticks: number[] } {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = Math.abs(lo) * 0.05 || 1;
    lo -= pad;
    hi += pad;
  }
  // Start from a step small enough for MAX_VALUE_TICKS labels and widen it while enough remain.
  let k = Math.floor(Math.log10((hi - lo) / MAX_VALUE_TICKS)) * 3;
  const stepAt = (j: number) => [1, 2, 5][((j % 3) + 3) % 3]! * 10 ** Math.floor(j / 3);
  const count = (step: number) => Math.round(Math.ceil(hi / step - 1e-9) - Math.floor(lo / step + 1e-9)) + 1;
  while (count(stepAt(k)) > MAX_VALUE_TICKS) k++;
  while (count(stepAt(k + 1)) >= MIN_VALUE_TICKS) k++;
  const step = stepAt(k);
  const first = Math.floor(lo / step + 1e-9);
  const n = count(step);
  const ticks = Array.from({ length: n }, (_, j) => roundTo(step, (first + j) * step));
  return { min: ticks[0]!, max: ticks.at(-1)!, step, ticks };
}

/** Drops float noise (0.30000000000000004) to the step's own decimals. */
function roundTo(step: number, v: number): number {
  const digits = stepDecimals(step);
  return Number(v.toFixed(Math.min(20, digits + 2))) + 0;
}

/** Decimals a label needs to tell two ticks `step` apart (0.25 → 2, 5 → 0). */
export function stepDecimals(step: number): number {
  if (!(step > 0)) return 0;
  for (let d = 0; d <= 12; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9 * 10 ** d) return d;
  return 12;
}

const valueFormats = new Map<string, Intl.NumberFormat>();
/** A value axis label in the reader's locale, with as many decimals as the step needs (all ticks alike). */
export function valueTickLabel(locale: string, step: number, value: number): string {
  const digits = stepDecimals(step);
  const key = `${locale}|${digits}`;
  let f = valueFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    valueFormats.set(key, f);
  }
  return f.format(value);
}

const TIME_STEPS = [1, 5, 10, 15, 30, 60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800].map((s) => s * 1000);

/** Time ticks (epoch ms) at round steps; aligned in UTC, which is round in every whole-hour zone. */
export function timeTicks(from: number, to: number, count = 6): { ticks: number[]; step: number } {
  const raw = (to - from) / Math.max(count, 1);
  const step = TIME_STEPS.find((s) => s >= raw) ?? Math.ceil(raw / 86_400_000) * 86_400_000;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return { ticks, step };
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** A tick label formatter in the user's locale and time zone; long ranges show the date. */
export function timeFormat(locale: string, timeZone: string, step: number): Intl.DateTimeFormat {
  const style = step >= 86_400_000 ? "day" : step >= 3_600_000 * 6 ? "dayTime" : step < 60_000 ? "seconds" : "time";
  const key = `${locale}|${timeZone}|${style}`;
  let f = formats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === "day"
        ? { month: "short", day: "numeric" }
        : style === "dayTime"
          ? withTimeConvention({ month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })
          : style === "seconds"
            ? withTimeConvention({ hour: "2-digit", minute: "2-digit", second: "2-digit" })
            : withTimeConvention({ hour: "2-digit", minute: "2-digit" });
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, f);
  }
  return f;
}

const numbers = new Map<string, Intl.NumberFormat>();
export function tickNumber(locale: string, value: number): string {
  let f = numbers.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
    numbers.set(locale, f);
  }
  return f.format(value);
}

/** Ticks at round offsets from `origin` (a compare overlay's time axis counts from its start). */
export function offsetTicks(from: number, to: number, origin: number, count = 6): { ticks: number[]; step: number } {
  const raw = (to - from) / Math.max(count, 1);
  const step = TIME_STEPS.find((s) => s >= raw) ?? Math.ceil(raw / 86_400_000) * 86_400_000;
  const ticks: number[] = [];
  for (let t = origin + Math.ceil((from - origin) / step) * step; t <= to; t += step) ticks.push(t);
  return { ticks, step };
}

/** An offset as "+h:mm:ss" ("+m:ss" under an hour); digits only, so the same in every language. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? "−" : "+";
  const total = Math.round(Math.abs(ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${sign}${h}:${two(m)}:${two(s)}` : `${sign}${m}:${two(s)}`;
}

// ---- Time ticks that fit the width (issue 15 §3: labels never overlap at any range and width) ----

/** Font size of tick labels, in CSS px, in both renderers. */
export const TICK_FONT_PX = 11;
/** Space kept free between two neighbouring labels. */
export const LABEL_GAP_PX = 12;

/**
 * A label's width in px, estimated without a DOM (the server draws the SVG): 0.62 em per
 * character bounds the digits, letters and separators of time labels in the UI's sans fonts.
 */
export function labelWidth(text: string, fontPx = TICK_FONT_PX): number {
  return Math.ceil(text.length * fontPx * 0.62);
}

const DAY = 86_400_000;
const FIT_STEPS = [...TIME_STEPS, 4 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 56 * DAY, 112 * DAY];

/** The zone's offset from UTC at an instant (ms), so ticks fall on round wall-clock times. */
function zoneOffset(ms: number, timeZone: string): number {
  const p = wallParts(ms, timeZone);
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - Math.floor(ms / 1000) * 1000;
}

export interface FittedTicks {
  ticks: number[];
  labels: string[];
  step: number;
}

/**
 * Time ticks (epoch ms) at the smallest round step whose labels, `widthPx` wide in all, keep
 * at least LABEL_GAP_PX between them; aligned to the wall clock of `timeZone`.
 */
export function fittedTimeTicks(from: number, to: number, widthPx: number, locale: string, timeZone: string): FittedTicks {
  const span = to - from || 1;
  const pxPerMs = Math.max(widthPx, 1) / span;
  const offset = zoneOffset(from, timeZone);
  let last: FittedTicks = { ticks: [], labels: [], step: FIT_STEPS.at(-1)! };
  for (const step of FIT_STEPS) {
    if (step * pxPerMs < 24) continue;
    const ticks: number[] = [];
    for (let t = Math.ceil((from + offset) / step) * step - offset; t <= to; t += step) ticks.push(t);
    const f = timeFormat(locale, timeZone, step);
    const labels = ticks.map((t) => f.format(t));
    const widest = Math.max(0, ...labels.map((l) => labelWidth(l)));
    last = { ticks, labels, step };
    if (step * pxPerMs >= widest + LABEL_GAP_PX) return last;
  }
  // Wider than the longest step allows: one label in the middle cannot collide.
  const mid = last.ticks[Math.floor(last.ticks.length / 2)];
  return mid === undefined ? last : { ticks: [mid], labels: [last.labels[Math.floor(last.ticks.length / 2)]!], step: last.step };
}

/**
 * Plot widths (CSS px) the server SVG prepares time labels for: the browser shows the widest
 * tier that fits its box (container queries), so labels fit without JavaScript at any width.
 */
export const SVG_TIERS = [160, 400, 800, 1600, 3200] as const;

/** The tier the SVG shows in a plot `widthPx` wide (the largest not above it). */
export function svgTier(widthPx: number): number {
  let k = 0;
  SVG_TIERS.forEach((w, i) => {
    if (widthPx >= w) k = i;
  });
  return k;
}
