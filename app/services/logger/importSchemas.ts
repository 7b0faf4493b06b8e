import { z } from "zod";

// The logger's import sessions and data file previews (docs/logger-api.md, "CSV import", "UDBF
// import", "Data file preview"): Loggia's extras, validated like every other answer.

const cells = z.array(z.array(z.number().nullable()));

export const csvLayout = z.object({
  ColumnSeparator: z.string(),
  DecimalSeparator: z.enum([".", ","]),
  NameRowIndex: z.number().int(),
  UnitRowIndex: z.number().int(),
  ValuesStartRowIndex: z.number().int(),
  ValuesStartColumnIndex: z.number().int(),
  DateTimeFmtColumn1: z.string(),
  DateTimeFmtColumn2: z.string().optional(),
});
export type CsvLayout = z.infer<typeof csvLayout>;

export const filePreview = z.object({
  Type: z.enum(["csv", "udbf"]),
  Size: z.number(),
  Variables: z.array(
    z.object({
      Name: z.string(),
      Unit: z.string(),
      DataType: z.string().optional(),
      Direction: z.string().optional(),
      Precision: z.number().optional(),
      Lossy: z.boolean().optional(),
    }),
  ),
  SampleRateHz: z.number().nullable(),
  First: z.number().nullable(),
  Last: z.number().nullable(),
  Rows: z.number(),
  FirstRows: z.object({ Times: z.array(z.number()), Values: cells }),
  Chart: z.object({ Times: z.array(z.number()), Values: cells }),
  CSVSettings: csvLayout.optional(),
  Detected: z.boolean().optional(),
  Problem: z.string().nullable(),
});
export type FilePreview = z.infer<typeof filePreview>;

export const previewAnswer = z.object({ Data: filePreview.loose() });
export const sessionOpened = z.object({ Data: z.object({ SessionId: z.string().min(1), SourceId: z.string() }).loose() });
export const chunkAnswer = z.object({ Data: z.object({ Bytes: z.number() }).loose() });
export const importedAnswer = z.object({
  Data: z
    .object({
      MeasurementId: z.string().nullable(),
      SourceId: z.string(),
      Name: z.string().optional(),
      Rows: z.number(),
      Variables: z.array(z.object({ Id: z.string(), Name: z.string(), Unit: z.string() }).loose()).optional(),
    })
    .loose(),
});
export type Imported = z.infer<typeof importedAnswer>["Data"];
export const sessionStatus = z.object({
  Data: z.object({
    State: z.string(),
    Bytes: z.number(),
    Progress: z.object({ Phase: z.enum(["reading", "writing"]), Done: z.number(), Total: z.number() }).nullable(),
    Error: z.string().optional(),
  }),
});
