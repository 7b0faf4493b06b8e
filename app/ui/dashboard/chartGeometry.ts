import type { SeriesData, VariableInfo } from "./types";

// Shared by the server SVG chart and the uPlot chart: which unit goes on which axis, scales,
// and "nice" ticks. Plain arithmetic, no DOM, so the server builds a chart in a few ms.

export interface UnitScale {
  unit: string;
  min: number;
  max: number;
  /** 0 = left axis, 1 = right axis, null = no axis (third and further units). */
  side: 0 | 1 | null;
}

/** Units in order of first appearance; the first two get axes. */
export function unitScales(vars: VariableInfo[], series: SeriesData): UnitScale[] {
  const scales = new Map<string, UnitScale>();
  vars.forEach((v, i) => {
    const unit = v.Unit ?? "";
    let s = scales.get(unit);
    if (!s) {
      s = { unit, min: Infinity, max: -Infinity, side: scales.size < 2 ? (scales.size as 0 | 1) : null };
      scales.set(unit, s);
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
  for (const s of scales.values()) {
    if (!Number.isFinite(s.min)) {
      s.min = 0;
      s.max = 1;
    } else if (s.max === s.min) {
      const pad = Math.abs(s.min) * 0.05 || 1;
      s.min -= pad;
      s.max += pad;
    } else {
      const pad = (s.max - s.min) * 0.05;
      s.min -= pad;
      s.max += pad;
    }
  }
  return [...scales.values()];
}

/** About `count` round values covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const raw = (max - min) / Math.max(count, 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
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
          ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }
          : style === "seconds"
            ? { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }
            : { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
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
