import { z } from "zod";

// A CSV layout as a preview or an import from a file takes it (CSVSettings of the import).
const numeric = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v), schema);

export const PreviewLayout = z.object({
  ColumnSeparator: z
    .string()
    .length(1, { message: "Must be one character" })
    .refine((c) => !/[0-9A-Za-z".+\-\r\n]/.test(c), { message: "Cannot be a digit, letter, quote, sign, dot or line break" }),
  DecimalSeparator: z.enum([".", ","]),
  NameRowIndex: numeric(z.number().int().min(-1).max(1_000_000)),
  UnitRowIndex: numeric(z.number().int().min(-1).max(1_000_000)).default(-1),
  ValuesStartRowIndex: numeric(z.number().int().min(0).max(1_000_000)),
  ValuesStartColumnIndex: numeric(z.number().int().min(0).max(1000)),
  DateTimeFmtColumn1: z.string().trim().min(1).max(200),
  DateTimeFmtColumn2: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((v) => v || undefined),
});
