import { randomUUID } from "node:crypto";
import { rmSync, statSync } from "node:fs";
import { open as openFile } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { RpcError, RS, conflict, invalidParam, notFound, refused } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import type { RestRequest, RestRoute } from "../../http/rest.ts";
import type { LoggerContext } from "../registry.ts";
import { addFinishedMeasurement } from "../../store/measurements.ts";
import { ImportSpool, PlacementError, placeRows, writeRows } from "../../store/series/import.ts";
import { StreamedImport } from "../../store/series/streamed-import.ts";
import { DateTimeFormatError, DateTimeParser } from "./datetime-format.ts";
import { CsvImportError, CsvImportReader } from "./import-csv.ts";
import { UdbfImport } from "./import-udbf.ts";
import { UdbfError, looksLikeUdbf } from "../../udbf/reader.ts";
import { zoneOffset } from "./timefmt.ts";
import { nameField } from "../schemas.ts";
import { detectCsv, previewFile } from "./preview.ts";
import type { CsvLayout } from "./preview.ts";
import { PreviewLayout } from "./preview-schema.ts";
import { bodyRead } from "../../http/memory-settle.ts";

// CSV import sessions (docs/logger-api.md, "CSV import"): open with the file's layout, send
// its bytes in any number of chunks, close — and the rows become a finished measurement of
// the named source. Every row is checked while the bytes arrive and spooled to disk already
// parsed; closing places the rows on the sample grid and only then writes to the store.

export const MAX_SESSIONS = 8;
export const MAX_CHUNK_BYTES = 256 * 1024 * 1024;
export const MAX_SESSION_BYTES = 2 * 1024 * 1024 * 1024;
export const DEFAULT_TIMEOUT_SEC = 600;
const MAX_TIMEOUT_SEC = 3600;

// The vendor's clients send numbers as strings ("SessionTimeoutSec": "300", "SampleRate": "-1").
const numeric = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v), schema);
const rowIndex = (min: number) => numeric(z.number().int().min(min).max(1_000_000));

