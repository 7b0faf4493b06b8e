import { RANGE_MS, URL_RANGES, type RangePreset } from "~/schemas/dashboards";
import type { MeasurementRow } from "~/services/history.server";
import { parseInstant } from "~/ui/dashboard/timeRange";

// The range of a history screen, all in the URL: ?span=preset&range=1h, ?span=absolute&from=…&to=…
// (datetime-local in the user's zone, or epoch ms), or ?span=measurement&m=<ID>; a zoom adds
// ?zf=…&zt=… (epoch ms) on top, so a form submit or "reset" drops it and the base range remains.

export const SPANS = ["preset", "absolute", "measurement"] as const;
export type Span = (typeof SPANS)[number];

export interface HistoryRange {
  span: Span;
  preset: RangePreset;
  /** The chosen range before any zoom, and the visible one. */
  base: { from: number; to: number };
  from: number;
  to: number;
  zoomed: boolean;
  measurement: MeasurementRow | null;
  /** i18n key when the absolute range or the measurement could not be used. */
  problem: string | null;
}

export function resolveHistoryRange(params: URLSearchParams, zone: string, now: number, measurements: MeasurementRow[]): HistoryRange {
  const span = (SPANS as readonly string[]).includes(params.get("span") ?? "") ? (params.get("span") as Span) : "preset";
  const wanted = params.get("range") ?? "";
  const preset = (URL_RANGES as readonly string[]).includes(wanted) ? (wanted as RangePreset) : "1h";
  let base = { from: now - RANGE_MS[preset], to: now };
  let problem: string | null = null;
  let measurement: MeasurementRow | null = null;
  if (span === "absolute") {
    const from = parseInstant(params.get("from"), zone);
    const to = parseInstant(params.get("to"), zone);
    if (from === null || to === null) problem = "history.range.invalid";
    else if (to <= from) problem = "history.range.endBeforeStart";
    else base = { from, to };
  } else if (span === "measurement") {
    measurement = measurements.find((m) => m.ID === params.get("m")) ?? null;
    if (!measurement) problem = "history.range.noMeasurement";
    else base = { from: measurement.start, to: measurement.end ?? now };
  }
  const zf = Number(params.get("zf"));
  const zt = Number(params.get("zt"));
  const zoomed = Number.isFinite(zf) && Number.isFinite(zt) && zf > 0 && zt > zf && params.has("zf");
  return { span, preset, base, from: zoomed ? zf : base.from, to: zoomed ? zt : base.to, zoomed, measurement, problem };
}
