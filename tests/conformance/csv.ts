// Our own reading and writing of the CSV the contract describes (`CSVSettings`): a
// strftime-like date-time format with %d %m %Y %H %M %S, `%%0us` (microseconds, six digits),
// `%F` (the same six digits, as the family's import settings write it) and literal text; column and
// decimal separators as asked. Times are UTC (the suite always asks for TimeZone "UTC",
// TimeOffset 0).

type Token = { kind: "lit"; text: string } | { kind: "field"; name: "d" | "m" | "Y" | "H" | "M" | "S" | "us" };

const FIELD_WIDTH = { d: 2, m: 2, Y: 4, H: 2, M: 2, S: 2, us: 6 } as const;

function tokenize(format: string): Token[] {
  const tokens: Token[] = [];
  let lit = "";
  const flush = () => {
    if (lit) tokens.push({ kind: "lit", text: lit });
    lit = "";
  };
  for (let i = 0; i < format.length; ) {
    if (format.startsWith("%%0us", i)) {
      flush();
      tokens.push({ kind: "field", name: "us" });
      i += 5;
    } else if (format[i] === "%" && i + 1 < format.length) {
      const c = format[i + 1]!;
      if (c === "%") lit += "%";
      else if (c === "F") {
        flush();
        tokens.push({ kind: "field", name: "us" });
      } else if ("dmYHMS".includes(c)) {
        flush();
        tokens.push({ kind: "field", name: c as "d" | "m" | "Y" | "H" | "M" | "S" });
      } else throw new Error(`date-time format ${JSON.stringify(format)}: %${c} is not supported by this suite`);
      i += 2;
    } else {
      lit += format[i];
      i += 1;
    }
  }
  flush();
  return tokens;
}

/** Epoch milliseconds (fractional, to the microsecond) → text in `format`, UTC. */
export function formatDateTime(ms: number, format: string): string {
  const whole = Math.floor(ms);
  const d = new Date(whole);
  const micros = Math.round((ms - Math.floor(ms / 1000) * 1000) * 1000);
  const parts = { d: d.getUTCDate(), m: d.getUTCMonth() + 1, Y: d.getUTCFullYear(), H: d.getUTCHours(), M: d.getUTCMinutes(), S: d.getUTCSeconds(), us: micros };
  return tokenize(format)
    .map((t) => (t.kind === "lit" ? t.text : String(parts[t.name]).padStart(FIELD_WIDTH[t.name], "0")))
    .join("");
}

/** Text in `format` → epoch milliseconds (UTC, fractional); throws saying why it does not match. */
export function parseDateTime(text: string, format: string): number {
  const tokens = tokenize(format);
  const parts: Record<string, number> = { d: 1, m: 1, Y: 1970, H: 0, M: 0, S: 0, us: 0 };
  let at = 0;
  for (const t of tokens) {
    if (t.kind === "lit") {
      if (!text.startsWith(t.text, at)) throw new Error(`${JSON.stringify(text)} does not match ${JSON.stringify(format)} at position ${at} (expected ${JSON.stringify(t.text)})`);
      at += t.text.length;
    } else {
      const width = FIELD_WIDTH[t.name];
      const digits = text.slice(at, at + width);
      if (!new RegExp(`^\\d{${width}}$`).test(digits)) {
        throw new Error(`${JSON.stringify(text)} does not match ${JSON.stringify(format)} at position ${at} (expected ${width} digits for ${t.name === "us" ? "%%0us" : `%${t.name}`})`);
      }
      parts[t.name] = Number(digits);
      at += width;
    }
  }
  if (at !== text.length) throw new Error(`${JSON.stringify(text)} does not match ${JSON.stringify(format)}: unexpected ${JSON.stringify(text.slice(at))} at the end`);
  return Date.UTC(parts.Y!, parts.m! - 1, parts.d!, parts.H!, parts.M!, parts.S!) + parts.us! / 1000;
}

export interface CsvExportSettings {
  HeaderText?: string;
  AddColumnHeader: boolean;
  DateTimeHeader: string;
  DateTimeFormat: string;
  ColumnSeparator: string;
  DecimalSeparator: string;
}

export interface ParsedCsv {
  /** Lines before the column header (where HeaderText goes). */
  preamble: string[];
  /** The column header cells, when AddColumnHeader. */
  header: string[] | null;
  rows: { line: number; cells: string[] }[];
}

/**
 * Splits an exported CSV into preamble, column header and data rows. With a column header,
 * the header is the first line whose first cell is `DateTimeHeader`; without, data starts at
 * the first line whose first cell reads as a date-time in `DateTimeFormat`.
 */
export function splitCsv(text: string, settings: CsvExportSettings): ParsedCsv {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  const sep = settings.ColumnSeparator;
  const unquote = (cell: string) => (/^".*"$/.test(cell) ? cell.slice(1, -1).replace(/""/g, '"') : cell);
  let start: number;
  let header: string[] | null = null;
  if (settings.AddColumnHeader) {
    start = lines.findIndex((l) => unquote(l.split(sep)[0] ?? "") === settings.DateTimeHeader);
    if (start < 0) throw new Error(`no column header line starting with ${JSON.stringify(settings.DateTimeHeader + sep)} in the first lines: ${JSON.stringify(lines.slice(0, 3))}`);
    header = lines[start]!.split(sep).map(unquote);
    start += 1;
  } else {
    start = lines.findIndex((l) => {
      try {
        parseDateTime(l.split(sep)[0] ?? "", settings.DateTimeFormat);
        return true;
      } catch {
        return false;
      }
    });
    if (start < 0) start = lines.length;
  }
  const preamble = lines.slice(0, settings.AddColumnHeader ? start - 1 : start);
  const rows = lines.slice(start).map((l, i) => ({ line: start + i + 1, cells: l.split(sep) }));
  return { preamble, header, rows };
}

/** A value cell → number (null when empty), checking it uses exactly the decimal separator asked. */
export function parseNumberCell(cell: string, decimalSeparator: string): number | null {
  if (cell === "") return null;
  const esc = decimalSeparator.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!new RegExp(`^-?\\d+(${esc}\\d+)?([eE][-+]?\\d+)?$`).test(cell)) {
    throw new Error(`value ${JSON.stringify(cell)} is not a number written with decimal separator ${JSON.stringify(decimalSeparator)}`);
  }
  return Number(cell.replace(decimalSeparator, "."));
}

/** A number as the import file writes it, with the decimal separator asked. */
export function numberCell(value: number, decimalSeparator: string): string {
  return String(value).replace(".", decimalSeparator);
}