const Separator = z
  .string()
  .length(1, { message: "Must be one character" })
  .refine((c) => !/[0-9A-Za-z".+\-\r\n]/.test(c), { message: "Cannot be a digit, letter, quote, sign, dot or line break" });

const ImportSettings = z.object({
  ColumnSeparator: Separator,
  DecimalSeparator: z.enum([".", ","]),
  NameRowIndex: rowIndex(-1),
  UnitRowIndex: rowIndex(-1).default(-1),
  ValuesStartRowIndex: rowIndex(0),
  ValuesStartColumnIndex: numeric(z.number().int().min(0).max(1000)),
  DateTimeFmtColumn1: z.string().trim().min(1, { message: "The first date-time column needs a pattern" }).max(200),
  DateTimeFmtColumn2: z.string().trim().max(200).nullish(),
  DateTimeFmtColumn3: z.string().trim().max(200).nullish(),
});

const OpenImport = z.object({
  Type: z
    .string()
    .default("csv")
    .transform((t) => t.toLowerCase())
    .pipe(z.enum(["csv", "udbf"], { error: "Type must be csv or udbf" })),
  /** Required for CSV; a UDBF file says everything itself. */
  CSVSettings: ImportSettings.optional(),
  /** Empty or absent: a new source with a new UUID. */
  SourceID: z
    .string()
    .trim()
    .max(128)
    .regex(/^[A-Za-z0-9_.:-]*$/, { message: "Letters, digits and _ . : - only" })
    .default(""),
  SourceName: nameField(200),
  MeasurementName: nameField(200).nullish(),
  /** Hz; absent, 0 or negative (the vendor's -1) = from the rows' smallest time step. */
  SampleRate: numeric(z.number().max(1_000_000)).optional(),
  SessionTimeoutSec: numeric(z.number().int().min(1).max(MAX_TIMEOUT_SEC)).default(DEFAULT_TIMEOUT_SEC),
  /** IANA zone the file's wall times are in (default UTC); a %z in the pattern wins. */
  TimeZone: z.string().trim().min(1).max(64).optional(),
  /** Retention of a source the import creates (0 = keep forever); an existing source keeps its own. */
  RetentionTimeSec: numeric(z.number().int().min(0).max(100 * 365 * 86400)).default(0),
  TimeOffsetSec: numeric(z.number())
    .optional()
    .refine((v) => !v, { message: "A time offset is not supported; give the file's TimeZone instead" }),
  /**
   * Loggia: keep the bytes as they arrive and read them only at commit (…/{session}/commit),
   * after …/{session}/preview showed what they hold: the console's Import screen.
   */
  Staged: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean()).default(false),
  /** Loggia: import a file of the file browser's data root instead of sent bytes (UseFilebrowser too). */
  File: z.string().max(2048).optional(),
});

type Session = {
  id: string;
  userId: number | null;
  sourceId: string;
  sourceName: string;
  measurementName: string | null;
  /** From SampleRate; null = inferred when the session closes. */
  periodUs: number | null;
  retentionSec: number | null;
  timeoutMs: number;
  /** 1-based line of the first row of values, for messages. */
  valuesStartLine: number;
  reader: CsvImportReader | UdbfImport;
  spool: ImportSpool;
  /** csv or udbf; a staged or file session may still change it at commit. */
  type: "csv" | "udbf";
  /** Staged and file sessions: the file the bytes are in (own: the session's, deleted with it). */
  raw: { path: string; own: boolean; fh: FileHandle | null } | null;
  /** Of a commit from a file: what is done so far. */
  progress: { Phase: "reading" | "writing"; Done: number; Total: number } | null;
  bytes: number;
  state: "open" | "receiving" | "closing" | "failed";
  /** Why a failed session failed: every later call on it answers this. */
  error: string;
  timer: ReturnType<typeof setTimeout> | null;
};

class ImportSessions {
  readonly dir: string;
  readonly open = new Map<string, Session>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, "import-spool");
    // Spool files of a logger that stopped with sessions open belong to sessions that no longer exist.
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** (Re)starts the idle clock of a session. */
  arm(s: Session, ctx: LoggerContext): void {
    this.disarm(s);
    s.timer = setTimeout(() => {
      if (s.state === "receiving" || s.state === "closing") return;
      ctx.trace.add("info", "import", `Import session ${s.id} for source ${s.sourceName} expired after ${s.timeoutMs / 1000} s without a request`);
      this.drop(s);
    }, s.timeoutMs);
    // An idle session must not keep a stopping logger alive.
    s.timer.unref();
  }

  disarm(s: Session): void {
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
  }

  drop(s: Session): void {
    this.disarm(s);
    s.spool.remove();
    if (s.reader instanceof UdbfImport) s.reader.discard();
    if (s.raw) {
      void s.raw.fh?.close().catch(() => undefined);
      s.raw.fh = null;
      if (s.raw.own) rmSync(s.raw.path, { force: true });
    }
    this.open.delete(s.id);
  }

  /** The session stays (to tell later calls why) until closed or expired; its rows go at once. */
  fail(s: Session, ctx: LoggerContext, error: string): void {
    s.state = "failed";
    s.error = error;
    s.spool.remove();
    if (s.reader instanceof UdbfImport) s.reader.discard();
    ctx.trace.add("warn", "import", `Import into source ${s.sourceName} failed: ${error}`);
    this.arm(s, ctx);
  }
}

/**
 * A UDBF import into a source the embedded store holds nothing of goes to the store as it
 * arrives (StreamedImport); one into a stored source, or on PostgreSQL, is spooled first.
 */
function streamInto(ctx: LoggerContext, sourceId: string): ((width: number, periodUs: number) => StreamedImport) | null {
  const store = ctx.data.store;
  if (store.engine !== "sqlite" || store.source(sourceId)) return null;
  return (width, periodUs) => new StreamedImport(store, width, periodUs);
}

