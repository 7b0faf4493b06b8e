// The logger family's date-time notation, as its data clients write it: strftime-like
// conversions plus the family's fractional-second form. Import sessions read with it
// (CSVSettings.DateTimeFmtColumn1…3); it formats too, so the CSV export's DateTimeFormat can
// share it and both sides write and read the same thing.
//
//   %Y year              %y year, 2 digits (69–99 → 19xx, else 20xx)     %j day of the year
//   %m month 01–12       %b / %B month name (Jan / January; English, any case)
//   %d day 01–31         %e day, space-padded
//   %H hour 00–23        %I or %h hour 01–12, with %p AM/PM
//   %M minute            %S second                %T = %H:%M:%S
//   %%<n>us  the fraction of the second, n digits (1–6), %%0us all six (the contract's
//            "%Y-%m-%d %H:%M:%S.%%0us": "%%" is how the vendor's formatter passes it through strftime)
//   %F  strftime's %Y-%m-%d — but the vendor's import patterns write "%d.%m.%Y %H:%M:%S.%F" for
//       the fraction of the second (six digits, as in POCO). Dialect "date" always reads the
//       former (the export's DateTimeFormat), "fraction" the latter, "auto" (imports) the
//       fraction right after a "." or "," and the date anywhere else ("%F %T" stays a date).
//   %i milliseconds 000–999   %z UTC offset (+hhmm; reads +hh:mm and Z too)   %:z (+hh:mm)
//   %s seconds since 1970     %a / %A weekday name (read and ignored)     %% a percent sign
// Reading is lenient where writers differ: numbers may have fewer digits than their width, a
// fraction takes 1–9 digits whatever its width, a blank matches any run of blanks (or none).

export type DateTimeToken =
  | { kind: "literal"; text: string }
  | { kind: "space" }
  | { kind: "year4" | "year2" | "month" | "day" | "dayPadded" | "dayOfYear" | "hour24" | "hour12" | "minute" | "second" | "millis" | "epoch" }
  | { kind: "fraction"; digits: number }
  | { kind: "ampm" }
  | { kind: "offset"; colon: boolean }
  | { kind: "monthName" | "weekday"; full: boolean };

export class DateTimeFormatError extends Error {}

/** What %F means: strftime's date (the export), the vendor import patterns' fraction, or by its place. */
export type PercentF = "date" | "fraction" | "auto";

const SIMPLE: Record<string, DateTimeToken[]> = {
  Y: [{ kind: "year4" }],
  y: [{ kind: "year2" }],
  j: [{ kind: "dayOfYear" }],
  m: [{ kind: "month" }],
  d: [{ kind: "day" }],
  e: [{ kind: "dayPadded" }],
  H: [{ kind: "hour24" }],
  I: [{ kind: "hour12" }],
  h: [{ kind: "hour12" }],
  M: [{ kind: "minute" }],
  S: [{ kind: "second" }],
  T: [{ kind: "hour24" }, { kind: "literal", text: ":" }, { kind: "minute" }, { kind: "literal", text: ":" }, { kind: "second" }],
  i: [{ kind: "millis" }],
  p: [{ kind: "ampm" }],
  z: [{ kind: "offset", colon: false }],
  s: [{ kind: "epoch" }],
  b: [{ kind: "monthName", full: false }],
  B: [{ kind: "monthName", full: true }],
  a: [{ kind: "weekday", full: false }],
  A: [{ kind: "weekday", full: true }],
};
const F_DATE: DateTimeToken[] = [{ kind: "year4" }, { kind: "literal", text: "-" }, { kind: "month" }, { kind: "literal", text: "-" }, { kind: "day" }];

