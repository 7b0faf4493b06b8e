import { z } from "zod";

// The export form, shared by the form (choices kept in the URL) and the CSV resource route.

export const AGGREGATES = ["mean", "min", "max", "last"] as const;
export const TIME_FORMATS = ["iso", "epoch", "excel"] as const;
export const SEPARATORS = ["locale", "comma", "semicolon"] as const;
export const FORMATS = ["csv", "udbf"] as const;

export const exportSchema = z.object({
  v: z.array(z.string().min(1).max(64)).min(1, "history.export.noVariables").max(100, "history.export.noVariables"),
  mode: z.enum(["raw", "resampled"]).catch("raw"),
  /** Seconds; only read when resampling (the form posts it either way). */
  interval: z.coerce.number({ error: "history.export.intervalInvalid" }).min(0.001, "history.export.intervalInvalid").max(86_400, "history.export.intervalInvalid"),
  aggregate: z.enum(AGGREGATES).catch("mean"),
  time: z.enum(TIME_FORMATS).catch("iso"),
  sep: z.enum(SEPARATORS).catch("locale"),
  /** CSV, or UDBF (the family's binary file; time, separators, BOM and metadata lines are CSV's). */
  format: z.enum(FORMATS).catch("csv"),
  bom: z.literal("on").optional(),
  meta: z.literal("on").optional(),
});
export type ExportChoices = z.infer<typeof exportSchema>;

/** Column and decimal separator (CSVSettings): en `,` and `.`; it `;` and `,` (what Excel expects there). */
export function separatorsFor(sep: ExportChoices["sep"], language: string): { ColumnSeparator: "," | ";"; DecimalSeparator: "." | "," } {
  const semicolon = sep === "semicolon" || (sep === "locale" && language === "it");
  return semicolon ? { ColumnSeparator: ";", DecimalSeparator: "," } : { ColumnSeparator: ",", DecimalSeparator: "." };
}

/**
 * The time column in the contract's DateTimeFormat notation. ISO 8601 with milliseconds and the
 * zone's offset (`Z` for UTC), epoch ms (epoch seconds then three digits of the fraction), or
 * Loggia's "excel" (Excel serial days, which strftime cannot express).
 */
export function dateTimeFormatFor(time: ExportChoices["time"], zone: string): string {
  if (time === "epoch") return "%s%%3us";
  if (time === "excel") return "excel";
  return `%Y-%m-%dT%H:%M:%S.%%3us${zone === "UTC" || zone === "Etc/UTC" ? "Z" : "%:z"}`;
}

/** Fields a refused export names, so the form shows the message next to them. */
export const EXPORT_ERROR_FIELDS = ["v", "interval", "range"] as const;
export type ExportErrorField = (typeof EXPORT_ERROR_FIELDS)[number];

/** The form's fields as query parameters: a refused export returns to the form with them. */
export function choicesQuery(form: FormData): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of form) if (typeof v === "string" && k !== "js") out.append(k, v);
  return out;
}
