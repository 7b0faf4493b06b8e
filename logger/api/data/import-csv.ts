import { DateTimeParser } from "./datetime-format.ts";

// The CSV reader of an import session: bytes in any chunks → rows of (time, float32 values),
// checked line by line so that a bad file is refused before anything is stored. Works on the
// bytes themselves (no string per line or cell) because a session may carry gigabytes.

export type CsvImportSettings = {
  ColumnSeparator: string;
  DecimalSeparator: string;
  /** 0-based line of the column names; -1 = none (columns are named "Column <n>"). */
  NameRowIndex: number;
  /** 0-based line of the units; -1 = none; the name line itself = names written "Name [Unit]". */
  UnitRowIndex: number;
  ValuesStartRowIndex: number;
  ValuesStartColumnIndex: number;
  /** Patterns of the date-time columns 0, 1, 2 (empty = that column is not part of the time). */
  DateTimePatterns: string[];
};

export type ImportColumn = { Name: string; Unit: string };

/** Receives every row in file order; `values` is reused, copy what you keep. */
export type RowSink = (us: number, line: number, values: Float32Array) => void;

/** A row that cannot be imported: the session answers 400 with this text. */
export class CsvImportError extends Error {}

export const MAX_LINE_BYTES = 1024 * 1024;
export const MAX_VALUE_COLUMNS = 256;
/** Rows must lie in [1970, 2100): the store's row keys address sample indices below that. */
const MAX_US = Date.UTC(2100, 0, 1) * 1000;

const QUOTE = 34;
const CR = 13;
const SPACE = 32;
const TAB = 9;
/** Returned by readNumber for a cell that is not a number (NaN already means an empty cell). */
const BAD = Number.POSITIVE_INFINITY;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * A number cell [s, e): [+-]digits[<dec>digits][e[+-]digits], blanks around it allowed. Empty =
 * NaN (a gap), anything else BAD, also values beyond float32's range. Decimals of up to 15
 * significant digits and exponents up to 22 take the exact fast path (one correctly rounded
 * operation on exact doubles); longer ones go through Number(), so the double is always the
 * one Number() gives and the stored float32 the nearest to it.
 */
export function readNumber(buf: Uint8Array, s: number, e: number, dec: number): number {
  while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
  while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
  if (s === e || (e - s === 3 && isNan(buf, s))) return Number.NaN;
  let i = s;
  let neg = false;
  if (buf[i] === 45) (neg = true), i++;
  else if (buf[i] === 43) i++;
  let m = 0;
  let sig = 0;
  let exp = 0;
  let digits = 0;
  let slow = false;
  for (; i < e; i++) {
    const c = buf[i]! - 48;
    if (c < 0 || c > 9) break;
    digits++;
    if (sig < 15) {
      m = m * 10 + c;
      if (m !== 0) sig++;
    } else slow = true;
  }
  if (i < e && buf[i] === dec) {
    for (i++; i < e; i++) {
      const c = buf[i]! - 48;
      if (c < 0 || c > 9) break;
      digits++;
      if (sig < 15) {
        m = m * 10 + c;
        if (m !== 0) sig++;
        exp--;
      } else slow = true;
    }
  }
  if (digits === 0) return BAD;
  if (i < e && (buf[i]! | 32) === 101) {
    i++;
    let sign = 1;
    if (i < e && (buf[i] === 45 || buf[i] === 43)) sign = buf[i++] === 45 ? -1 : 1;
    let x = 0;
    let n = 0;
    for (; i < e; i++) {
      const c = buf[i]! - 48;
      if (c < 0 || c > 9) break;
      if (x < 10000) x = x * 10 + c;
      n++;
    }
    if (n === 0) return BAD;
    exp += sign * x;
  }
  if (i !== e) return BAD;
  let v: number;
  if (slow || exp < -22 || exp > 22) {
    let text = "";
    for (let q = s; q < e; q++) text += buf[q] === dec ? "." : String.fromCharCode(buf[q]!);
    v = Math.abs(Number(text));
  } else {
    v = exp < 0 ? m / POW10[-exp]! : m * POW10[exp]!;
  }
  const f = Math.fround(neg ? -v : v);
  return Number.isFinite(f) ? f : BAD;
}