/** The tokens of a pattern; throws DateTimeFormatError naming what it does not know. */
export function compileDateTimeFormat(pattern: string, percentF: PercentF = "date"): DateTimeToken[] {
  const out: DateTimeToken[] = [];
  let literal = "";
  const flush = () => {
    if (literal) out.push({ kind: "literal", text: literal });
    literal = "";
  };
  const push = (tokens: DateTimeToken[]) => {
    flush();
    for (const t of tokens) {
      const last = out.at(-1);
      // Neighbouring literals merge, so that reading compares them in one go.
      if (t.kind === "literal" && last?.kind === "literal") out[out.length - 1] = { kind: "literal", text: last.text + t.text };
      else out.push(t);
    }
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === " " || c === "\t") {
      flush();
      if (out.at(-1)?.kind !== "space") out.push({ kind: "space" });
      continue;
    }
    if (c !== "%") {
      literal += c;
      continue;
    }
    const rest = pattern.slice(i + 1);
    const fraction = /^%([0-6])us/.exec(rest);
    if (fraction) {
      push([{ kind: "fraction", digits: Number(fraction[1]) || 6 }]);
      i += fraction[0].length;
    } else if (rest.startsWith("%")) {
      literal += "%";
      i += 1;
    } else if (rest.startsWith(":z")) {
      push([{ kind: "offset", colon: true }]);
      i += 2;
    } else if (rest[0] === "F") {
      const fractionF = percentF === "fraction" || (percentF === "auto" && (pattern[i - 1] === "." || pattern[i - 1] === ","));
      push(fractionF ? [{ kind: "fraction", digits: 6 }] : F_DATE);
      i += 1;
    } else if (rest[0] !== undefined && SIMPLE[rest[0]]) {
      push(SIMPLE[rest[0]]!);
      i += 1;
    } else {
      throw new DateTimeFormatError(rest[0] === undefined ? `"${pattern}" ends with a lone %` : `"${pattern}": unknown conversion %${rest[0]} at position ${i + 1}`);
    }
  }
  flush();
  return out;
}

// ---- formatting ----

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n: number, w: number) => String(n).padStart(w, "0");

/**
 * Formats an instant as wall time: `us` is epoch microseconds, `offsetMin` the zone's offset
 * east of UTC at that instant (0 for UTC). %z writes the offset as +hhmm.
 */
export function formatDateTime(tokens: readonly DateTimeToken[], us: number, offsetMin = 0): string {
  const wallUs = us + offsetMin * 60_000_000;
  const sec = Math.floor(wallUs / 1e6);
  const micros = wallUs - sec * 1e6;
  const d = new Date(sec * 1000);
  let out = "";
  for (const t of tokens) {
    switch (t.kind) {
      case "literal": out += t.text; break;
      case "space": out += " "; break;
      case "year4": out += pad(d.getUTCFullYear(), 4); break;
      case "year2": out += pad(d.getUTCFullYear() % 100, 2); break;
      case "month": out += pad(d.getUTCMonth() + 1, 2); break;
      case "day": out += pad(d.getUTCDate(), 2); break;
      case "dayPadded": out += String(d.getUTCDate()).padStart(2, " "); break;
      case "hour24": out += pad(d.getUTCHours(), 2); break;
      case "hour12": out += pad(((d.getUTCHours() + 11) % 12) + 1, 2); break;
      case "minute": out += pad(d.getUTCMinutes(), 2); break;
      case "second": out += pad(d.getUTCSeconds(), 2); break;
      case "millis": out += pad(Math.floor(micros / 1000), 3); break;
      case "fraction": out += pad(Math.floor(micros / 10 ** (6 - t.digits)), t.digits); break;
      case "dayOfYear": out += pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3); break;
      case "ampm": out += d.getUTCHours() < 12 ? "AM" : "PM"; break;
      case "epoch": out += String(Math.floor(us / 1e6)); break;
      case "offset": {
        const a = Math.abs(offsetMin);
        out += `${offsetMin < 0 ? "-" : "+"}${pad(Math.floor(a / 60), 2)}${t.colon ? ":" : ""}${pad(a % 60, 2)}`;
        break;
      }
      case "monthName": out += t.full ? MONTHS[d.getUTCMonth()] : MONTHS[d.getUTCMonth()]!.slice(0, 3); break;
      case "weekday": out += t.full ? WEEKDAYS[d.getUTCDay()] : WEEKDAYS[d.getUTCDay()]!.slice(0, 3); break;
    }
  }
  return out;
}

// ---- reading ----

/** What the columns of one row have said so far; reset before each row. */
export class DateTimeFields {
  year = -1;
  month = -1;
  day = -1;
  hour = 0;
  minute = 0;
  second = 0;
  micros = 0;
  dayOfYear = -1;
  hour12 = false;
  pm = false;
  offsetMin = Number.NaN;
  epochSec = Number.NaN;

  reset(): void {
    this.year = this.month = this.day = -1;
    this.hour = this.minute = this.second = this.micros = 0;
    this.dayOfYear = -1;
    this.hour12 = this.pm = false;
    this.offsetMin = this.epochSec = Number.NaN;
  }
}

