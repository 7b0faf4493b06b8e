import { CAPTURE_LIMIT } from "~/schemas/canscanner";
import { UPLOAD_LIMIT } from "~/schemas/fileBrowser";
import { MAX_LOGO_BYTES } from "~/schemas/globalSettings";
import { env } from "./env.server";

// What every request to the console must pass before React Router sees it (server/main.ts asks
// through the build's entry.server): the one origin check for requests that change something,
// the methods and body types the console understands, and how large a body may be. Pure
// functions of the request's method, path and headers, so they are tested without a server.

export interface OriginSettings {
  /** PUBLIC_ORIGIN: the origin browsers use, when a proxy stands in front. */
  publicOrigin: string | null;
  /** TRUST_PROXY: whether X-Forwarded-Proto/Host/For come from a proxy of ours. */
  trustProxy: boolean;
}

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

/** The default body limit: every form of the console fits many times over. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
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

const first = (headers: Headers, name: string) => headers.get(name)?.split(",")[0]?.trim() || null;

/**
 * The origin the browser sees for this request: PUBLIC_ORIGIN when set; else the request's
 * own, from X-Forwarded-Proto/Host only when a proxy is trusted (anyone can send them), else
 * from Host. Null when the request names no usable host.
 */
export function requestOrigin(facts: Pick<RequestFacts, "headers" | "encrypted">, settings: OriginSettings = env): string | null {
  if (settings.publicOrigin) return settings.publicOrigin;
  const proto = (settings.trustProxy && first(facts.headers, "x-forwarded-proto")) || (facts.encrypted ? "https" : "http");
  const host = (settings.trustProxy && first(facts.headers, "x-forwarded-host")) || facts.headers.get("host");
  if (!host || (proto !== "http" && proto !== "https")) return null;
  try {
    const url = new URL(`${proto}://${host}`);
    // A Host header with a path, credentials or anything else than host[:port] is no origin.
    if (url.host !== host.toLowerCase().replace(proto === "https" ? /:443$/ : /:80$/, "")) return null;
    return url.origin;
  } catch {
    return null;
  }
}

const sameOrigin = (value: string, expected: string) => {
  try {
    return new URL(value).origin === expected;
  } catch {
    return false;
  }
};

/**
 * The one origin check (for every request that is not GET or HEAD): the Origin header, else
 * Sec-Fetch-Site (same-origin, or none for what the user typed), else the Referer, must name
 * the console's own origin. A request with none of them is refused too: every browser sends
 * Origin on a POST, so only a hand-made request lacks all three.
 */
export function originAllowed(headers: Headers, expected: string | null): boolean {
  if (!expected) return false;
  const origin = headers.get("origin");
  // "null" (sandboxed frames, privacy redirects) is never the console.
  if (origin !== null) return origin !== "null" && sameOrigin(origin, expected);
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const referer = headers.get("referer");
  return referer !== null && sameOrigin(referer, expected);
}

/**
 * Whether a page load came from the console itself or from the user (typed, bookmarked) — not
 * from a link on another site. The access token in the URL hash (spec §4) is taken only then:
 * otherwise any site could link a victim to `/#access_token=<the attacker's>` and sign them in
 * as someone else.
 */
export function navigationFromSameSite(headers: Headers, expected: string | null): boolean {
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const referer = headers.get("referer");
  return referer !== null && expected !== null && sameOrigin(referer, expected);
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

/**
 * The client's address for the logger and the log: the connection's peer, or — behind a trusted
 * proxy — the address that proxy put last in X-Forwarded-For (earlier entries are the client's
 * own claims).
 */
export function clientAddress(headers: Headers, peer: string | undefined, settings: OriginSettings = env): string | null {
  if (settings.trustProxy) {
    const hops = headers.get("x-forwarded-for")?.split(",").map((h) => h.trim()).filter(Boolean);
    if (hops?.length) return hops.at(-1)!;
  }
  return peer?.replace(/^::ffff:/, "") ?? null;
}