/** Rows read and kept so far. */
function rowsOf(s: Session): number {
  return s.reader instanceof UdbfImport ? s.reader.placed : s.spool.rows;
}

const registries = new WeakMap<LoggerContext, ImportSessions>();
function sessionsOf(ctx: LoggerContext): ImportSessions {
  let s = registries.get(ctx);
  // DATA_DIR, not the series file's folder: on PostgreSQL there is no such file (the spool
  // went to the working directory, shared by every logger started there).
  if (!s) registries.set(ctx, (s = new ImportSessions(ctx.dataDir)));
  return s;
}

/** The caller's own session (another user's is as unknown as one that never existed). */
function sessionOf(r: RestRequest): { sessions: ImportSessions; s: Session } {
  const sessions = sessionsOf(r.ctx);
  const s = sessions.open.get(r.args[0]!);
  if (!s || s.userId !== r.caller.userId) throw notFound(`Import session ${r.args[0]} not found (closed, expired or never opened)`);
  if (s.state === "failed") throw invalidParam(`The import failed, nothing was stored: ${s.error}`);
  if (s.state !== "open") throw conflict(`Import session ${s.id} is busy with another request; send chunks one after the other`);
  return { sessions, s };
}

async function openSession(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const p = await r.input(OpenImport);
  const sessions = sessionsOf(r.ctx);
  const c = p.CSVSettings;
  let periodUs: number | null = null;
  if (p.SampleRate !== undefined && p.SampleRate > 0) {
    periodUs = Math.round(1e6 / p.SampleRate);
    if (Math.abs(1e6 / p.SampleRate - periodUs) > 1e-6) throw invalidParam(`SampleRate ${p.SampleRate} Hz has no whole number of microseconds as its period`);
  }
  if (p.File !== undefined) r.require("UseFilebrowser");
  // The layout of a staged or file session is chosen at commit.
  if (p.Type === "udbf" || ((p.Staged || p.File !== undefined) && !c)) return openSessionOf(r, p, sessions, periodUs, null);
  if (!c) throw invalidParam("Invalid parameter CSVSettings: Required for a CSV import (Type csv)");
  if (c.ColumnSeparator === c.DecimalSeparator) throw invalidParam("CSVSettings: ColumnSeparator and DecimalSeparator must differ");
  for (const [key, index] of [["NameRowIndex", c.NameRowIndex], ["UnitRowIndex", c.UnitRowIndex]] as const) {
    if (index >= c.ValuesStartRowIndex) throw invalidParam(`CSVSettings.${key} ${index} must be before ValuesStartRowIndex ${c.ValuesStartRowIndex} (or -1 for none)`);
  }
  if (c.DateTimeFmtColumn3 && !c.DateTimeFmtColumn2) throw invalidParam("CSVSettings.DateTimeFmtColumn3 needs DateTimeFmtColumn2");
  const patterns = [c.DateTimeFmtColumn1, c.DateTimeFmtColumn2, c.DateTimeFmtColumn3].filter((x): x is string => !!x);
  if (c.ValuesStartColumnIndex < patterns.length) {
    throw invalidParam(`CSVSettings.ValuesStartColumnIndex ${c.ValuesStartColumnIndex} lies in the ${patterns.length} date-time column${patterns.length > 1 ? "s" : ""}`);
  }
  try {
    new DateTimeParser(patterns, "auto");
  } catch (err) {
    if (err instanceof DateTimeFormatError) throw invalidParam(`CSVSettings: ${err.message}`);
    throw err;
  }
  let offsetAt: ((ms: number) => number) | null = null;
  if (p.TimeZone && p.TimeZone !== "UTC") {
    offsetAt = zoneOffset(p.TimeZone);
    if (!offsetAt) throw invalidParam(`Unknown TimeZone ${p.TimeZone}`);
  }
  return openSessionOf(r, p, sessions, periodUs, { c, patterns, offsetAt });
}