const SPACE = 32;
const TAB = 9;
const DIGIT0 = 48;
const isDigit = (b: number) => b >= DIGIT0 && b <= DIGIT0 + 9;
const lower = (b: number) => (b >= 65 && b <= 90 ? b + 32 : b);
const MONTH_KEYS = MONTHS.map((m) => m.toLowerCase());
const WEEKDAY_KEYS = WEEKDAYS.map((w) => w.toLowerCase());
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

type Compiled = {
  tokens: DateTimeToken[];
  literals: (Uint8Array | null)[];
  /**
   * The last token, when a literal comes right before it (else -1): consecutive rows usually
   * differ only there (the fraction after "%S."), so a row whose bytes up to it equal the
   * previous row's takes the earlier tokens' fields from that row and reads only the last one.
   * Only after a literal: a number or blank before it could have read on into different bytes.
   */
  last: number;
  /** FIELD bits the tokens before `last` write. */
  mask: number;
  memo: Uint8Array;
  /** Bytes of `memo` that hold the previous row's text before `last`; -1 = nothing yet. */
  memoLen: number;
  snap: Float64Array;
};

const FIELD: Partial<Record<DateTimeToken["kind"], number>> = {
  year4: 1, year2: 1, month: 2, monthName: 2, day: 4, dayPadded: 4, hour24: 8, hour12: 8 | 256, minute: 16, second: 32,
  millis: 64, fraction: 64, dayOfYear: 128, ampm: 512, offset: 1024, epoch: 2048,
};

/**
 * Reads date-times split over up to three columns (one pattern each) straight from the bytes
 * of a CSV line, without making strings: the import reads millions of rows.
 */
export class DateTimeParser {
  private readonly columns: Compiled[];
  readonly fields = new DateTimeFields();
  // Consecutive rows usually share the day: Date.UTC once per day, not per row.
  private dayKey = -1;
  private dayMs = 0;

  /** Throws DateTimeFormatError when a pattern is unknown or the patterns lack a date. */
  constructor(patterns: readonly string[], percentF: PercentF = "date") {
    this.columns = patterns.map((p) => {
      const tokens = compileDateTimeFormat(p, percentF);
      const last = tokens.length >= 2 && tokens[tokens.length - 2]!.kind === "literal" ? tokens.length - 1 : -1;
      let mask = 0;
      for (let k = 0; k < last; k++) mask |= FIELD[tokens[k]!.kind] ?? 0;
      const literals = tokens.map((t) => (t.kind === "literal" ? new TextEncoder().encode(t.text) : null));
      return { tokens, literals, last, mask, memo: new Uint8Array(64), memoLen: -1, snap: new Float64Array(12) };
    });
    const kinds = new Set(this.columns.flatMap((c) => c.tokens.map((t) => t.kind)));
    const year = kinds.has("year4") || kinds.has("year2");
    const hasDate = year && (kinds.has("dayOfYear") || ((kinds.has("month") || kinds.has("monthName")) && (kinds.has("day") || kinds.has("dayPadded"))));
    if (!kinds.has("epoch") && !hasDate) {
      throw new DateTimeFormatError(`The patterns ${patterns.map((p) => `"${p}"`).join(", ")} give no full date (%Y or %y with %m or %b and %d, or with %j) and no %s`);
    }
    if (kinds.has("hour12") !== kinds.has("ampm")) throw new DateTimeFormatError("%I (12-hour clock) and %p (AM/PM) go together");
  }

  get columnCount(): number {
    return this.columns.length;
  }

  /**
   * Reads column `col`'s cell bytes [s, e) (blanks around it already trimmed) into `fields`.
   * Returns null, or why the cell does not match its pattern.
   */
  readColumn(col: number, buf: Uint8Array, s: number, e: number): string | null {
    const c = this.columns[col]!;
    const n = c.memoLen;
    if (n >= 0 && e - s >= n) {
      const memo = c.memo;
      let j = 0;
      while (j < n && buf[s + j] === memo[j]) j++;
      if (j === n) {
        this.restore(c);
        return this.readTokens(c, buf, s + n, e, c.last);
      }
    }
    const problem = this.readTokens(c, buf, s, e, 0);
    if (problem === null && c.last >= 0) {
      const len = this.lastAt - s;
      if (len <= c.memo.length) {
        c.memo.set(buf.subarray(s, this.lastAt));
        c.memoLen = len;
        this.snapshot(c);
      } else c.memoLen = -1;
    }
    return problem;
  }

  /** Where the last token of the column just read started. */
  private lastAt = 0;

