import type { IncomingMessage } from "node:http";
import { INVISIBLE_NAME_MESSAGE } from "../api/schemas.ts";
import { RpcError, invalidParam } from "./errors.ts";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export const bodyTooLarge = (limit: number) => new RpcError(413, -6, `Request body larger than ${limit} bytes`);

/**
 * The whole body, at most `limit` bytes. A Content-Length above the limit is refused before a
 * byte is read; a body that grows past it while streaming (chunked, or a lying length) is
 * refused as soon as it does. Either way the caller's 413 goes out at once and the connection
 * is closed after it (respond.ts: an answer to an unread request says Connection: close), so
 * no more of the body is read, kept or drained.
 */
export function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(bodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      if (req.complete) return;
      stop();
      reject(new Error("Request aborted"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

export function parseJsonObject(body: Buffer): Record<string, unknown> {
  const text = body.toString("utf8").trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidParam(`Malformed JSON body: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidParam("Invalid parameters: the body must be a JSON object");
  }
  // JSON carries a NUL only as an escape. No name, id, setting or text of the logger holds one,
  // and PostgreSQL refuses it in text and jsonb (an internal error there): 400 for every RPC and
  // REST body alike, naming where it is, as a field's own check would. The walk runs only for the
  // rare body that has the escape at all.
  if (text.includes("\\u0000")) refuseNul(value);
  return value as Record<string, unknown>;
}

/** 400 -6 naming where a NUL is, for a parsed JSON body or a request's query parameters alike. */
export function refuseNul(params: unknown): void {
  const at = nulAt(params);
  if (at !== null) throw invalidParam(`${at ? `Invalid parameter ${at}` : "Invalid parameters"}: ${INVISIBLE_NAME_MESSAGE}`);
}

/** The path ("Role.Name") of the first key or string holding a NUL, or null (a walk without recursion: bodies nest deep). */
function nulAt(body: unknown): string | null {
  const stack: Array<[unknown, string]> = [[body, ""]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === "string") {
      if (value.includes("\0")) return path;
    } else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes("\0")) return path;
        stack.push([v, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}
