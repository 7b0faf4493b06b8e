import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { DATA_FORMAT, TYPE_NAME } from "../../udbf/format.ts";
import { UdbfError, decodeValues, directionName, isoUs, lossyType, looksLikeUdbf, parseHeader, timeDecoder, MAX_HEADER_BYTES } from "../../udbf/reader.ts";
import { CsvImportError, CsvImportReader } from "./import-csv.ts";
import type { CsvImportSettings } from "./import-csv.ts";
import { parseDateTime } from "./datetime-format.ts";
import { f32 } from "../../store/series/query.ts";

// What a data file holds, read without reading all of it (docs/logger-api.md, "Data file
// preview"): a UDBF file's header, its row count from its size, its first and last rows and
// rows picked evenly through it; a CSV file's layout detected from its first 64 KB (or taken as
// given), its lines counted, its first rows and lines picked evenly through it. The cost is
// bounded whatever the file's size (one pass of newline counting for CSV), so the file browser
// and the Import screen can show a gigabyte recording before anything is stored.

export type CsvLayout = {
  ColumnSeparator: string;
  DecimalSeparator: "." | ",";
  NameRowIndex: number;
  UnitRowIndex: number;
  ValuesStartRowIndex: number;
  ValuesStartColumnIndex: number;
  DateTimeFmtColumn1: string;
  DateTimeFmtColumn2?: string;
};

export type PreviewVariable = { Name: string; Unit: string; DataType?: string; DataFormat?: string; Direction?: string; Precision?: number; Lossy?: boolean };

export type FilePreview = {
  Type: "csv" | "udbf";
  Size: number;
  Variables: PreviewVariable[];
  SampleRateHz: number | null;
  /** Epoch ms of the first and last row (null when unknown). */
  First: number | null;
  Last: number | null;
  Rows: number;
  FirstRows: { Times: number[]; Values: (number | null)[][] };
  /** Rows picked evenly through the file (a preview chart, not every sample). */
  Chart: { Times: number[]; Values: (number | null)[][] };
  CSVSettings?: CsvLayout;
  /** The layout was found by looking (CSV without CSVSettings). */
  Detected?: boolean;
  /** What is wrong with the file, if the preview already sees it (the import says it for sure). */
  Problem: string | null;
};

const FIRST_ROWS = 10;
const CHART_ROWS = 400;
const HEAD_BYTES = 64 * 1024;

export function typeOfName(name: string): "csv" | "udbf" | null {
  const ext = name.toLowerCase().split(".").pop();
  return ext === "csv" || ext === "txt" ? "csv" : ext === "dat" || ext === "udbf" ? "udbf" : null;
}

/** The preview of the file at `path`; `type` null = by its first bytes. Throws UdbfError/CsvImportError for files it cannot read at all. */
export async function previewFile(path: string, type: "csv" | "udbf" | null, layout: CsvLayout | null): Promise<FilePreview> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const head = await readAt(fh, 0, Math.min(size, HEAD_BYTES));
    const kind = type ?? (looksLikeUdbf(head) ? "udbf" : "csv");
    return kind === "udbf" ? await previewUdbf(fh, size, head) : await previewCsv(fh, size, head, layout);
  } finally {
    await fh.close();
  }
}

