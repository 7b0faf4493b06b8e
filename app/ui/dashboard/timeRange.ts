import { RANGE_MS, REFRESH, URL_RANGES, type RangePreset, type RefreshInterval } from "~/schemas/dashboardConstants";

// A dashboard's time range and refresh interval live in the URL (shareable views):
// ?range=1h (a preset, relative to now) or ?from=…&to=… (absolute: epoch ms, or a
// datetime-local value in the user's time zone), and ?refresh=30s.

/** Buckets per chart: about two per pixel column of a wide chart (ARCHITECTURE principle 4). */
export const CHART_POINTS = 1000;

export interface ResolvedRange {
  from: number;
  to: number;
  /** The relative preset in force; null for an absolute range (a zoom, or a chosen interval). */
  preset: RangePreset | null;
}

export function resolveRange(params: URLSearchParams, fallback: RangePreset, timeZone: string, now: number): ResolvedRange {
  const from = parseInstant(params.get("from"), timeZone);
  const to = parseInstant(params.get("to"), timeZone);
  if (from !== null && to !== null && to > from) return { from, to, preset: null };
  const wanted = params.get("range");
  const preset = (URL_RANGES as readonly string[]).includes(wanted ?? "") ? (wanted as RangePreset) : fallback;
  // A relative range ends on its bucket grid, as Grafana rounds relative ranges: every viewer
  // within one bucket asks the same query (cacheable), and a partial last bucket is never drawn.
  const span = RANGE_MS[preset];
  const grid = span / CHART_POINTS;
  const end = Math.floor(now / grid) * grid;
  return { from: end - span, to: end, preset };
}

export function resolveRefresh(params: URLSearchParams, fallback: RefreshInterval): RefreshInterval {
  const wanted = params.get("refresh");
  return (REFRESH as readonly string[]).includes(wanted ?? "") ? (wanted as RefreshInterval) : fallback;
}

/** Epoch ms from "1767225600000" or "2026-01-01T10:00" (wall time in `timeZone`); null if neither. */
export function parseInstant(text: string | null, timeZone: string): number | null {
  if (!text) return null;
  if (/^\d{10,15}$/.test(text)) return Number(text);
  return parseWallTime(text, timeZone);
}

/** Epoch ms of a datetime-local value ("2026-01-01T10:00[:ss]") read as wall time in `timeZone`; null if it is not one. */
export function parseWallTime(text: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return null;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  if (Number.isNaN(wall)) return null;
  // The zone's offset depends on the instant itself (DST): correct once from a first guess.
  let guess = wall - offsetMs(wall, timeZone);
  guess = wall - offsetMs(guess, timeZone);
  return guess;
}

/** "2026-01-01T10:00" in `timeZone`, the value a datetime-local input shows. */
export function toLocalInput(ms: number, timeZone: string): string {
  const p = wallParts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

function offsetMs(ms: number, timeZone: string): number {
  const p = wallParts(ms, timeZone);
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock fields of an instant in `timeZone` (24-hour, zero-padded). */
export function wallParts(ms: number, timeZone: string): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, f);
  }
  const out: Record<string, string> = {};
  for (const part of f.formatToParts(ms)) out[part.type] = part.value;
  return out as Record<"year" | "month" | "day" | "hour" | "minute" | "second", string>;
}
