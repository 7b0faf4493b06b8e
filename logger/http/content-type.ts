import type { IncomingMessage } from "node:http";
import { RpcError, RS } from "./errors.ts";

// The type a request body must declare (issue 24). A browser page on another site can send a
// body without asking first (no CORS preflight) only as an HTML form's types: form-urlencoded,
// multipart/form-data or text/plain. So JSON is taken only as application/json — a page must ask
// to send that, and the logger answers no such ask. Besides the Origin check (origin.ts), this
// keeps a page from posting JSON disguised as text, even from a browser that sent no Origin.

/** json: RPC and REST bodies; form: the OAuth endpoints (RFC 6749); bytes: a file's raw bytes. */
export type BodyKind = "json" | "form" | "bytes";

/** The form types a page may send anywhere without asking: a raw-bytes route refuses them. */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]);

/** The media type of the body, lowercase, without parameters ("" when none is declared). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Why this body's declared type is wrong for the route, or null. A request without a body needs
 * no type (an RPC without parameters, a DELETE): the Origin check covers those.
 */
export function bodyTypeProblem(req: IncomingMessage, kind: BodyKind): string | null {
  if (!hasBody(req)) return null;
  const type = mediaType(req);
  const got = type ? `got ${type.slice(0, 100)}` : "none was given";
  if (kind === "json" && type !== "application/json") return `Send the body as JSON with Content-Type: application/json (${got})`;
  if (kind === "form" && type !== "application/x-www-form-urlencoded") return `Send the body as a form with Content-Type: application/x-www-form-urlencoded (${got})`;
  if (kind === "bytes" && FORM_TYPES.has(type)) return `Send the file's bytes with a Content-Type such as application/octet-stream or text/csv, not ${type}`;
  return null;
}

/** Throws 415 -6 when the body's declared type is wrong for the route. */
export function requireBodyType(req: IncomingMessage, kind: BodyKind): void {
  const problem = bodyTypeProblem(req, kind);
  if (problem) throw new RpcError(415, RS.InvalidParameter, problem);
}
