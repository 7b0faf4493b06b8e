import { z } from "zod";
import { BLOCK_SAMPLES } from "../../store/series/blocks.ts";
import { bucketColumns, bucketSamples, f32 } from "../../store/series/query.ts";
import type { Plan } from "../../store/series/query.ts";
import type { RowReader } from "../../store/series/ranges.ts";
import type { VarSeries } from "../../store/series/writer.ts";
import { zoneOffset } from "./timefmt.ts";

// CSV per RFC 4180 as the export asks for it: separators, time column, aggregate, BOM and
// comment lines are chosen by the caller; everything else is fixed (CRLF, quoting as needed).

export const CsvSettings = z.object({
  Delimiter: z.enum([",", ";", "\t"]).default(","),
  DecimalSeparator: z.enum([".", ","]).default("."),
  TimeFormat: z.enum(["iso", "epoch", "excel"]).default("iso"),
  Aggregate: z.enum(["mean", "min", "max", "last"]).default("mean"),
  BOM: z.boolean().default(false),
  /** Lines written first, each prefixed "# " (metadata of what is exported). */
  Comments: z.array(z.string().max(2000)).max(200).default([]),
});
export type CsvSettings = z.output<typeof CsvSettings>;

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
/** Excel's serial date: days since 1899-12-30 in wall time (1970-01-01 is 25569). */
const EXCEL_EPOCH_DAYS = 25569;

/** The time cell of a row in the chosen format and zone; null = unknown zone. */
export function timeCell(format: CsvSettings["TimeFormat"], zone: string, decimal: string): ((ms: number) => string) | null {
  if (format === "epoch") return (ms) => String(ms);
  const offsetAt = zoneOffset(zone);
  if (!offsetAt) return null;
  if (format === "excel") {
    return (ms) => {
      const days = (ms + offsetAt(ms) * 60_000) / 86_400_000 + EXCEL_EPOCH_DAYS;
      const text = String(Number(days.toFixed(9)));
      return decimal === "." ? text : text.replace(".", decimal);
    };
  }
  return (ms) => {
    const off = offsetAt(ms);
    const d = new Date(ms + off * 60_000);
    const a = Math.abs(off);
    const zonePart = off === 0 ? "Z" : `${off < 0 ? "-" : "+"}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}${zonePart}`;
  };
}

/** A field quoted when it holds the delimiter, a quote or a line break (RFC 4180 §2.6–2.7). */
export function quoteField(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function numberCell(v: number | null | undefined, decimal: string): string {
  if (v === null || v === undefined) return "";
  const text = String(v);
  return decimal === "." ? text : text.replace(".", decimal);
}

export function headerLines(s: CsvSettings, names: string[]): string {
  const comments = s.Comments.map((c) => `# ${c.replace(/[\r\n]+/g, " ")}\r\n`).join("");
  return `${s.BOM ? "\uFEFF" : ""}${comments}${["time", ...names].map((n) => quoteField(n, s.Delimiter)).join(s.Delimiter)}\r\n`;
}

/** Buckets k0 ≤ k < k1 of one variable under the chosen aggregate. */
export function aggregateColumn(rows: RowReader, vs: VarSeries | null, periodUs: number, p: Plan, k0: number, k1: number, aggregate: CsvSettings["Aggregate"]): (number | null)[] {
  if (aggregate !== "last" || !vs || (p.w === 1 && periodUs === p.periodUs)) {
    const cols = bucketColumns(rows, vs, periodUs, p, k0, k1);
    return aggregate === "min" ? cols.min : aggregate === "max" ? cols.max : cols.mean;
  }
  const out: (number | null)[] = [];
  for (let k = k0; k < k1; k++) {
    const [a, b] = bucketSamples(p, k, periodUs);
    out.push(lastSample(rows, vs, Math.max(a, 0), Math.min(b, vs.end)));
  }
  return out;
}

function lastSample(rows: RowReader, vs: VarSeries, a: number, b: number): number | null {
  if (a >= b) return null;
  for (let blk = Math.floor((b - 1) / BLOCK_SAMPLES), first = Math.floor(a / BLOCK_SAMPLES); blk >= first; blk--) {
    const data = rows.block(vs, blk);
    if (!data) continue;
    const base = blk * BLOCK_SAMPLES;
    for (let i = Math.min(b - base, data.length) - 1; i >= Math.max(a - base, 0); i--) {
      const v = data[i]!;
      if (v === v) return f32(v);
    }
  }
  return null;
}
