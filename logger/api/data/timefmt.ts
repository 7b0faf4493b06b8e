import { DateTimeFormatError, compileDateTimeFormat, formatDateTime } from "./datetime-format.ts";
import type { DateTimeToken } from "./datetime-format.ts";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/**
 * Formats epoch ms as local time in an IANA zone ("2026-11-03 14:05:00.250+01:00"), or ISO
 * UTC for "UTC". Offsets are looked up once per hour, not per row. null = unknown zone.
 */
export function timeFormatter(zone: string): ((ms: number) => string) | null {
  if (zone === "UTC" || zone === "Etc/UTC") return (ms) => new Date(ms).toISOString();
  const offsetAt = zoneOffset(zone);
  if (!offsetAt) return null;
  return (ms) => {
    const off = offsetAt(ms);
    const d = new Date(ms + off * 60_000);
    const sign = off < 0 ? "-" : "+";
    const a = Math.abs(off);
    return (
      `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
      `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}` +
      `${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`
    );
  };
}

/** Minutes east of UTC in an IANA zone at an instant; null = unknown zone. */
export function zoneOffset(zone: string): ((ms: number) => number) | null {
  if (zone === "UTC" || zone === "Etc/UTC") return () => 0;
  let dtf: Intl.DateTimeFormat;
  try {
    dtf = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  } catch {
    return null;
  }
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number): number => {
    const hour = Math.floor(ms / 3_600_000);
    let off = offsets.get(hour);
    if (off === undefined) {
      const parts = Object.fromEntries(dtf.formatToParts(new Date(hour * 3_600_000)).map((x) => [x.type, x.value]));
      const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
      off = (local - hour * 3_600_000) / 60_000;
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(hour, off);
    }
    return off;
  };
  return offsetAt;
}

/**
 * The contract's DateTimeFormat (LOGGER-API.md, CSVSettings; the notation is in
 * datetime-format.ts, where imports read it) as a formatter of epoch ms in an IANA zone, or the
 * text of the problem. An unknown conversion is refused: a typo would land in every row.
 */
export function dateTimeFormatter(format: string, zone: string): ((ms: number) => string) | { problem: string } {
  const offsetAt = zoneOffset(zone);
  if (!offsetAt) return { problem: `Unknown TimeZone ${zone}` };
  let tokens: DateTimeToken[];
  try {
    tokens = compileDateTimeFormat(format, "date");
  } catch (error) {
    if (!(error instanceof DateTimeFormatError)) throw error;
    return { problem: `DateTimeFormat ${error.message}` };
  }
  // Runs of whole-second conversions are written once per second (rows of one second share
  // them); only the fractions are written per row.
  const parts: (DateTimeToken[] | { digits: number })[] = [];
  for (const t of tokens) {
    const digits = t.kind === "fraction" ? t.digits : t.kind === "millis" ? 3 : 0;
    const last = parts.at(-1);
    if (digits) parts.push({ digits });
    else if (Array.isArray(last)) last.push(t);
    else parts.push([t]);
  }
  const text = parts.map(() => "");
  let second = Number.NaN;
  return (ms) => {
    const sec = Math.floor(ms / 1000);
    if (sec !== second) {
      second = sec;
      const off = offsetAt(ms);
      parts.forEach((p, k) => {
        if (Array.isArray(p)) text[k] = formatDateTime(p, sec * 1e6, off);
      });
    }
    const us = Math.min(999_999, Math.round((ms - sec * 1000) * 1000));
    parts.forEach((p, k) => {
      if (!Array.isArray(p)) text[k] = pad(Math.floor(us / 10 ** (6 - p.digits)), p.digits);
    });
    return text.join("");
  };
}