async function readAt(fh: FileHandle, at: number, n: number): Promise<Uint8Array> {
  const buf = new Uint8Array(Math.max(0, n));
  let got = 0;
  while (got < n) {
    const { bytesRead } = await fh.read(buf, got, n - got, at + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

const cell = (v: number) => (v === v ? f32(v) : null);

async function previewUdbf(fh: FileHandle, size: number, head: Uint8Array): Promise<FilePreview> {
  let bytes = head;
  let info = parseHeader(bytes);
  while (!info && bytes.length < size && bytes.length < MAX_HEADER_BYTES) {
    bytes = await readAt(fh, 0, Math.min(size, bytes.length * 4));
    info = parseHeader(bytes);
  }
  if (!info) throw new UdbfError(size === 0 ? "the file is empty" : `the file ends inside its header (${size} bytes): it is cut short, or not a UDBF file`, size);
  const rows = Math.floor((size - info.dataOffset) / info.rowBytes);
  const rest = (size - info.dataOffset) % info.rowBytes;
  const time = timeDecoder(info);
  const n = info.variables.length;
  const values = new Float32Array(n);
  const inexact = info.variables.map(() => false);
  const rowAt = async (i: number) => {
    const b = await readAt(fh, info.dataOffset + i * info.rowBytes, info.rowBytes);
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    decodeValues(info, view, 0, values, inexact);
    // To the µs: the time stamps are nanoseconds, and doubles of µs since 1970 carry fractions of one.
    return { ms: Math.round(time(view, 0)) / 1000, values: [...values].map(cell) };
  };
  const pick = async (indexes: number[]) => {
    const out = { Times: [] as number[], Values: info.variables.map(() => [] as (number | null)[]) };
    for (const i of indexes) {
      const r = await rowAt(i);
      out.Times.push(r.ms);
      r.values.forEach((v, k) => out.Values[k]!.push(v));
    }
    return out;
  };
  const firstRows = await pick(Array.from({ length: Math.min(rows, FIRST_ROWS) }, (_, i) => i));
  const chart = await pick(evenly(rows, CHART_ROWS));
  const last = rows > 0 ? (await rowAt(rows - 1)).ms : null;
  return {
    Type: "udbf",
    Size: size,
    Variables: info.variables.map((v, k) => ({
      Name: v.Name,
      Unit: v.Unit,
      DataType: TYPE_NAME[v.DataType]!,
      DataFormat: DATA_FORMAT[v.DataType]!,
      Direction: directionName(v.Direction),
      Precision: v.Precision,
      // Types float32 may round (32-bit integers beyond 2^24, f64): said per type, and per value seen.
      Lossy: lossyType(v.DataType) || inexact[k]!,
    })),
    SampleRateHz: info.sampleRateHz,
    First: firstRows.Times[0] ?? null,
    Last: last,
    Rows: rows,
    FirstRows: firstRows,
    Chart: chart,
    Problem: rest ? `Byte ${info.dataOffset + rows * info.rowBytes}: the file ends ${rest} bytes into row ${rows + 1} (a row has ${info.rowBytes} bytes): it is cut short` : rows === 0 ? "The file has no data rows" : null,
  };
}

/** Up to n indexes spread evenly over [0, count), first and last included. */
function evenly(count: number, n: number): number[] {
  if (count <= n) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.round((i * (count - 1)) / (n - 1)));
}

// ---- CSV ----

const SEPARATORS = [";", ",", "\t", "|"];
/** Date-time patterns tried on the first cell(s), most particular first. */
const ONE_COLUMN = [
  "%Y-%m-%dT%H:%M:%S.%%0usZ",
  "%Y-%m-%dT%H:%M:%S.%%0us%:z",
  "%Y-%m-%dT%H:%M:%S.%%0us%z",
  "%Y-%m-%dT%H:%M:%S%z",
  "%Y-%m-%dT%H:%M:%S.%%0us",
  "%Y-%m-%d %H:%M:%S.%%0us",
  "%Y-%m-%dT%H:%M:%S",
  "%Y-%m-%d %H:%M:%S",
  "%d.%m.%Y %H:%M:%S.%F",
  "%d.%m.%Y %H:%M:%S",
  "%d/%m/%Y %H:%M:%S.%F",
  "%d/%m/%Y %H:%M:%S",
  "%m/%d/%Y %I:%M:%S %p",
  "%s.%F",
  "%s",
];
const TWO_COLUMNS: [string, string][] = [
  ["%d.%m.%Y", "%H:%M:%S.%F"],
  ["%d.%m.%Y", "%H:%M:%S"],
  ["%Y-%m-%d", "%H:%M:%S.%%0us"],
  ["%Y-%m-%d", "%H:%M:%S"],
  ["%d/%m/%Y", "%H:%M:%S"],
];

function lines(head: Uint8Array): string[] {
  const text = new TextDecoder("utf-8").decode(head);
  const all = text.split("\n");
  // The last line of the head may be cut short.
  if (head.length >= HEAD_BYTES) all.pop();
  return all.slice(0, 500).map((l) => l.replace(/^\ufeff/, "").replace(/\r$/, ""));
}

const splitCells = (line: string, sep: string) => line.split(sep).map((c) => c.trim().replace(/^"(.*)"$/, "$1"));

/** The layout of a CSV file from its first lines; null when none fits. */
export function detectCsv(head: Uint8Array): CsvLayout | null {
  const ls = lines(head);
  const content = ls.filter((l) => l.trim() && !l.startsWith("#"));
  if (content.length === 0) return null;
  const tail = content.slice(-20);
  let sep = ";";
  let best = -1;
  for (const s of SEPARATORS) {
    const counts = tail.map((l) => l.split(s).length - 1);
    const n = counts[counts.length - 1]!;
    const same = counts.filter((c) => c === n && c > 0).length;
    const score = same * 1000 + n;
    if (same >= Math.ceil(tail.length * 0.8) && score > best) (best = score), (sep = s);
  }
  const dec: "." | "," = sep !== "," && tail.some((l) => /\d,\d/.test(l)) ? "," : ".";
  for (let i = 0; i < Math.min(ls.length, 200); i++) {
    const line = ls[i]!;
    if (!line.trim() || line.startsWith("#")) continue;
    const cells = splitCells(line, sep);
    const patterns: string[][] = [
      ...ONE_COLUMN.filter((p) => plausible(parseDateTime(p, cells[0] ?? "", null, "auto"))).map((p) => [p]),
      ...(cells.length > 2 ? TWO_COLUMNS.filter(([d, t]) => plausible(parseDateTime(`${d} ${t}`, `${cells[0]} ${cells[1]}`, null, "auto"))) : []),
    ];
    for (const p of patterns) {
      const layout = layoutFor(ls, i, sep, dec, p, cells.length);
      if (layout && fits(head, layout)) return layout;
    }
  }
  return null;
}

/** A time a recording can have: a small count ("1", "2") read as epoch seconds is no date. */
const plausible = (ms: number | string) => typeof ms === "number" && ms >= Date.UTC(1990, 0, 1) && ms < Date.UTC(2100, 0, 1);

function layoutFor(ls: string[], start: number, sep: string, dec: "." | ",", patterns: string[], width: number): CsvLayout | null {
  if (width <= patterns.length) return null;
  // Header lines: those before the values with as many cells, comments (# …) and blank lines left out.
  const headers = [];
  for (let i = start - 1; i >= 0 && headers.length < 2; i--) {
    const l = ls[i]!;
    if (!l.trim() || l.startsWith("#")) break;
    if (splitCells(l, sep).length !== width) break;
    headers.unshift(i);
  }
  let name = -1;
  let unit = -1;
  if (headers.length === 2) (name = headers[0]!), (unit = headers[1]!);
  else if (headers.length === 1) {
    name = headers[0]!;
    // Names written "Name [Unit]", as the export writes them.
    if (splitCells(ls[name]!, sep).slice(patterns.length).some((c) => /\[[^\]]*\]$/.test(c))) unit = name;
  }
  return {
    ColumnSeparator: sep,
    DecimalSeparator: dec,
    NameRowIndex: name,
    UnitRowIndex: unit,
    ValuesStartRowIndex: start,
    ValuesStartColumnIndex: patterns.length,
    DateTimeFmtColumn1: patterns[0]!,
    ...(patterns[1] ? { DateTimeFmtColumn2: patterns[1] } : {}),
  };
}

export function csvSettingsOf(layout: CsvLayout): CsvImportSettings {
  return {
    ColumnSeparator: layout.ColumnSeparator,
    DecimalSeparator: layout.DecimalSeparator,
    NameRowIndex: layout.NameRowIndex,
    UnitRowIndex: layout.UnitRowIndex,
    ValuesStartRowIndex: layout.ValuesStartRowIndex,
    ValuesStartColumnIndex: layout.ValuesStartColumnIndex,
    DateTimePatterns: [layout.DateTimeFmtColumn1, ...(layout.DateTimeFmtColumn2 ? [layout.DateTimeFmtColumn2] : [])],
  };
}

/** Whether the import's own reader reads the head's whole lines with this layout. */
function fits(head: Uint8Array, layout: CsvLayout): boolean {
  try {
    const r = new CsvImportReader(csvSettingsOf(layout), null, () => {});
    r.push(wholeLines(head));
    return r.rows > 0;
  } catch {
    return false;
  }
}

function wholeLines(head: Uint8Array): Uint8Array {
  const nl = head.lastIndexOf(10);
  return nl < 0 ? head : head.subarray(0, nl + 1);
}

async function previewCsv(fh: FileHandle, size: number, head: Uint8Array, given: CsvLayout | null): Promise<FilePreview> {
  const layout = given ?? detectCsv(head);
  const empty = { Times: [] as number[], Values: [] as (number | null)[][] };
  if (!layout) {
    return { Type: "csv", Size: size, Variables: [], SampleRateHz: null, First: null, Last: null, Rows: 0, FirstRows: empty, Chart: empty, Detected: true, Problem: "No layout found: no line starts with a date and time this preview knows; choose the separators and the date format" };
  }
  const settings = csvSettingsOf(layout);
  // The first rows, with the reader the import uses.
  const first = { Times: [] as number[], Values: [] as (number | null)[][] };
  let problem: string | null = null;
  const reader = new CsvImportReader(settings, null, (us, _line, values) => {
    if (first.Times.length >= FIRST_ROWS) return;
    first.Times.push(us / 1000);
    values.forEach((v, k) => (first.Values[k] ??= []).push(cell(v)));
  });
  try {
    reader.push(size <= HEAD_BYTES ? head : wholeLines(head));
    if (size <= HEAD_BYTES) reader.end();
  } catch (err) {
    if (!(err instanceof CsvImportError)) throw err;
    problem = err.message;
  }
  const columns = reader.columns;
  // Where the values start, in bytes, and how many lines follow (one pass, newlines only).
  let dataAt = 0;
  for (let i = 0, nl = -1; i < layout.ValuesStartRowIndex; i++) {
    nl = head.indexOf(10, nl + 1);
    if (nl < 0) break;
    dataAt = nl + 1;
  }
  const rows = await countLines(fh, dataAt, size);
  // Lines picked evenly through the file, each read on its own.
  const chart = { Times: [] as number[], Values: columns.map(() => [] as (number | null)[]) };
  const one = { ...settings, NameRowIndex: -1, UnitRowIndex: -1, ValuesStartRowIndex: 0 };
  const offsets = evenly(Math.max(0, size - dataAt), CHART_ROWS).map((o) => dataAt + o);
  let last: number | null = null;
  const tail = await lastLine(fh, size);
  for (const [at, line] of [...[...new Set(offsets)].map((at) => [at, null] as const), [size, tail] as const]) {
    const text = line ?? (await lineAt(fh, at, at === dataAt));
    if (!text) continue;
    try {
      const one1 = new CsvImportReader(one, null, (us, _l, values) => {
        if (chart.Times.length && us / 1000 <= chart.Times[chart.Times.length - 1]!) return;
        chart.Times.push(us / 1000);
        values.forEach((v, k) => chart.Values[k]?.push(cell(v)));
        last = us / 1000;
      });
      one1.push(text);
      one1.end();
    } catch {
      // A line the picker cut badly, or a bad line the import will name: the chart does without it.
    }
  }
  const steps = first.Times.slice(1).map((t, i) => t - first.Times[i]!).filter((d) => d > 0);
  const step = steps.length ? Math.min(...steps) : null;
  return {
    Type: "csv",
    Size: size,
    Variables: columns.map((c) => ({ Name: c.Name, Unit: c.Unit })),
    SampleRateHz: step ? 1000 / step : null,
    First: first.Times[0] ?? null,
    Last: last ?? first.Times[first.Times.length - 1] ?? null,
    Rows: rows,
    FirstRows: { Times: first.Times, Values: columns.map((_, k) => first.Values[k] ?? []) },
    Chart: chart,
    CSVSettings: layout,
    Detected: !given,
    Problem: problem ?? (first.Times.length === 0 ? "No data rows with these settings" : null),
  };
}

/** Non-blank lines from byte `from` to the end. */
async function countLines(fh: FileHandle, from: number, size: number): Promise<number> {
  const buf = new Uint8Array(4 * 1024 * 1024);
  let n = 0;
  let prev = 10;
  for (let at = from; at < size; ) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, at);
    if (bytesRead === 0) break;
    const b = buf.subarray(0, bytesRead);
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) {
      // A line of only CR/blank after a newline is no row.
      const before = i > 0 ? b[i - 1]! : prev;
      if (before !== 10 && !(before === 13 && (i > 1 ? b[i - 2] : prev) === 10)) n++;
    }
    prev = b[bytesRead - 1]!;
    at += bytesRead;
  }
  if (prev !== 10 && size > from) n++;
  return n;
}

/** The file's last line that is not blank. */
async function lastLine(fh: FileHandle, size: number): Promise<Uint8Array | null> {
  const from = Math.max(0, size - 8192);
  const b = await readAt(fh, from, size - from);
  let e = b.length;
  while (e > 0 && (b[e - 1] === 10 || b[e - 1] === 13 || b[e - 1] === 32)) e--;
  const s = b.lastIndexOf(10, e - 1) + 1;
  return e > s && (s > 0 || from === 0) ? b.subarray(s, e) : null;
}

/** The whole line at or after byte `at` (from `at` itself when it starts a line). */
async function lineAt(fh: FileHandle, at: number, starts: boolean): Promise<Uint8Array | null> {
  const b = await readAt(fh, at, 8192);
  let s = 0;
  if (!starts) {
    const nl = b.indexOf(10);
    if (nl < 0) return null;
    s = nl + 1;
  }
  const e = b.indexOf(10, s);
  if (e < 0) return s < b.length && at + b.length >= (await fh.stat()).size ? b.subarray(s) : null;
  return b.subarray(s, e + 1);
}

export { isoUs };
