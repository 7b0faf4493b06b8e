import { z } from "zod";
import { BLOCK_SAMPLES } from "../../store/series/blocks.ts";
import { bucketColumn, bucketSamples, bucketTime, f32, partSamples, trackColumn } from "../../store/series/query.ts";
import type { Part } from "../../store/series/store.ts";
import type { Plan } from "../../store/series/query.ts";
import type { RowReader } from "../../store/series/ranges.ts";
import type { VarSeries } from "../../store/series/writer.ts";
import { dateTimeFormatter, zoneOffset } from "./timefmt.ts";

// CSV per RFC 4180 as the export asks for it: separators, time column, aggregate, BOM and
// comment lines are chosen by the caller; everything else is fixed (CRLF, quoting as needed).

export const EXCEL_SERIAL = "excel";

/**
 * CSVSettings of the contract (LOGGER-API.md), honoured exactly, plus Loggia's Aggregate (of a
 * resampled export) and BOM. DateTimeFormat "excel" (Loggia's) writes Excel serial dates.
 */
export const CsvSettings = z
  .object({
    HeaderText: z.string().max(100_000).optional(),
    AddColumnHeader: z.boolean().default(true),
    DateTimeHeader: z.string().max(200).default("datetime"),
    DateTimeFormat: z.string().min(1).max(200).default("%Y-%m-%d %H:%M:%S.%%0us"),
    // One character that cannot be part of a number or a quoted field.
    ColumnSeparator: z.string().regex(/^[^\d\r\n".+-]$/, "ColumnSeparator must be one character such as ; , | or a tab").default(";"),
    DecimalSeparator: z.enum([".", ","]).default("."),
    Aggregate: z.enum(["mean", "min", "max", "last"]).default("mean"),
    BOM: z.boolean().default(false),
  })
  .refine((s) => s.ColumnSeparator !== s.DecimalSeparator, { message: "ColumnSeparator and DecimalSeparator must differ", path: ["ColumnSeparator"] });
export type CsvSettings = z.output<typeof CsvSettings>;

/** Excel's serial date: days since 1899-12-30 in wall time (1970-01-01 is 25569). */
const EXCEL_EPOCH_DAYS = 25569;

/** The time cell of a row as the settings ask, in the zone; or the text of the problem. */
export function timeCell(s: Pick<CsvSettings, "DateTimeFormat" | "DecimalSeparator">, zone: string): ((ms: number) => string) | { problem: string } {
  if (s.DateTimeFormat !== EXCEL_SERIAL) return dateTimeFormatter(s.DateTimeFormat, zone);
  const offsetAt = zoneOffset(zone);
  if (!offsetAt) return { problem: `Unknown TimeZone ${zone}` };
  return (ms) => {
    const days = (ms + offsetAt(ms) * 60_000) / 86_400_000 + EXCEL_EPOCH_DAYS;
    const text = String(Number(days.toFixed(9)));
    return s.DecimalSeparator === "." ? text : text.replace(".", s.DecimalSeparator);
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

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** floor(log10(a)) for 1e-6 ≤ a < 1e15 by comparisons: Math.log10 was a third of a value's cost. */
function magnitude(a: number): number {
  let m = 0;
  if (a >= 1) {
    while (m < 14 && a >= POW10[m + 1]!) m++;
    return m;
  }
  // 10^-m exactly as a power of ten's reciprocal would not be: compare a·10^m against 1 instead.
  while (a * POW10[m + 1]! < 1) m++;
  return -(m + 1);
}

/**
 * Rows written as bytes into one buffer per slice: a gigabyte export makes no string per value.
 * Numbers that are float32 get their shortest decimal (the digits f32() picks) from the scaled
 * integer; anything else goes through numberCell.
 */
export class RowBuffer {
  buf: Buffer;
  pos = 0;
  private readonly dec: number;
  private readonly digits = new Uint8Array(24);
  constructor(capacity: number, decimal: string) {
    this.buf = Buffer.allocUnsafe(capacity);
    this.dec = decimal.charCodeAt(0);
  }
  text(s: string): void {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 128) this.buf[this.pos++] = c;
      else this.pos += this.buf.write(s[i]!, this.pos, "utf8");
    }
  }
  byte(c: number): void {
    this.buf[this.pos++] = c;
  }
  value(v: number | null | undefined): void {
    if (v === null || v === undefined || v !== v) return;
    if (v === 0) return this.byte(48);
    const a = Math.abs(v);
    if (Math.fround(v) === v && a >= 1e-6 && a < 1e15) {
      const mag = magnitude(a);
      for (let p = 6; p <= 9; p++) {
        const k = p - 1 - mag;
        if (k < 0) break;
        const r = Math.round(v * POW10[k]!);
        if (Math.fround(r / POW10[k]!) !== v) continue;
        return this.scaled(Math.abs(r), k, v < 0);
      }
    }
    this.text(numberCell(Math.fround(v) === v ? f32(v) : v, String.fromCharCode(this.dec)));
  }
  // m / 10^k written out, trailing zeros of the fraction dropped.
  // m < 10^9 fits an int32: integer division instead of floating-point remainders.
  private scaled(m: number, k: number, negative: boolean): void {
    let i = m | 0;
    let q = (i / 10) | 0;
    while (k > 0 && i === q * 10) (i = q), (q = (i / 10) | 0), k--;
    const d = this.digits;
    let n = 0;
    do {
      q = (i / 10) | 0;
      d[n++] = 48 + i - q * 10;
      i = q;
    } while (i > 0);
    const b = this.buf;
    if (negative) b[this.pos++] = 45;
    if (n <= k) {
      b[this.pos++] = 48;
      b[this.pos++] = this.dec;
      for (let z = k - n; z > 0; z--) b[this.pos++] = 48;
      while (n > 0) b[this.pos++] = d[--n]!;
      return;
    }
    while (n > k) b[this.pos++] = d[--n]!;
    if (k === 0) return;
    b[this.pos++] = this.dec;
    while (n > 0) b[this.pos++] = d[--n]!;
  }
}

/** BOM, the header text (its lines ended with CRLF) and the column header, as the settings ask. */
export function headerLines(s: CsvSettings, names: string[]): string {
  const text = s.HeaderText ? `${s.HeaderText.replace(/\r?\n/g, "\r\n").replace(/\r\n$/, "")}\r\n` : "";
  const columns = s.AddColumnHeader ? `${[s.DateTimeHeader, ...names].map((n) => quoteField(n, s.ColumnSeparator)).join(s.ColumnSeparator)}\r\n` : "";
  return `${s.BOM ? "\uFEFF" : ""}${text}${columns}`;
}

/** Buckets k0 ≤ k < k1 of one variable under the chosen aggregate. */
export function aggregateColumn(rows: RowReader, vs: VarSeries | null, periodUs: number, p: Plan, k0: number, k1: number, aggregate: CsvSettings["Aggregate"]): (number | null)[] {
  if (aggregate !== "last" || !vs || (p.w === 1 && periodUs === p.periodUs)) {
    return bucketColumn(rows, vs, periodUs, p, k0, k1, aggregate === "last" ? "mean" : aggregate);
  }
  const out: (number | null)[] = [];
  for (let k = k0; k < k1; k++) {
    const [a, b] = bucketSamples(p, k, periodUs);
    out.push(lastSample(rows, vs, Math.max(a, 0), Math.min(b, vs.end)));
  }
  return out;
}

/** aggregateColumn for a variable made of parts (a source whose period changed). */
export function aggregateTrack(rows: RowReader, parts: readonly Part[], p: Plan, k0: number, k1: number, aggregate: CsvSettings["Aggregate"]): (number | null)[] {
  if (parts.length <= 1) return aggregateColumn(rows, parts[0]?.vs ?? null, parts[0]?.periodUs ?? p.periodUs, p, k0, k1, aggregate);
  if (aggregate !== "last") {
    return trackColumn(rows, parts, p, k0, k1, aggregate);
  }
  const out: (number | null)[] = [];
  for (let k = k0; k < k1; k++) {
    const [t0, t1] = bucketTime(p, k);
    let found: number | null = null;
    for (let i = parts.length - 1; i >= 0 && found === null; i--) {
      const part = parts[i]!;
      const [a, b] = partSamples(part, t0, t1);
      found = lastSample(rows, part.vs, Math.max(a, 0), Math.min(b, part.vs.end));
    }
    out.push(found);
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