type OpenParams = z.output<typeof OpenImport>;
type CsvChoices = { c: z.output<typeof ImportSettings>; patterns: string[]; offsetAt: ((ms: number) => number) | null };

async function openSessionOf(r: RestRequest, p: OpenParams, sessions: ImportSessions, periodUs: number | null, csv: CsvChoices | null): Promise<void> {
  const sourceId = p.SourceID || randomUUID();
  if (r.ctx.data.model.sources.some((x) => x.Id === sourceId)) {
    throw refused(`Source ${sourceId} is acquired live; import into a source of its own`);
  }
  for (const other of sessions.open.values()) {
    if (other.sourceId === sourceId) throw conflict(`Another import session into source ${sourceId} is open; close it first`);
  }
  if (sessions.open.size >= MAX_SESSIONS) throw new RpcError(503, RS.Busy, `Too many import sessions open (${MAX_SESSIONS}); close one or wait until it expires`);

  let raw: Session["raw"] = null;
  if (p.File !== undefined) {
    const path = r.ctx.files.resolve(p.File);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw notFound(`No such file: ${p.File}`);
    raw = { path, own: false, fh: null };
  }
  const id = randomUUID();
  const spool = new ImportSpool(sessions.dir, id);
  if (p.Staged && !raw) raw = { path: join(sessions.dir, `${id}.raw`), own: true, fh: null };
  const sink = (us: number, line: number, values: Float32Array) => spool.add(us, line, values);
  const s: Session = {
    id,
    userId: r.caller.userId,
    sourceId,
    sourceName: p.SourceName,
    measurementName: p.MeasurementName ?? null,
    periodUs,
    retentionSec: p.RetentionTimeSec || null,
    timeoutMs: p.SessionTimeoutSec * 1000,
    valuesStartLine: csv ? csv.c.ValuesStartRowIndex + 1 : 0,
    reader: csv
      ? new CsvImportReader(
          {
            ColumnSeparator: csv.c.ColumnSeparator,
            DecimalSeparator: csv.c.DecimalSeparator,
            NameRowIndex: csv.c.NameRowIndex,
            UnitRowIndex: csv.c.UnitRowIndex,
            ValuesStartRowIndex: csv.c.ValuesStartRowIndex,
            ValuesStartColumnIndex: csv.c.ValuesStartColumnIndex,
            DateTimePatterns: csv.patterns,
          },
          csv.offsetAt,
          sink,
        )
      : // (A staged or file session's CSV reader is made at commit, when its layout is known.)
        new UdbfImport(periodUs, spool, raw ? null : streamInto(r.ctx, sourceId)),
    type: p.Type,
    raw,
    progress: null,
    spool,
    bytes: 0,
    state: "open",
    error: "",
    timer: null,
  };
  sessions.open.set(id, s);
  sessions.arm(s, r.ctx);
  // SessionID too: the vendor's own clients read that spelling.
  sendData(r.res, { SessionId: id, SessionID: id, SourceId: sourceId, TimeoutSec: p.SessionTimeoutSec, MaxChunkBytes: MAX_CHUNK_BYTES, MaxSessionBytes: MAX_SESSION_BYTES });
}