/** "NaN" in any letter case at s (a gap, as the vendor's sample files and pandas write one). */
function isNan(buf: Uint8Array, s: number): boolean {
  return (buf[s]! | 32) === 110 && (buf[s + 1]! | 32) === 97 && (buf[s + 2]! | 32) === 110;
}

/** Cells of one line with RFC 4180 quotes ("" inside a quoted cell is one "); null = a quote is not closed. */
function splitQuoted(buf: Uint8Array, s: number, e: number, sep: number): Uint8Array[] | null {
  const cells: Uint8Array[] = [];
  let i = s;
  for (;;) {
    let a = i;
    while (a < e && (buf[a] === SPACE || buf[a] === TAB)) a++;
    if (a < e && buf[a] === QUOTE) {
      const bytes: number[] = [];
      let j = a + 1;
      for (;;) {
        if (j >= e) return null;
        if (buf[j] === QUOTE) {
          if (j + 1 < e && buf[j + 1] === QUOTE) (bytes.push(QUOTE), (j += 2));
          else break;
        } else bytes.push(buf[j++]!);
      }
      j++;
      while (j < e && buf[j] !== sep) j++;
      cells.push(Uint8Array.from(bytes));
      if (j >= e) return cells;
      i = j + 1;
    } else {
      let j = i;
      while (j < e && buf[j] !== sep) j++;
      cells.push(buf.subarray(i, j));
      if (j >= e) return cells;
      i = j + 1;
    }
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const cp1252 = new TextDecoder("windows-1252");
/** Header text: UTF-8, or Windows-1252 when it is not valid UTF-8 (Excel on Windows writes that). */
function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return cp1252.decode(bytes);
  }
}

function describeCell(buf: Uint8Array, s: number, e: number): string {
  const text = decodeText(buf.subarray(s, Math.min(e, s + 60))).trim();
  return e - s > 60 ? `"${text}…"` : `"${text}"`;
}

export class CsvImportReader {
  private readonly s: CsvImportSettings;
  private readonly sep: number;
  private readonly dec: number;
  private readonly dt: DateTimeParser;
  private readonly timeColumns: number;
  private readonly offsetAt: ((ms: number) => number) | null;
  private readonly sink: RowSink;
  private carry = new Uint8Array(0);
  private carryLen = 0;
  /** 1-based number of the line being read (as editors count). */
  line = 1;
  rows = 0;
  firstUs = Number.NaN;
  lastUs = Number.NaN;
  /** Smallest step between consecutive rows (µs), Infinity with fewer than two rows. */
  minStepUs = Number.POSITIVE_INFINITY;
  private names: string[] | null = null;
  private units: string[] | null = null;
  /** Cells per line, once the name line or the first data line has said. */
  private width = -1;
  columns: ImportColumn[] = [];
  private values = new Float32Array(0);

  constructor(settings: CsvImportSettings, offsetAt: ((ms: number) => number) | null, sink: RowSink) {
    this.s = settings;
    this.sep = settings.ColumnSeparator.charCodeAt(0);
    this.dec = settings.DecimalSeparator.charCodeAt(0);
    this.dt = new DateTimeParser(settings.DateTimePatterns, "auto");
    this.timeColumns = this.dt.columnCount;
    this.offsetAt = offsetAt;
    this.sink = sink;
  }

