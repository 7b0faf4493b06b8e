import { CAPTURE_LIMIT } from "~/schemas/canscanner";
import { UPLOAD_LIMIT } from "~/schemas/fileBrowser";
import { IMPORT_BODY_LIMIT } from "~/schemas/import";
import { MAX_LOGO_BYTES } from "~/schemas/globalSettings";
import { env } from "./env.server";
import { DEFAULT_BODY_LIMIT } from "./formBody.server";
import { originAllowed, requestOrigin, type OriginSettings } from "./origin.server";

export { clientAddress, navigationFromSameSite, originAllowed, requestOrigin, type OriginSettings } from "./origin.server";
export { DEFAULT_BODY_LIMIT } from "./formBody.server";

// What every request to the console must pass before React Router sees it (server/main.ts asks
// through the build's entry.server): the one origin check for requests that change something
// (origin.server.ts), the methods and body types the console understands, and how large a body
// may be. Pure functions of the request's method, path and headers, tested without a server.

export interface RequestFacts {
  method: string;
  /** The URL's path, without the query. */
  path: string;
  headers: Headers;
  /** Whether the connection to the console itself is TLS (never, unless a TLS server is put in front in-process). */
  encrypted?: boolean;
}

export type RefusalReason = "cross-origin" | "method" | "media-type" | "bad-request" | "too-large";
export interface Refusal {
  status: 400 | 403 | 405 | 413 | 415;
  reason: RefusalReason;
  headers?: Record<string, string>;
}

/** Room for the multipart framing and the small fields around an uploaded file. */
const FRAMING = 128 * 1024;

/**
 * Larger limits only where a form uploads files; each a little above the route's own check.
 * `ownLengthCheck`: the route refuses a Content-Length over its limit itself, before reading a
 * byte, with its own words ("The logo is larger than 1 MB") next to the form field — the gate
 * leaves declared sizes to it and counts the bytes that actually come.
 */
const UPLOAD_ROUTES: Record<string, { limit: number; ownLengthCheck: boolean }> = {
  "/fileBrowser/upload": { limit: UPLOAD_LIMIT + FRAMING, ownLengthCheck: true },
  "/canscanner": { limit: CAPTURE_LIMIT + FRAMING, ownLengthCheck: true },
  "/globalSettings": { limit: MAX_LOGO_BYTES + FRAMING, ownLengthCheck: true },
  // A recording to import: streamed through to the logger in parts, never held (import.server.ts).
  "/import/submit": { limit: IMPORT_BODY_LIMIT + FRAMING, ownLengthCheck: false },
  // A dashboard file and pasted JSON of at most 1 MB each.
  "/dashboardManager": { limit: 2 * 1024 * 1024 + FRAMING, ownLengthCheck: false },
};

/** The route a request path is for: client data requests add `.data` (`/_root.data` for /). */
export function routePath(path: string): string {
  if (path === "/_root.data") return "/";
  return path.replace(/\.data$/, "").replace(/\/+$/, "") || "/";
}

/** How many body bytes a request to this path may carry. */
export function bodyLimit(path: string): number {
  return UPLOAD_ROUTES[routePath(path)]?.limit ?? DEFAULT_BODY_LIMIT;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * Null when the request may go on to React Router; else the answer it gets. The console's
 * actions read HTML forms only, so other methods are 405 and other bodies 415 — not the 500 a
 * failed formData() would give.
 */
export function refusal(facts: RequestFacts, settings: OriginSettings = env): Refusal | null {
  const method = facts.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return null;
  if (method !== "POST") return { status: 405, reason: "method", headers: { Allow: "GET, HEAD, POST" } };
  if (!originAllowed(facts.headers, requestOrigin(facts, settings))) return { status: 403, reason: "cross-origin" };
  const contentType = facts.headers.get("content-type") ?? "";
  const [type, ...params] = contentType.split(";").map((p) => p.trim());
  if (!FORM_TYPES.includes(type!.toLowerCase())) return { status: 415, reason: "media-type", headers: { "Accept-Post": FORM_TYPES.join(", ") } };
  if (type!.toLowerCase() === "multipart/form-data" && !params.some((p) => /^boundary=./i.test(p))) return { status: 400, reason: "bad-request" };
  const length = facts.headers.get("content-length");
  if (length !== null && !/^\d+$/.test(length)) return { status: 400, reason: "bad-request" };
  if (length !== null && Number(length) > bodyLimit(facts.path) && !UPLOAD_ROUTES[routePath(facts.path)]?.ownLengthCheck) return { status: 413, reason: "too-large" };
  return null;
}