async function receiveChunk(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const { sessions, s } = sessionOf(r);
  const declared = Number(r.req.headers["content-length"] ?? 0);
  if (declared > MAX_CHUNK_BYTES) throw new RpcError(413, RS.InvalidParameter, `A chunk is limited to ${MAX_CHUNK_BYTES} bytes; send the file in several`);
  if (s.raw && !s.raw.own) throw refused(`Import session ${s.id} reads file ${s.raw.path.split("/").at(-1)}; it takes no bytes`);
  s.state = "receiving";
  sessions.disarm(s);
  if (s.raw && !s.raw.fh) s.raw.fh = await openFile(s.raw.path, "wx", 0o600);
  let received = 0;
  let problem: RpcError | null = null;
  let broken: unknown = null;
  try {
    for await (const chunk of r.req as AsyncIterable<Buffer>) {
      received += chunk.length;
      bodyRead(chunk.length);
      if (problem) {
        // Read on so that the client gets the answer rather than a reset; past a chunk's size, drop it.
        if (received > MAX_CHUNK_BYTES) r.req.destroy();
        continue;
      }
      if (received > MAX_CHUNK_BYTES) problem = new RpcError(413, RS.InvalidParameter, `A chunk is limited to ${MAX_CHUNK_BYTES} bytes; send the file in several`);
      else if (s.bytes + received > MAX_SESSION_BYTES) problem = new RpcError(413, RS.InvalidParameter, `An import session takes at most ${MAX_SESSION_BYTES} bytes`);
      else {
        try {
          if (s.raw?.fh) await s.raw.fh.write(chunk);
          else {
            s.reader.push(chunk);
            // A streamed import: the packer thread takes a few batches at a time.
            if (s.reader instanceof UdbfImport) await s.reader.ready();
          }
        } catch (err) {
          if (!(err instanceof CsvImportError || err instanceof UdbfError)) {
            broken = err;
            break;
          }
          problem = invalidParam(err.message);
        }
      }
    }
    // The UDBF reader decodes rows in 1 MB batches: the rest of this part's rows now.
    if (!problem && !broken && !s.raw && s.reader instanceof UdbfImport) {
      try {
        s.reader.flush();
      } catch (err) {
        if (err instanceof UdbfError) problem = invalidParam(err.message);
        else broken = err;
      }
    }
  } catch (err) {
    // Part of the chunk was read, the rest not: nothing can follow on from here.
    sessions.fail(s, r.ctx, `The upload of a chunk broke off (${(err as Error).message})`);
    throw invalidParam(`${s.error}. Nothing was stored, and the session takes no more chunks`);
  }
  if (broken) {
    sessions.fail(s, r.ctx, `Internal error while reading ${s.reader instanceof UdbfImport ? `byte ${s.reader.offset}` : `line ${s.reader.line}`}`);
    throw broken;
  }
  s.bytes += received;
  if (problem) {
    sessions.fail(s, r.ctx, problem.message);
    throw new RpcError(problem.status, problem.value, `${problem.message}. Nothing was stored, and the session takes no more chunks`);
  }
  s.state = "open";
  sessions.arm(s, r.ctx);
  sendData(r.res, s.raw ? { SessionId: s.id, Bytes: s.bytes } : s.reader instanceof UdbfImport ? { SessionId: s.id, Bytes: s.bytes, Rows: s.reader.rows } : { SessionId: s.id, Bytes: s.bytes, Lines: s.reader.line - 1, Rows: s.reader.rows });
}

async function closeSession(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const sessions = sessionsOf(r.ctx);
  const known = sessions.open.get(r.args[0]!);
  // Closing a failed session ends it too, and says once more that nothing was stored.
  if (known && known.userId === r.caller.userId && known.state === "failed") {
    sessions.drop(known);
    throw invalidParam(`The import failed, nothing was stored: ${known.error}`);
  }
  const { s } = sessionOf(r);
  s.state = "closing";
  sessions.disarm(s);
  try {
    if (s.raw) await readRaw(r.ctx, s, {});
    await commit(r, s);
  } finally {
    sessions.drop(s);
  }
}

// ---- staged and file sessions (Loggia): preview, then commit with the layout chosen ----

const Commit = z.object({
  Type: z.enum(["csv", "udbf"]).optional(),
  CSVSettings: PreviewLayout.optional(),
  SourceID: OpenImport.shape.SourceID.optional(),
  SourceName: nameField(200).optional(),
  MeasurementName: nameField(200).nullish(),
  TimeZone: z.string().trim().min(1).max(64).optional(),
});