  /** The next bytes of the file; throws CsvImportError at the first line that cannot be imported. */
  push(bytes: Uint8Array): void {
    // Node hands Buffers, the carry is a plain Uint8Array: one element kind keeps the loops fast.
    const chunk = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) {
        this.keep(chunk, start, chunk.length);
        return;
      }
      if (this.carryLen > 0) {
        this.keep(chunk, start, nl);
        const len = this.carryLen;
        this.carryLen = 0;
        this.readLine(this.carry, 0, len);
      } else {
        this.readLine(chunk, start, nl);
      }
      start = nl + 1;
    }
  }

  /** The file is complete: reads a last line that has no line break. */
  end(): void {
    if (this.carryLen > 0) {
      const len = this.carryLen;
      this.carryLen = 0;
      this.readLine(this.carry, 0, len);
    }
    if (this.names === null && this.s.NameRowIndex >= 0 && this.line - 1 <= this.s.NameRowIndex) {
      throw new CsvImportError(`The file has ${this.line - 1} lines, so no name line ${this.s.NameRowIndex + 1} (NameRowIndex ${this.s.NameRowIndex})`);
    }
  }

  private keep(chunk: Uint8Array, s: number, e: number): void {
    const n = e - s;
    if (n === 0) return;
    if (this.carryLen + n > MAX_LINE_BYTES) throw new CsvImportError(`Line ${this.line} is longer than ${MAX_LINE_BYTES} bytes`);
    if (this.carry.length < this.carryLen + n) {
      const grown = new Uint8Array(Math.min(MAX_LINE_BYTES, Math.max(4096, (this.carryLen + n) * 2)));
      grown.set(this.carry.subarray(0, this.carryLen));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(s, e), this.carryLen);
    this.carryLen += n;
  }

  private readLine(buf: Uint8Array, s: number, e: number): void {
    if (e > s && buf[e - 1] === CR) e--;
    // A byte-order mark may start any line: the vendor's sample files have one on every line.
    if (e - s >= 3 && buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) s += 3;
    const index = this.line - 1;
    if (index < this.s.ValuesStartRowIndex) this.headerLine(index, buf, s, e);
    else this.dataLine(buf, s, e);
    this.line++;
  }

  private headerLine(index: number, buf: Uint8Array, s: number, e: number): void {
    if (index !== this.s.NameRowIndex && index !== this.s.UnitRowIndex) return;
    const cells = splitQuoted(buf, s, e, this.sep);
    if (!cells) throw new CsvImportError(`Line ${this.line}: a quote is not closed`);
    const texts = cells.map((c) => decodeText(c).trim());
    if (index === this.s.NameRowIndex) {
      this.names = texts;
      this.setWidth(texts.length);
    }
    if (index === this.s.UnitRowIndex && index !== this.s.NameRowIndex) {
      if (this.width >= 0 && texts.length !== this.width) {
        throw new CsvImportError(`Line ${this.line} (units) has ${texts.length} columns, expected ${this.width}`);
      }
      this.units = texts;
    }
  }

  private setWidth(width: number): void {
    const first = this.s.ValuesStartColumnIndex;
    if (width <= first) {
      throw new CsvImportError(`Line ${this.line} has ${width} column${width === 1 ? "" : "s"}, so none from column ${first + 1} on (ValuesStartColumnIndex ${first}) holds values; is the ColumnSeparator right?`);
    }
    if (width - first > MAX_VALUE_COLUMNS) throw new CsvImportError(`Line ${this.line} has ${width - first} value columns; at most ${MAX_VALUE_COLUMNS} are imported in one session`);
    this.width = width;
    this.values = new Float32Array(width - first);
  }

  /** Names and units of the value columns, fixed once the first data line is read. */
  private fixColumns(): void {
    const first = this.s.ValuesStartColumnIndex;
    if (this.units && this.units.length !== this.width) {
      throw new CsvImportError(`Line ${this.s.UnitRowIndex + 1} (units) has ${this.units.length} columns, expected ${this.width}`);
    }
    const seen = new Map<string, number>();
    const sameLine = this.s.UnitRowIndex >= 0 && this.s.UnitRowIndex === this.s.NameRowIndex;
    this.columns = [];
    for (let c = first; c < this.width; c++) {
      let name = this.names?.[c] ?? "";
      let unit = sameLine ? "" : (this.units?.[c] ?? "");
      const bracket = sameLine ? /^(.*?)\s*\[([^\]]*)\]$/.exec(name) : null;
      if (bracket) (name = bracket[1]!), (unit = bracket[2]!.trim());
      if (!name) name = `Column ${c + 1}`;
      if (name.length > 200 || unit.length > 50) throw new CsvImportError(`Line ${this.s.NameRowIndex + 1}, column ${c + 1}: names are limited to 200 characters, units to 50`);
      const twice = seen.get(name);
      if (twice !== undefined) throw new CsvImportError(`Line ${this.s.NameRowIndex + 1}: columns ${twice + 1} and ${c + 1} are both named ${name}`);
      seen.set(name, c);
      this.columns.push({ Name: name, Unit: unit });
    }
  }

  private dataLine(buf: Uint8Array, s: number, e: number): void {
    let a = s;
    while (a < e && (buf[a] === SPACE || buf[a] === TAB)) a++;
    if (a === e) return;
    if (this.width < 0) {
      const cells = splitQuoted(buf, s, e, this.sep);
      if (!cells) throw new CsvImportError(`Line ${this.line}: a quote is not closed`);
      this.setWidth(cells.length);
    }
    if (this.columns.length === 0) this.fixColumns();
    this.dt.fields.reset();
    if (!this.fastCells(buf, s, e)) {
      this.dt.fields.reset();
      const problem = this.cells(buf, s, e);
      if (problem) throw new CsvImportError(problem);
    }
    const us = this.dt.toMicros(this.offsetAt);
    if (typeof us === "string") throw new CsvImportError(`Line ${this.line}, column 1: ${us}`);
    if (us < 0 || us >= MAX_US) throw new CsvImportError(`Line ${this.line}, column 1: ${new Date(us / 1000).toISOString()} lies outside 1970–2099`);
    if (this.rows > 0) {
      if (us <= this.lastUs) {
        throw new CsvImportError(`Line ${this.line}, column 1: time ${iso(us)} is not after the previous row's ${iso(this.lastUs)}; times must increase`);
      }
      if (us - this.lastUs < this.minStepUs) this.minStepUs = us - this.lastUs;
    } else {
      this.firstUs = us;
    }
    this.lastUs = us;
    this.rows++;
    this.sink(us, this.line, this.values);
  }

  /**
   * The common line in one pass over its bytes: no quotes, every cell fine. Returns false at
   * anything else, and the careful path below reads the line again (and says what is wrong).
   */
  private fastCells(buf: Uint8Array, s: number, e: number): boolean {
    const sep = this.sep;
    const first = this.s.ValuesStartColumnIndex;
    const times = this.timeColumns;
    const width = this.width;
    let col = 0;
    let i = s;
    for (;;) {
      if (col >= width) return false;
      if (col < times) {
        let j = i;
        while (j < e && buf[j] !== sep) j++;
        let a = i;
        let b = j;
        while (a < b && (buf[a] === SPACE || buf[a] === TAB)) a++;
        while (b > a && (buf[b - 1] === SPACE || buf[b - 1] === TAB)) b--;
        if (this.dt.readColumn(col, buf, a, b) !== null) return false;
        i = j;
      } else if (col >= first) {
        const v = this.number(buf, i, e);
        if (v === BAD) return false;
        this.values[col - first] = v;
        i = this.at;
      } else {
        while (i < e && buf[i] !== sep) i++;
      }
      col++;
      if (i >= e) break;
      i++;
    }
    return col === width;
  }

  /** Where number() stopped: the separator after the cell, or the line's end. */
  private at = 0;

  /**
   * A number cell from i on, as readNumber reads it, without looking for its end first: up to
   * 15 digits without exponent here (exact: one division of exact doubles), the rest there.
   */
  private number(buf: Uint8Array, i: number, e: number): number {
    const dec = this.dec;
    while (i < e && (buf[i] === SPACE || buf[i] === TAB)) i++;
    const start = i;
    let neg = false;
    if (i < e && buf[i] === 45) (neg = true), i++;
    else if (i < e && buf[i] === 43) i++;
    let m = 0;
    let digits = 0;
    let c = 0;
    for (; i < e && (c = buf[i]! - 48) >>> 0 <= 9; i++) (m = m * 10 + c), digits++;
    let fraction = 0;
    if (i < e && buf[i] === dec) {
      for (i++; i < e && (c = buf[i]! - 48) >>> 0 <= 9; i++) (m = m * 10 + c), fraction++;
      digits += fraction;
    }
    let slow = digits > 15;
    if (i < e && (buf[i]! | 32) === 101) {
      slow = true;
      i++;
      if (i < e && (buf[i] === 45 || buf[i] === 43)) i++;
      while (i < e && (buf[i]! - 48) >>> 0 <= 9) i++;
    }
    let end = i;
    if (digits === 0 && end === start && i + 3 <= e && isNan(buf, i)) end = i += 3;
    while (i < e && (buf[i] === SPACE || buf[i] === TAB)) i++;
    this.at = i;
    if (i < e && buf[i] !== this.sep) return BAD;
    if (digits === 0) return end === start || (end - start === 3 && isNan(buf, start)) ? Number.NaN : BAD;
    if (slow) return readNumber(buf, start, end, dec);
    const v = fraction ? m / POW10[fraction]! : m;
    return Math.fround(neg ? -v : v);
  }

  /** Reads the cells of a data line; returns what is wrong with it, or null. */
  private cells(buf: Uint8Array, s: number, e: number): string | null {
    const sep = this.sep;
    const first = this.s.ValuesStartColumnIndex;
    let col = 0;
    let fs = s;
    for (let i = s; ; i++) {
      if (i < e && buf[i] !== sep) continue;
      let a = fs;
      while (a < i && (buf[a] === SPACE || buf[a] === TAB)) a++;
      if (a < i && buf[a] === QUOTE) return this.quotedCells(buf, s, e);
      if (col < this.timeColumns || col >= first) {
        const problem = this.cell(col, buf, fs, i);
        if (problem) return this.widthProblem(buf, s, e) ?? problem;
      }
      col++;
      if (i >= e) break;
      fs = i + 1;
    }
    return col === this.width ? null : this.widthProblem(buf, s, e);
  }

  // The slow path, for the rare line with a quoted cell.
  private quotedCells(buf: Uint8Array, s: number, e: number): string | null {
    const cells = splitQuoted(buf, s, e, this.sep);
    if (!cells) return `Line ${this.line}: a quote is not closed`;
    if (cells.length !== this.width) return this.widthMessage(cells.length);
    this.dt.fields.reset();
    for (let col = 0; col < cells.length; col++) {
      if (col >= this.timeColumns && col < this.s.ValuesStartColumnIndex) continue;
      const problem = this.cell(col, cells[col]!, 0, cells[col]!.length);
      if (problem) return problem;
    }
    return null;
  }

  private cell(col: number, buf: Uint8Array, s: number, e: number): string | null {
    if (col >= this.width) return null;
    if (col < this.timeColumns) {
      while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
      while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
      const problem = this.dt.readColumn(col, buf, s, e);
      if (!problem) return null;
      return `Line ${this.line}, column ${col + 1}: cannot read ${describeCell(buf, s, e)} as "${this.s.DateTimePatterns[col]}" (${problem})`;
    }
    const v = readNumber(buf, s, e, this.dec);
    if (v !== BAD) {
      this.values[col - this.s.ValuesStartColumnIndex] = v;
      return null;
    }
    const name = this.columns[col - this.s.ValuesStartColumnIndex]?.Name;
    return `Line ${this.line}, column ${col + 1}${name ? ` (${name})` : ""}: cannot read ${describeCell(buf, s, e)} as a number with decimal separator "${this.s.DecimalSeparator}" (or it is beyond float32's range)`;
  }

  private widthProblem(buf: Uint8Array, s: number, e: number): string | null {
    const cells = splitQuoted(buf, s, e, this.sep);
    if (!cells) return `Line ${this.line}: a quote is not closed`;
    return cells.length === this.width ? null : this.widthMessage(cells.length);
  }

  private widthMessage(n: number): string {
    return `Line ${this.line} has ${n} column${n === 1 ? "" : "s"}, expected ${this.width} (as ${this.names ? `the name line ${this.s.NameRowIndex + 1}` : "the first data line"})`;
  }
}

/** ISO 8601 UTC with as many fractional digits as the time has (µs at most). */
function iso(us: number): string {
  const ms = Math.floor(us / 1000);
  const rest = us - ms * 1000;
  const text = new Date(ms).toISOString();
  return rest ? `${text.slice(0, -1)}${String(rest).padStart(3, "0")}Z` : text;
}
