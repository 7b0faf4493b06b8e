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
    number(value: number, digits?: number) {
      return new Intl.NumberFormat(locale, digits === undefined ? undefined : { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
    },
  };
}