/** A staged or file session of the caller's, idle. */
function rawSessionOf(r: RestRequest): { sessions: ImportSessions; s: Session & { raw: NonNullable<Session["raw"]> } } {
  const found = sessionOf(r);
  if (!found.s.raw) throw refused(`Import session ${found.s.id} reads the bytes as they arrive; only a staged (Staged: true) or file session has a preview`);
  return found as { sessions: ImportSessions; s: Session & { raw: NonNullable<Session["raw"]> } };
}

async function previewSession(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const p = await r.input(z.object({ Type: z.enum(["csv", "udbf"]).optional(), CSVSettings: PreviewLayout.optional() }));
  const { sessions, s } = rawSessionOf(r);
  sessions.arm(s, r.ctx);
  await s.raw.fh?.datasync().catch(() => undefined);
  try {
    const preview = await previewFile(s.raw.path, p.Type ?? (s.type === "udbf" ? "udbf" : null), p.CSVSettings ?? null);
    sendData(r.res, { SessionId: s.id, SourceId: s.sourceId, Bytes: s.bytes, ...preview });
  } catch (err) {
    if (err instanceof CsvImportError || err instanceof UdbfError) throw invalidParam(err.message);
    throw err;
  }
}

async function commitSession(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const p = await r.input(Commit);
  const { sessions, s } = rawSessionOf(r);
  if (p.SourceID !== undefined && p.SourceID !== s.sourceId) {
    const id = p.SourceID || randomUUID();
    if (r.ctx.data.model.sources.some((x) => x.Id === id)) throw refused(`Source ${id} is acquired live; import into a source of its own`);
    for (const other of sessions.open.values()) if (other !== s && other.sourceId === id) throw conflict(`Another import session into source ${id} is open; close it first`);
    s.sourceId = id;
  }
  if (p.SourceName) s.sourceName = p.SourceName;
  if (p.MeasurementName !== undefined) s.measurementName = p.MeasurementName ?? null;
  s.state = "closing";
  sessions.disarm(s);
  try {
    await readRaw(r.ctx, s, p);
    await commit(r, s);
  } finally {
    sessions.drop(s);
  }
}

async function cancelSession(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const sessions = sessionsOf(r.ctx);
  const s = sessions.open.get(r.args[0]!);
  if (!s || s.userId !== r.caller.userId) throw notFound(`Import session ${r.args[0]} not found (closed, expired or never opened)`);
  if (s.state === "receiving" || s.state === "closing") throw conflict(`Import session ${s.id} is busy; cancel it when its request has ended`);
  sessions.drop(s);
  sendData(r.res, { SessionId: s.id, Cancelled: true });
}

/** A session's state: how far a commit from a file has come (the Import screen's progress bar). */
async function sessionStatus(r: RestRequest): Promise<void> {
  r.require("ManageProject");
  const s = sessionsOf(r.ctx).open.get(r.args[0]!);
  if (!s || s.userId !== r.caller.userId) throw notFound(`Import session ${r.args[0]} not found (closed, expired or never opened)`);
  sendData(r.res, { SessionId: s.id, State: s.state, Type: s.type, Bytes: s.bytes, Rows: rowsOf(s), Progress: s.progress, ...(s.state === "failed" ? { Error: s.error } : {}) });
}

const RAW_PART = 4 * 1024 * 1024;

