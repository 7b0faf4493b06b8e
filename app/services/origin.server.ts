import { env } from "./env.server";

// Whose request this is: the origin browsers use for the console (PUBLIC_ORIGIN, or the
// request's own — from X-Forwarded-* only behind a trusted proxy), whether a request came from
// the console's own pages, and the client's address. Kept apart from the request gate so the
// root route can ask without importing the gate's upload limits.

export interface OriginSettings {
  /** PUBLIC_ORIGIN: the origin browsers use, when a proxy stands in front. */
  publicOrigin: string | null;
  /** TRUST_PROXY: whether X-Forwarded-Proto/Host/For come from a proxy of ours. */
  trustProxy: boolean;
}

const first = (headers: Headers, name: string) => headers.get(name)?.split(",")[0]?.trim() || null;

/**
 * The origin the browser sees for this request: PUBLIC_ORIGIN when set; else the request's
 * own, from X-Forwarded-Proto/Host only when a proxy is trusted (anyone can send them), else
 * from Host. Null when the request names no usable host.
 */
export function requestOrigin(facts: { headers: Headers; encrypted?: boolean }, settings: OriginSettings = env): string | null {
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