  private snapshot(c: Compiled): void {
    const f = this.fields;
    const v = c.snap;
    v[0] = f.year, v[1] = f.month, v[2] = f.day, v[3] = f.hour, v[4] = f.minute, v[5] = f.second;
    v[6] = f.micros, v[7] = f.dayOfYear, v[8] = f.hour12 ? 1 : 0, v[9] = f.pm ? 1 : 0, v[10] = f.offsetMin, v[11] = f.epochSec;
  }

  private restore(c: Compiled): void {
    const f = this.fields;
    const v = c.snap;
    const m = c.mask;
    if (m & 1) f.year = v[0]!;
    if (m & 2) f.month = v[1]!;
    if (m & 4) f.day = v[2]!;
    if (m & 8) f.hour = v[3]!;
    if (m & 16) f.minute = v[4]!;
    if (m & 32) f.second = v[5]!;
    if (m & 64) f.micros = v[6]!;
    if (m & 128) f.dayOfYear = v[7]!;
    if (m & 256) f.hour12 = v[8] === 1;
    if (m & 512) f.pm = v[9] === 1;
    if (m & 1024) f.offsetMin = v[10]!;
    if (m & 2048) f.epochSec = v[11]!;
  }

  private readTokens(c: Compiled, buf: Uint8Array, s: number, e: number, from: number): string | null {
    const { tokens, literals } = c;
    const f = this.fields;
    let i = s;
    for (let k = from; k < tokens.length; k++) {
      if (k === c.last) this.lastAt = i;
      const t = tokens[k]!;
      switch (t.kind) {
        case "literal": {
          const lit = literals[k]!;
          if (e - i < lit.length) return `expected "${t.text}"`;
          for (let j = 0; j < lit.length; j++) if (buf[i + j] !== lit[j]) return `expected "${t.text}"`;
          i += lit.length;
          break;
        }
        case "space":
          while (i < e && (buf[i] === SPACE || buf[i] === TAB)) i++;
          break;
        case "fraction": {
          let n = 0;
          let v = 0;
          while (i < e && isDigit(buf[i]!) && n < 9) (v = v * 10 + buf[i]! - DIGIT0), n++, i++;
          if (n === 0) return "expected fractional seconds";
          f.micros = Math.round(v * 10 ** (6 - n));
          break;
        }
        case "ampm": {
          const a = i < e ? lower(buf[i]!) : 0;
          if (e - i < 2 || lower(buf[i + 1]!) !== 109 || (a !== 97 && a !== 112)) return "expected AM or PM";
          f.pm = a === 112;
          i += 2;
          break;
        }
        case "offset": {
          if (i < e && (buf[i] === 90 || buf[i] === 122)) {
            f.offsetMin = 0;
            i++;
            break;
          }
          const sign = i < e && buf[i] === 45 ? -1 : i < e && buf[i] === 43 ? 1 : 0;
          if (!sign) return "expected a UTC offset like +01:00 or Z";
          i++;
          if (e - i < 2 || !isDigit(buf[i]!) || !isDigit(buf[i + 1]!)) return "expected a UTC offset like +01:00 or Z";
          const hh = (buf[i]! - DIGIT0) * 10 + buf[i + 1]! - DIGIT0;
          i += 2;
          if (i < e && buf[i] === 58) i++;
          let mm = 0;
          if (e - i >= 2 && isDigit(buf[i]!) && isDigit(buf[i + 1]!)) (mm = (buf[i]! - DIGIT0) * 10 + buf[i + 1]! - DIGIT0), (i += 2);
          if (hh > 23 || mm > 59) return "UTC offset out of range";
          f.offsetMin = sign * (hh * 60 + mm);
          break;
        }
        case "monthName":
        case "weekday": {
          let j = i;
          while (j < e && ((buf[j]! | 32) >= 97 && (buf[j]! | 32) <= 122)) j++;
          let word = "";
          for (let q = i; q < j; q++) word += String.fromCharCode(lower(buf[q]!));
          const keys = t.kind === "monthName" ? MONTH_KEYS : WEEKDAY_KEYS;
          const idx = keys.findIndex((key) => key === word || key.slice(0, 3) === word);
          if (idx < 0) return `expected a ${t.kind === "monthName" ? "month" : "weekday"} name`;
          if (t.kind === "monthName") f.month = idx + 1;
          i = j;
          break;
        }
        default: {
          const max = t.kind === "year4" ? 4 : t.kind === "epoch" ? 12 : t.kind === "millis" || t.kind === "dayOfYear" ? 3 : 2;
          if (t.kind === "dayPadded") while (i < e && buf[i] === SPACE) i++;
          let n = 0;
          let v = 0;
          while (i < e && n < max && isDigit(buf[i]!)) (v = v * 10 + buf[i]! - DIGIT0), n++, i++;
          if (n === 0) return `expected ${DESCRIBE[t.kind]}`;
          switch (t.kind) {
            case "year4": f.year = v; break;
            case "year2": f.year = v < 69 ? 2000 + v : 1900 + v; break;
            case "month": f.month = v; break;
            case "day": case "dayPadded": f.day = v; break;
            case "dayOfYear": f.dayOfYear = v; break;
            case "hour24": f.hour = v; break;
            case "hour12": (f.hour = v), (f.hour12 = true); break;
            case "minute": f.minute = v; break;
            case "second": f.second = v; break;
            case "millis": f.micros = v * 1000; break;
            case "epoch": f.epochSec = v; break;
          }
        }
      }
    }
    return i === e ? null : "unexpected text after the pattern";
  }

