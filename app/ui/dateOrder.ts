// The order of day, month and year per locale, and a wall time written in it: shared by the
// date fields (dateTimeInput.ts) and every date shown (format.ts), so both read alike (issue 28 §7)
// while the shell carries only this, not the fields' parser.

export type DateOrder = "mdy" | "dmy" | "ymd";

const orders = new Map<string, DateOrder>();
/** The order of day, month and year in `localeId`'s short numeric dates. */
export function dateOrder(localeId: string): DateOrder {
  let order = orders.get(localeId);
  if (!order) {
    const types = new Intl.DateTimeFormat(localeId, { year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(Date.UTC(2026, 10, 23))
      .map((p) => p.type)
      .filter((t) => t === "year" || t === "month" || t === "day")
      .join(",");
    order = types === "month,day,year" ? "mdy" : types === "year,month,day" ? "ymd" : "dmy";
    orders.set(localeId, order);
  }
  return order;
}

export const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** What the field shows for a canonical wall time ("23/11/2026 14:05"); anything else as typed. `seconds`: always write them (headers, tables). */
export function showDateTime(value: string, localeId: string, seconds = false): string {
  const m = ISO.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi, s] = m;
  const order = dateOrder(localeId);
  const date = order === "mdy" ? `${mo}/${d}/${y}` : order === "ymd" ? `${y}-${mo}-${d}` : `${d}/${mo}/${y}`;
  return `${date} ${h}:${mi}${seconds ? `:${s ?? "00"}` : s && s !== "00" ? `:${s}` : ""}`;
}

