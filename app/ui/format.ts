import { showDateTime } from "./dateOrder";
import { useRootData } from "./rootData";

// Intl formatters are costly to build and immutable: one per locale, zone and options, shared
// by every render (a dashboard formats hundreds of values per page).
const dateTimes = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();

/** The wall-clock fields of an instant in a zone (the zone's, not the locale's, concern: one formatter per zone). */
function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let f = dateTimes.get(timeZone);
  if (!f) dateTimes.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })));
  return f;
}

function numberFormat(locale: string, min: number | undefined, max: number | undefined): Intl.NumberFormat {
  const key = `${locale}|${min}|${max}`;
  let f = numbers.get(key);
  // signDisplay "negative": a value that rounds to zero shows "0", never "-0" (issue 15 §6).
  if (!f) numbers.set(key, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: "negative" })));
  return f;
}

/**
 * A date and time as the date fields show and take it (issue 28 §7, one format): the locale's
 * order of day, month and year in digits, the 24-hour clock (app/ui/timeConvention.ts), seconds —
 * "11/27/2026 23:50:13" in English, "27/11/2026 23:50:13" in Italian.
 */
export function formatDateTime(locale: string, timeZone: string, value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const p: Record<string, string> = {};
  for (const part of wallFormat(timeZone).formatToParts(date)) p[part.type] = part.value;
  return showDateTime(`${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`, locale, true);
}

/**
 * A time of day with seconds (hh:mm:ss, 24-hour) in the user's zone: "last update 10:42:13" — the
 * time part of formatDateTime's one format, in every language.
 */
export function formatClock(_locale: string, timeZone: string, value: number): string {
  const p: Record<string, string> = {};
  for (const part of wallFormat(timeZone).formatToParts(value)) p[part.type] = part.value;
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** A measured value with the variable's precision; "—" when there is none; never "-0". */
export function formatValue(locale: string, value: number | null | undefined, precision?: number): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const digits = precision === undefined ? undefined : Math.min(Math.max(precision, 0), 12);
  return (digits === undefined ? numberFormat(locale, undefined, 3) : numberFormat(locale, digits, digits)).format(value);
}

/** A plain number in the locale, up to 6 decimals (settings, not measured values). */
export function formatNumber(locale: string, value: number): string {
  return numberFormat(locale, undefined, 6).format(value);
}

/** Dates and numbers in the user's locale and time zone (spec: Intl, the user's zone). */
export function useFormatters() {
  const root = useRootData();
  const locale = root?.localeId ?? "en-US";
  const timeZone = root?.timeZone ?? "UTC";
  return {
    locale,
    timeZone,
    dateTime: (value: string | number | Date) => formatDateTime(locale, timeZone, value),
    clock: (value: number) => formatClock(locale, timeZone, value),
    value: (value: number | null | undefined, precision?: number) => formatValue(locale, value, precision),
    number(value: number, digits?: number) {
      return numberFormat(locale, digits, digits).format(value);
    },
  };
}
