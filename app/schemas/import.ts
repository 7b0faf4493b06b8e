import { z } from "zod";
import type { CsvLayout } from "~/services/logger/importSchemas";

// The Import screen's choices, shared by its form and its route: where the file goes, and a CSV
// file's layout as the page shows it (lines and columns counted from 1, as editors show them;
// 0 = none) — the logger counts from 0.

export const TARGET_NEW = "new";
/** The largest file imported through the console: the logger's session takes 2 GiB. */
export const IMPORT_BODY_LIMIT = 2 * 1024 ** 3;
export type ImportChoices = { target: string; sourceName: string; measurementName: string };

export const LAYOUT_KEYS = ["sep", "dec", "nameLine", "unitLine", "valuesLine", "valuesColumn", "fmt1", "fmt2"] as const;

const line = z.coerce.number().int().min(0).max(1_000_000);
const layoutSchema = z.object({
  sep: z.string().transform((s) => (s === "tab" || s === "\\t" ? "\t" : s)).pipe(z.string().length(1)),
  dec: z.enum([".", ","]),
  nameLine: line,
  unitLine: line,
  valuesLine: line.min(1),
  valuesColumn: line.min(1).max(1000),
  fmt1: z.string().trim().min(1).max(200),
  fmt2: z.string().trim().max(200).default(""),
});

/** The layout the query (or a form) names; null when it names none (then the logger detects it). */
export function importLayout(params: URLSearchParams): CsvLayout | null {
  if (!params.get("sep")) return null;
  const parsed = layoutSchema.safeParse(Object.fromEntries(LAYOUT_KEYS.map((k) => [k, params.get(k) ?? undefined])));
  if (!parsed.success) return null;
  const l = parsed.data;
  return {
    ColumnSeparator: l.sep,
    DecimalSeparator: l.dec,
    NameRowIndex: l.nameLine - 1,
    UnitRowIndex: l.unitLine - 1,
    ValuesStartRowIndex: l.valuesLine - 1,
    ValuesStartColumnIndex: l.valuesColumn - 1,
    DateTimeFmtColumn1: l.fmt1,
    ...(l.fmt2 ? { DateTimeFmtColumn2: l.fmt2 } : {}),
  };
}

/** The layout fields of a form or query, as query entries. */
export function layoutQuery(source: FormData | URLSearchParams): [string, string][] {
  return LAYOUT_KEYS.flatMap((k) => {
    const v = source.get(k);
    return typeof v === "string" && v !== "" ? [[k, v] as [string, string]] : [];
  });
}

export function queryOfLayout(l: CsvLayout): URLSearchParams {
  return new URLSearchParams({
    sep: l.ColumnSeparator === "\t" ? "tab" : l.ColumnSeparator,
    dec: l.DecimalSeparator,
    nameLine: String(l.NameRowIndex + 1),
    unitLine: String(l.UnitRowIndex + 1),
    valuesLine: String(l.ValuesStartRowIndex + 1),
    valuesColumn: String(l.ValuesStartColumnIndex + 1),
    fmt1: l.DateTimeFmtColumn1,
    fmt2: l.DateTimeFmtColumn2 ?? "",
  });
}