  /**
   * Epoch µs of what the row's columns said, read as wall time in a zone whose offset at an
   * instant `offsetAt` tells (null = UTC); an explicit %z wins. Returns a string when the fields
   * do not make a valid date-time.
   */
  toMicros(offsetAt: ((ms: number) => number) | null): number | string {
    const f = this.fields;
    if (!Number.isNaN(f.epochSec)) return f.epochSec * 1e6 + f.micros;
    if (f.dayOfYear >= 0) {
      if (f.dayOfYear < 1 || f.dayOfYear > (leap(f.year) ? 366 : 365)) return `day of the year ${f.dayOfYear} out of range`;
      const d = new Date(Date.UTC(f.year, 0, f.dayOfYear));
      f.month = d.getUTCMonth() + 1;
      f.day = d.getUTCDate();
    }
    if (f.month < 1 || f.month > 12) return `month ${f.month} out of range`;
    const dim = f.month === 2 && leap(f.year) ? 29 : DAYS_IN_MONTH[f.month - 1]!;
    if (f.day < 1 || f.day > dim) return `day ${f.day} out of range`;
    let hour = f.hour;
    if (f.hour12) {
      if (hour < 1 || hour > 12) return `hour ${hour} out of range for a 12-hour clock`;
      hour = (hour % 12) + (f.pm ? 12 : 0);
    }
    if (hour > 23) return `hour ${hour} out of range`;
    if (f.minute > 59) return `minute ${f.minute} out of range`;
    if (f.second > 59) return `second ${f.second} out of range`;
    const key = (f.year * 16 + f.month) * 32 + f.day;
    if (key !== this.dayKey) (this.dayKey = key), (this.dayMs = Date.UTC(f.year, f.month - 1, f.day));
    const wallMs = this.dayMs + hour * 3_600_000 + f.minute * 60_000 + f.second * 1000;
    let offsetMin = f.offsetMin;
    if (Number.isNaN(offsetMin)) offsetMin = offsetAt ? wallToOffset(wallMs, offsetAt) : 0;
    return (wallMs - offsetMin * 60_000) * 1000 + f.micros;
  }
}

const DESCRIBE: Record<string, string> = {
  year4: "a year", year2: "a 2-digit year", month: "a month", day: "a day", dayPadded: "a day", dayOfYear: "a day of the year", hour24: "an hour",
  hour12: "an hour", minute: "minutes", second: "seconds", millis: "milliseconds", epoch: "seconds since 1970",
};

/**
 * The offset that turns a wall time into UTC. Around a DST change a wall time can be ambiguous
 * (the earlier instant is taken) or skipped (read with the offset before the change).
 */
function wallToOffset(wallMs: number, offsetAt: (ms: number) => number): number {
  const first = offsetAt(wallMs);
  const second = offsetAt(wallMs - first * 60_000);
  return offsetAt(wallMs - second * 60_000) === second ? second : first;
}

/** One date-time string read with one pattern, in UTC or with offsetAt's zone: epoch ms, or why not. */
export function parseDateTime(pattern: string, text: string, offsetAt: ((ms: number) => number) | null = null, percentF: PercentF = "date"): number | string {
  const p = new DateTimeParser([pattern], percentF);
  p.fields.reset();
  const bytes = new TextEncoder().encode(text.trim());
  const problem = p.readColumn(0, bytes, 0, bytes.length);
  if (problem) return problem;
  const us = p.toMicros(offsetAt);
  return typeof us === "string" ? us : us / 1000;
}