/** Reads a staged or file session's bytes through the reader its layout asks for, into the spool. */
async function readRaw(ctx: LoggerContext, s: Session, p: z.output<typeof Commit>): Promise<void> {
  const raw = s.raw!;
  await raw.fh?.close();
  raw.fh = null;
  const fh = await openFile(raw.path, "r");
  try {
    const size = (await fh.stat()).size;
    s.bytes = size;
    const head = new Uint8Array(Math.min(size, 64 * 1024));
    await fh.read(head, 0, head.length, 0);
    const sink = (us: number, line: number, values: Float32Array) => s.spool.add(us, line, values);
    const type = p.Type ?? (s.type === "udbf" || looksLikeUdbf(head) ? "udbf" : "csv");
    s.type = type;
    if (type === "csv") {
      const layout: CsvLayout | null = p.CSVSettings ?? detectCsv(head);
      if (!layout) throw invalidParam("No CSV layout found in the file's first lines: give CSVSettings. Nothing was stored");
      let offsetAt: ((ms: number) => number) | null = null;
      if (p.TimeZone && p.TimeZone !== "UTC") {
        offsetAt = zoneOffset(p.TimeZone);
        if (!offsetAt) throw invalidParam(`Unknown TimeZone ${p.TimeZone}`);
      }
      const patterns = [layout.DateTimeFmtColumn1, ...(layout.DateTimeFmtColumn2 ? [layout.DateTimeFmtColumn2] : [])];
      try {
        s.reader = new CsvImportReader({ ...layout, UnitRowIndex: layout.UnitRowIndex, DateTimePatterns: patterns }, offsetAt, sink);
      } catch (err) {
        if (err instanceof DateTimeFormatError) throw invalidParam(`CSVSettings: ${err.message}`);
        throw err;
      }
      s.valuesStartLine = layout.ValuesStartRowIndex + 1;
    } else {
      // Made now: the source is known only at commit.
      s.reader = new UdbfImport(s.periodUs, s.spool, streamInto(ctx, s.sourceId));
    }
    s.progress = { Phase: "reading", Done: 0, Total: size };
    const buf = new Uint8Array(RAW_PART);
    for (let at = 0; at < size; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, at);
      if (bytesRead === 0) break;
      try {
        s.reader.push(buf.subarray(0, bytesRead));
        if (s.reader instanceof UdbfImport) await s.reader.ready();
      } catch (err) {
        if (err instanceof CsvImportError || err instanceof UdbfError) throw invalidParam(`${err.message}. Nothing was stored`);
        throw err;
      }
      at += bytesRead;
      s.progress.Done = at;
    }
  } finally {
    await fh.close();
  }
}

