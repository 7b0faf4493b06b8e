import { useRootData } from "~/ui/rootData";

/** Dates and numbers through Intl, in the user's locale and time zone (never the server's). */
export function useFormatters() {
  const root = useRootData();
  const locale = root?.localeId ?? "en-US";
  const timeZone = root?.timeZone ?? "UTC";
  return {
    timeZone,
    dateTime(value: string | number | Date) {
      const date = value instanceof Date ? value : new Date(value);
      if (Number.isNaN(date.getTime())) return String(value);
      return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone }).format(date);
    },
    /** A measured value with the variable's precision; "—" when there is none. */
    value(value: number | null | undefined, precision?: number) {
      if (value === null || value === undefined || Number.isNaN(value)) return "—";
      const digits = precision === undefined ? undefined : Math.min(Math.max(precision, 0), 12);
      return new Intl.NumberFormat(locale, digits === undefined ? { maximumFractionDigits: 3 } : { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
    },
    number(value: number, digits?: number) {
      return new Intl.NumberFormat(locale, digits === undefined ? undefined : { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
    },
  };
}
