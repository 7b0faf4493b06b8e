import { useRootData } from "./rootData";
import { withTimeConvention } from "./timeConvention";

// Intl formatters are costly to build and immutable: one per locale, zone and options, shared
// by every render (a dashboard formats hundreds of values per page).
const dateTimes = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();

function dateTimeFormat(locale: string, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}`;
  let f = dateTimes.get(key);
  if (!f) dateTimes.set(key, (f = new Intl.DateTimeFormat(locale, withTimeConvention({ dateStyle: "medium", timeStyle: "medium", timeZone }))));
  return f;
}

function numberFormat(locale: string, min: number | undefined, max: number | undefined): Intl.NumberFormat {
  const key = `${locale}|${min}|${max}`;
  let f = numbers.get(key);
  // signDisplay "negative": a value that rounds to zero shows "0", never "-0" (issue 15 §6).
  if (!f) numbers.set(key, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: "negative" })));
  return f;
}

/** A date and time in the locale's order with the 24-hour clock (app/ui/timeConvention.ts). */
export function formatDateTime(locale: string, timeZone: string, value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateTimeFormat(locale, timeZone).format(date);
}

const clockTimes = new Map<string, Intl.DateTimeFormat>();
/** A time of day with seconds (hh:mm:ss, 24-hour) in the user's zone: "last update 10:42:13". */
export function formatClock(locale: string, timeZone: string, value: number): string {
  const key = `${locale}|${timeZone}`;
  let f = clockTimes.get(key);
  if (!f) clockTimes.set(key, (f = new Intl.DateTimeFormat(locale, withTimeConvention({ hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone }))));
  return f.format(value);
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