async function commit(r: RestRequest, s: Session): Promise<void> {
  const { store, model } = r.ctx.data;
  // Opened and closed without a byte: a cancelled import, not a bad file.
  if (s.bytes === 0) return sendData(r.res, { SessionId: s.id, MeasurementId: null, SourceId: s.sourceId, Rows: 0 });
  try {
    s.reader.end();
  } catch (err) {
    if (err instanceof CsvImportError || err instanceof UdbfError) throw invalidParam(`${err.message}. Nothing was stored`);
    throw err;
  }
  const rows = rowsOf(s);
  if (rows === 0) {
    if (s.reader instanceof UdbfImport) throw invalidParam(`The file has no data rows: it ends after its header (${s.bytes} bytes). Nothing was stored`);
    throw invalidParam(`The file has no data rows: ${s.reader.line - 1} lines, and values start at line ${s.valuesStartLine} (ValuesStartRowIndex ${s.valuesStartLine - 1}). Nothing was stored`);
  }
  if (model.sources.some((x) => x.Id === s.sourceId)) throw refused(`Source ${s.sourceId} is acquired live; import into a source of its own`);
  const existing = store.source(s.sourceId);
  let storedEndUs = 0;
  if (existing) {
    for (const v of store.variablesOf(existing.Id)) {
      for (const part of store.partsOf(v)) if (part.vs.end >= 0) storedEndUs = Math.max(storedEndUs, part.vs.end * part.periodUs);
    }
  }
  const udbf = s.reader instanceof UdbfImport ? s.reader : null;
  const streamed = udbf?.streamed ?? null;
  if (streamed && existing) throw conflict(`Source ${s.sourceId} came into the store while the file arrived; import the file again. Nothing was stored`);
  // Its last rows written (the partial blocks too) before anything is registered.
  if (streamed) await streamed.finish();
  let periodUs: number;
  let placement;
  try {
    if (udbf) {
      // Each row is already on the grid's nearest sample (UdbfImport): only the store's end is checked.
      placement = udbf.placement(storedEndUs);
      s.spool.flush();
      periodUs = placement.periodUs;
    } else {
      const csv = s.reader as CsvImportReader;
      periodUs = s.periodUs ?? (rows > 1 ? csv.minStepUs : (existing?.PeriodUs ?? 1_000_000));
      placement = await placeRows(s.spool, periodUs, storedEndUs);
    }
  } catch (err) {
    if (err instanceof PlacementError) throw invalidParam(`${err.message}. Nothing was stored`);
    throw err;
  }

  // Everything in the file is known to fit: from here on it is written.
  const source = existing ?? store.defineSource({ Id: s.sourceId, Name: s.sourceName, PeriodUs: periodUs, RetentionSec: s.retentionSec });
  if (existing && existing.PeriodUs !== periodUs) store.changePeriod(existing.Id, periodUs, placement.g0 * periodUs);
  const byName = new Map(store.variablesOf(source.Id).map((v) => [v.Name, v]));
  const variables = streamed
    ? streamed.adopt(source.Id, s.reader.columns)
    : s.reader.columns.map((c) => byName.get(c.Name) ?? store.defineVariable({ Id: randomUUID(), SourceId: source.Id, Name: c.Name, Unit: c.Unit }));
  // Imported recordings are kept whatever their age: no retention counted from now deletes them.
  store.retentionExempt.add(source.Id);
  s.progress = { Phase: "writing", Done: streamed ? rows : 0, Total: rows };
  // A streamed import's rows are stored already.
  if (!streamed) await writeRows(store, s.spool, placement, variables.map((v) => v.Id), (done) => s.progress && (s.progress.Done = done));

  const start = (placement.g0 * periodUs) / 1000;
  // End is exclusive, as a stopped measurement's: [Start, End) holds every imported row.
  const end = ((placement.lastSlot + 1) * periodUs) / 1000;
  const m = await addFinishedMeasurement(r.ctx.db, {
    Name: s.measurementName ?? `Import ${new Date(start).toISOString()}`,
    Start: start,
    End: end,
    SourceId: source.Id,
    Variables: variables.map((v) => v.Id),
    MetaData: [
      { Key: "Origin", Value: udbf ? "UDBF import" : "CSV import" },
      { Key: "Rows", Value: String(rows) },
      ...(udbf ? udbf.metaData() : []),
    ],
  });
  await r.audit(`Imported measurement ${m.Name} (${rows} rows)`);
  r.ctx.trace.add("info", "import", `Imported ${rows} rows (${s.bytes} bytes) into source ${source.Name} as measurement ${m.Name}`);
  sendData(r.res, {
    SessionId: s.id,
    MeasurementId: m.ID,
    SourceId: source.Id,
    Name: m.Name,
    Rows: rows,
    Start: start,
    End: end,
    SampleRateHz: 1e6 / periodUs,
    ShiftMs: placement.shiftUs / 1000,
    Variables: variables.map((v, i) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, ...(udbf ? udbf.variableFacts(i) : {}) })),
  });
}

export const importRoutes: RestRoute[] = [
  { method: "POST", pattern: /^\/history\/data\/import$/, handler: openSession },
  { method: "POST", pattern: /^\/history\/data\/import\/([^/]+)$/, body: "bytes", handler: receiveChunk },
  { method: "DELETE", pattern: /^\/history\/data\/import\/([^/]+)$/, handler: closeSession },
  { method: "GET", pattern: /^\/history\/data\/import\/([^/]+)$/, handler: sessionStatus },
  { method: "POST", pattern: /^\/history\/data\/import\/([^/]+)\/preview$/, handler: previewSession },
  { method: "POST", pattern: /^\/history\/data\/import\/([^/]+)\/commit$/, handler: commitSession },
  { method: "POST", pattern: /^\/history\/data\/import\/([^/]+)\/cancel$/, handler: cancelSession },
];
