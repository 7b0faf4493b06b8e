import { createHash } from "node:crypto";

// The portable SQL of logger/store/sql.ts, as PostgreSQL takes it. Everything here works on
// the parts of a statement outside string literals, quoted identifiers and comments.

export type Part = { code: boolean; text: string };

/** Splits SQL into code and non-code (literals '…', quoted identifiers "…", comments) parts. */
export function splitSql(sql: string): Part[] {
  const parts: Part[] = [];
  let start = 0;
  let i = 0;
  const push = (end: number, code: boolean) => {
    if (end > start) parts.push({ code, text: sql.slice(start, end) });
    start = end;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    let end = -1;
    if (c === "'" || c === '"') {
      // A doubled quote inside is the quote itself.
      end = i + 1;
      for (;;) {
        const q = sql.indexOf(c, end);
        if (q < 0) {
          end = sql.length;
          break;
        }
        if (sql[q + 1] === c) end = q + 2;
        else {
          end = q + 1;
          break;
        }
      }
    } else if (c === "-" && next === "-") {
      const nl = sql.indexOf("\n", i);
      end = nl < 0 ? sql.length : nl;
    } else if (c === "/" && next === "*") {
      const close = sql.indexOf("*/", i + 2);
      end = close < 0 ? sql.length : close + 2;
    } else if (c === "$") {
      // A dollar-quoted string ($$…$$ or $tag$…$tag$), as in a function body.
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length);
        end = close < 0 ? sql.length : close + tag.length;
      }
    }
    if (end < 0) {
      i++;
      continue;
    }
    push(i, true);
    push(end, false);
    i = end;
  }
  push(sql.length, true);
  return parts;
}

/** Rewrites only the code parts of sql. */
export function mapCode(sql: string, f: (code: string) => string): string {
  return splitSql(sql)
    .map((p) => (p.code ? f(p.text) : p.text))
    .join("");
}

// Columns named with words PostgreSQL reserves (measurements.End, alarm_history.User). The
// migrations and the stores spell them exactly so; PostgreSQL needs them quoted (lowercase, the
// case every other unquoted name folds to). Keywords are written in capitals (CASE … END), so the
// canonical spelling tells the column from the keyword.
const RESERVED_COLUMNS = /\b(End|User)\b/g;
export const quoteReserved = (code: string): string => code.replace(RESERVED_COLUMNS, (w) => `"${w.toLowerCase()}"`);

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;
const ALIAS = /\bAS\s+([A-Za-z_][A-Za-z0-9_]*)/gi;

/** Every unquoted identifier-like word of the code parts of sql (keywords included). */
export function identifiers(sql: string): { aliases: string[]; words: string[] } {
  const aliases: string[] = [];
  const words: string[] = [];
  for (const p of splitSql(sql)) {
    if (!p.code) continue;
    for (const m of p.text.matchAll(ALIAS)) aliases.push(m[1]!);
    for (const m of p.text.matchAll(IDENT)) words.push(m[0]);
  }
  return { aliases, words };
}

export type Prepared = {
  text: string;
  /** The prepared statement's name; null runs it unnamed (see MAX_NAMED_PARAMS). */
  name: string | null;
  params: number;
  /** lowercase result column → the key the row gets. */
  names: Map<string, string>;
};

// A statement with many parameters is an IN list built from a filter: one per length would pile
// up as prepared statements in every pooled connection, so such statements are parsed each time.
const MAX_NAMED_PARAMS = 32;

/**
 * The PostgreSQL form of one portable statement: `?` → `$n`, reserved column names quoted,
 * LIKE → ILIKE (SQLite's LIKE ignores the case of ASCII letters, PostgreSQL's does not), a
 * stable name derived from the text, and how its result columns are spelled. `schemaNames` are
 * the spellings of the migrations' identifiers (for `SELECT *`).
 */
export function prepare(sql: string, schemaNames: ReadonlyMap<string, string>): Prepared {
  let n = 0;
  const text = mapCode(sql, (code) =>
    quoteReserved(code)
      .replace(/\?/g, () => `$${++n}`)
      .replace(/\bLIKE\b/g, "ILIKE"),
  );
  const { aliases, words } = identifiers(sql);
  // SQLite names a result column as the statement spells it, and `SELECT *` columns as the
  // schema does. So: an alias; else the statement's own spelling (keywords are in capitals, so a
  // word with a lowercase letter is a name); else the schema's; else any word of the statement.
  const names = new Map<string, string>();
  const add = (w: string) => names.has(w.toLowerCase()) || names.set(w.toLowerCase(), w);
  // (`CAST(x AS TEXT)` is no alias: capitals are left to the last rule.)
  for (const a of aliases) if (a !== a.toUpperCase()) add(a);
  for (const w of words) if (w !== w.toUpperCase()) add(w);
  for (const [k, v] of schemaNames) if (!names.has(k)) names.set(k, v);
  for (const w of words) add(w);
  const name = n > MAX_NAMED_PARAMS ? null : "l_" + createHash("sha1").update(text).digest("base64url").slice(0, 22);
  return { text, name, params: n, names };
}

/** lowercase → spelling of every column the given migrations create (CREATE TABLE, ADD/RENAME COLUMN). */
export function schemaNamesOf(ddl: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const add = (w: string) => names.has(w.toLowerCase()) || names.set(w.toLowerCase(), w);
  for (const text of ddl) {
    const code = splitSql(text)
      .map((p) => (p.code ? p.text : " "))
      .join("");
    for (const m of code.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?\w+\s*\(/gi)) {
      // The table's elements, split at the commas of its own parentheses.
      let depth = 1;
      let element = "";
      for (let i = m.index + m[0].length; i < code.length && depth > 0; i++) {
        const c = code[i]!;
        if (c === "(") depth++;
        if (c === ")") depth--;
        if ((c === "," && depth === 1) || depth === 0) {
          const first = /^\s*([A-Za-z_]\w*)/.exec(element)?.[1];
          if (first && !/^(PRIMARY|UNIQUE|CHECK|FOREIGN|CONSTRAINT)$/i.test(first)) add(first);
          element = "";
        } else element += c;
      }
    }
    for (const m of code.matchAll(/\b(?:ALTER\s+TABLE\s+\w+\s+ADD(?:\s+COLUMN)?|RENAME\s+COLUMN\s+\w+\s+TO)\s+([A-Za-z_]\w*)/gi)) add(m[1]!);
  }
  return names;
}
