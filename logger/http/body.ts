import type { IncomingMessage } from "node:http";
import { RpcError, invalidParam } from "./errors.ts";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
// Past this we stop draining and drop the connection instead of reading forever.
const DRAIN_LIMIT = 32 * 1024 * 1024;

// Reads the whole body even when it is too large, so the client gets a clean 413
// instead of a connection reset in the middle of its upload.
export function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_LIMIT) {
        req.destroy();
        return;
      }
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > limit) reject(new RpcError(413, -6, `Request body larger than ${limit} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("Request aborted"));
    });
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
  return value as Record<string, unknown>;
}
