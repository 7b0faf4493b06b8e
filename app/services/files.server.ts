import Papa from "papaparse";
import type { LoggerClient } from "./logger/client.server";
import { LoggerError } from "./logger/errors";
import { previewAnswer, type FilePreview } from "./logger/importSchemas";

// What the file browser shows of a file in its preview pane.
export type Preview =
  | { kind: "image"; path: string }
  | { kind: "text"; path: string; text: string; truncated: boolean }
  | { kind: "csv"; path: string; rows: string[][]; truncated: boolean }
  /** A data file (UDBF, or a CSV recording the logger reads): what an import would store. */
  | { kind: "data"; path: string; preview: FilePreview }
  | { kind: "none"; path: string }
  | { kind: "error"; path: string; message: string };

const PREVIEW_BYTES = 64 * 1024;
const PREVIEW_ROWS = 200;
const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;
const TEXT = /\.(txt|log|md|json|xml|ini|cfg|conf|yaml|yml|dbc|asc)$/i;
const CSV = /\.(csv|tsv)$/i;
const UDBF = /\.(dat|udbf)$/i;

export const filesQuery = (path: string) => `Path=${encodeURIComponent(path)}`;

export async function loadPreview(logger: LoggerClient, path: string): Promise<Preview> {
  if (IMAGE.test(path)) return { kind: "image", path };
  if (UDBF.test(path) || CSV.test(path)) {
    // The logger reads the file in place (header, rows, a chart), however large; a CSV it finds
    // no recording in is shown as a table below.
    try {
      const preview = (await logger.rest("POST", "/files/preview", { Path: path }, previewAnswer)).Data;
      if (UDBF.test(path) || preview.FirstRows.Times.length > 0) return { kind: "data", path, preview };
    } catch (error) {
      if (!(error instanceof LoggerError) || error.status >= 500) throw error;
      if (UDBF.test(path)) return { kind: "error", path, message: error.message };
    }
  }
  const csv = CSV.test(path);
  if (!csv && !TEXT.test(path)) return { kind: "none", path };
  let head: { text: string; truncated: boolean };
  try {
    head = await readHead(logger, path);
  } catch (error) {
    if (error instanceof LoggerError && error.status < 500) return { kind: "error", path, message: error.message };
    throw error;
  }
  if (!csv) return { kind: "text", path, ...head };
  // The last line of a cut-off head is partial: leave it out.
  const text = head.truncated ? head.text.slice(0, head.text.lastIndexOf("\n") + 1) : head.text;
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true, preview: PREVIEW_ROWS });
  return { kind: "csv", path, rows: parsed.data, truncated: head.truncated || parsed.data.length >= PREVIEW_ROWS };
}

/** The first PREVIEW_BYTES of a file as text; the rest is never fetched beyond one chunk. */
async function readHead(logger: LoggerClient, path: string): Promise<{ text: string; truncated: boolean }> {
  const controller = new AbortController();
  const res = await logger.stream(`/files/download?${filesQuery(path)}`, "GET", undefined, controller.signal);
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= PREVIEW_BYTES) {
      truncated = true;
      controller.abort();
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, PREVIEW_BYTES);
  return { text: new TextDecoder("utf-8", { fatal: false }).decode(bytes), truncated };
}
