import { Readable } from "node:stream";
import busboy from "busboy";
import type { LoggerClient } from "./logger/client.server";
import { chunkAnswer, previewAnswer, sessionOpened, sessionStatus, importedAnswer, type CsvLayout, type FilePreview, type Imported } from "./logger/importSchemas";
import { z } from "zod";
import { sourcesAnswer } from "./logger/schemas";
import { loadVariables } from "./variables.server";
import { filesQuery } from "./files.server";
import { IMPORT_BODY_LIMIT } from "~/schemas/import";

// The Import screen's server side (app/routes/import.tsx): an uploaded file streams through the
// console into a staged import session of the logger in parts of PART_BYTES (never held whole,
// whatever its size), the logger previews what it holds, and the import is committed with the
// choices made on the preview. A file of the file browser is imported in place.

/** Bytes sent to the logger per request: what the console holds of an upload at most. */
export const PART_BYTES = 8 * 1024 * 1024;
/** The largest file imported through the console (the logger's session takes 2 GiB). */
export const IMPORT_LIMIT = IMPORT_BODY_LIMIT;

export type UploadFields = Record<string, string>;
export type Staged = { session: string; name: string; bytes: number; fields: UploadFields };

export class UploadRefused extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const typeOfName = (name: string) => (/\.(dat|udbf)$/i.test(name) ? "udbf" : /\.(csv|txt)$/i.test(name) ? "csv" : undefined);

/**
 * Reads a multipart upload as it arrives: the form's small fields (they come before the file:
 * the form lists them first), then the file, which goes to a new staged session in parts. The
 * session is cancelled when anything fails, so a refused upload leaves nothing behind.
 */
export async function stageUpload(logger: LoggerClient, request: Request, sourceName: (fields: UploadFields, fileName: string) => string): Promise<Staged> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!request.body || !/^multipart\/form-data/i.test(type)) throw new UploadRefused("no-file");
  const fields: UploadFields = {};
  const parser = busboy({ headers: { "content-type": type }, limits: { files: 1, fields: 20, fieldSize: 4096, fileSize: IMPORT_LIMIT } });
  let staged: Promise<Staged> | null = null;
  const done = new Promise<Staged>((resolve, reject) => {
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("file", (_name, stream, info) => {
      if (staged || !info.filename) {
        stream.resume();
        return;
      }
      staged = sendFile(logger, stream, info.filename, fields, sourceName(fields, info.filename));
      staged.then(resolve, reject);
    });
    parser.on("error", (err) => reject(err));
    parser.on("close", () => {
      if (!staged) reject(new UploadRefused("no-file"));
    });
  });
  Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>)
    .on("error", (err) => parser.destroy(err))
    .pipe(parser);
  return done;
}

async function sendFile(logger: LoggerClient, stream: Readable & { truncated?: boolean }, name: string, fields: UploadFields, sourceName: string): Promise<Staged> {
  const opened = await logger.rest("POST", "/history/data/import", { Staged: true, Type: typeOfName(name), SourceName: sourceName, SessionTimeoutSec: 3600 }, sessionOpened);
  const session = opened.Data.SessionId;
  let bytes = 0;
  try {
    const part = new Uint8Array(new ArrayBuffer(PART_BYTES));
    let filled = 0;
    const flush = async () => {
      if (filled === 0) return;
      await logger.upload(`/history/data/import/${encodeURIComponent(session)}`, part.slice(0, filled), chunkAnswer);
      filled = 0;
    };
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; ) {
        const n = Math.min(chunk.length - at, PART_BYTES - filled);
        part.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        bytes += n;
        // The stream waits meanwhile: what the console holds is one part.
        if (filled === PART_BYTES) await flush();
      }
    }
    if (stream.truncated) throw new UploadRefused("too-large", 413);
    await flush();
    if (bytes === 0) throw new UploadRefused("empty");
  } catch (err) {
    stream.resume();
    await cancelSession(logger, session).catch(() => undefined);
    throw err;
  }
  return { session, name, bytes, fields };
}

export async function previewSession(logger: LoggerClient, session: string, layout: CsvLayout | null): Promise<FilePreview> {
  return (await logger.rest("POST", `/history/data/import/${encodeURIComponent(session)}/preview`, layout ? { CSVSettings: layout } : {}, previewAnswer)).Data;
}

export async function previewPath(logger: LoggerClient, path: string, layout: CsvLayout | null): Promise<FilePreview> {
  return (await logger.rest("POST", "/files/preview", { Path: path, ...(layout ? { CSVSettings: layout } : {}) }, previewAnswer)).Data;
}

export type Target = { SourceID?: string; SourceName: string; MeasurementName?: string };

export async function commitSession(logger: LoggerClient, session: string, target: Target, layout: CsvLayout | null): Promise<Imported> {
  return (await logger.rest("POST", `/history/data/import/${encodeURIComponent(session)}/commit`, { ...target, ...(layout ? { CSVSettings: layout } : {}) }, importedAnswer)).Data;
}

/** A session over a file of the file browser's root (read there, never copied). */
export async function openFileSession(logger: LoggerClient, path: string, target: Target): Promise<string> {
  return (await logger.rest("POST", "/history/data/import", { File: path, SourceName: target.SourceName, SessionTimeoutSec: 3600 }, sessionOpened)).Data.SessionId;
}

export async function cancelSession(logger: LoggerClient, session: string): Promise<void> {
  await logger.rest("POST", `/history/data/import/${encodeURIComponent(session)}/cancel`, {}, z.object({ Data: z.unknown() }));
}

export async function importProgress(logger: LoggerClient, session: string) {
  return (await logger.rest("GET", `/history/data/import/${encodeURIComponent(session)}`, undefined, sessionStatus)).Data;
}

/** Sources an import may go into: stored ones the logger does not acquire live. */
export async function importSources(logger: LoggerClient): Promise<{ Id: string; Name: string }[]> {
  const [{ Data: sources }, { variables }] = await Promise.all([logger.readFresh("GET", "/history/structure/sources", undefined, sourcesAnswer), loadVariables(logger)]);
  const acquired = new Set(variables.map((v) => v.SourceId).filter(Boolean));
  return sources.filter((s) => !acquired.has(s.Id)).map((s) => ({ Id: s.Id, Name: s.Name }));
}

export { filesQuery };
