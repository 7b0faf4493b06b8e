// Date and time fields in the user's locale (issue 15 §6): the field shows and accepts
// "11/23/2026 14:05" in English and "23/11/2026 14:05" in Italian — the locale's order of day,
// month and year, always the 24-hour clock (timeConvention.ts) — with and without JavaScript.
// URLs and parsers keep the canonical wall time "2026-11-23T14:05[:ss]" (app/ui/dashboard/
// timeRange.ts); the server turns a typed value into it (dateParams.server.ts).

import { dateOrder, ISO, showDateTime } from "./dateOrder";

export { dateOrder, showDateTime };
export type { DateOrder } from "./dateOrder";

const TYPED = /^\s*(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})(?:[\s,T]+(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?)?\s*$/;

const pad = (n: number | string, width = 2) => String(n).padStart(width, "0");

/** The canonical wall time of a typed value in the locale's order, or null when it is not a real date and time. */
export function parseTypedDateTime(text: string, localeId: string): string | null {
  if (ISO.test(text)) return text;
  const m = TYPED.exec(text);
  if (!m) return null;
  const [a, b, c] = [m[1]!, m[2]!, m[3]!];
  const order = a.length === 4 ? "ymd" : dateOrder(localeId);
  const [year, month, day] = order === "ymd" ? [a, b, c] : order === "mdy" ? [c, a, b] : [c, b, a];
  if (year.length !== 4) return null;
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), m[6] === undefined ? null : Number(m[6])];
  const date = new Date(Date.UTC(+year, +month - 1, +day));
  const real = date.getUTCFullYear() === +year && date.getUTCMonth() === +month - 1 && date.getUTCDate() === +day;
  if (!real || hour > 23 || minute > 59 || (second !== null && second > 59)) return null;
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}${second === null ? "" : `:${pad(second)}`}`;
}

/** The i18n key of the pattern hint for the locale's order (e.g. "mm/dd/yyyy hh:mm"). */
export function patternKey(localeId: string): string {
  return `dateTime.pattern.${dateOrder(localeId)}`;
}

/** Typed date-times in a query string turned canonical; null when there was none to turn. */
export function canonicalQuery(search: URLSearchParams, localeId: string): URLSearchParams | null {
  let changed = false;
  const out = new URLSearchParams();
  for (const [key, value] of search) {
    const canonical = !ISO.test(value) && TYPED.test(value) ? parseTypedDateTime(value, localeId) : null;
    if (canonical) changed = true;
    out.append(key, canonical ?? value);
  }
  return changed ? out : null;
}
