import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { Duplex } from "node:stream";
import { isLoopbackHost } from "../auth/client-secret.ts";

// Foreign pages (issue 24): a web page on another site that a plant operator opens must not be
// able to use the logger through the operator's browser — not with a form, not with a `no-cors`
// fetch, not with a WebSocket, and not by pointing its own DNS name at the logger (DNS
// rebinding). The logger serves no pages and answers no CORS preflight, so no browser page ever
// needs to write to it; scripts, the family's clients and the console's server send no Origin.
//
// Every request passes through foreignRefusal() first (the router, and the WebSocket upgrade in
// server.ts); bodies are then checked for their declared type (content-type.ts).

export type SitePolicy = {
  /** Origins whose pages may send requests (the console's; LOGGER_ALLOWED_ORIGINS). */
  origins: ReadonlySet<string>;
  /**
   * The names the logger is reached by (LOGGER_HOSTNAMES) besides loopback names and IP
   * addresses, which always pass; null: any Host is accepted.
   */
  hostnames: ReadonlySet<string> | null;
};

export const OPEN_SITE_POLICY: SitePolicy = { origins: new Set(), hostnames: null };

/** A comma- or space-separated list of origins (`https://console.plant:3000`); throws on anything else. */
export function parseOrigins(text: string): string[] {
  return splitList(text).map((item) => {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new Error(`LOGGER_ALLOWED_ORIGINS: ${item} is not an origin such as https://console.plant:3000`);
    }
    const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password && !item.endsWith("/");
    if (!/^https?:$/.test(url.protocol) || !bare) {
      throw new Error(`LOGGER_ALLOWED_ORIGINS: ${item} is not an origin such as https://console.plant:3000 (scheme, host and port only)`);
    }
    return url.origin;
  });
}

/** A comma- or space-separated list of host names (`logger.plant.local`), without ports. */
export function parseHostnames(text: string): string[] {
  return splitList(text).map((item) => {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d+)?\.?$/i.test(item)) throw new Error(`LOGGER_HOSTNAMES: ${item} is not a host name such as logger.plant.local`);
    return bareHost(item);
  });
}

export function sitePolicy(origins: readonly string[] = [], hostnames: readonly string[] | null = null): SitePolicy {
  return {
    origins: new Set(origins.map((o) => new URL(o).origin)),
    hostnames: hostnames ? new Set(hostnames.map(bareHost)) : null,
  };
}

/**
 * Why this request must be refused as one a foreign page sent, or null when it may go on.
 *
 * * Host: with names to go by (LOGGER_HOSTNAMES; none for a logger on loopback only), any other
 *   name is a DNS-rebinding page's (its own name, pointed at the logger). Loopback names and IP
 *   addresses are always fine: a page cannot rebind a name it does not own.
 * * Every method but GET and HEAD (which change nothing), and the WebSocket upgrade: a browser
 *   names the page in `Origin` — it must be an allowed origin (never the logger's own: it serves
 *   no pages, so a page "of" the logger is a rebinding page or an uploaded file). No Origin:
 *   `Sec-Fetch-Site` must be absent (scripts, the console's server-side fetch), `none` (typed by
 *   the user), or `same-origin` on a Host that cannot be rebound.
 */
export function foreignRefusal(req: IncomingMessage, policy: SitePolicy, opts: { upgrade?: boolean } = {}): string | null {
  const host = req.headers.host;
  if (policy.hostnames && host !== undefined && !trustedHost(host, policy)) {
    return `Request refused: this logger is not reached by the name ${shown(bareHost(host))} (LOGGER_HOSTNAMES lists the names it answers to)`;
  }
  const method = req.method ?? "GET";
  if (!opts.upgrade && (method === "GET" || method === "HEAD")) return null;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (policy.origins.has(normalOrigin(origin))) return null;
    return `Request refused: it was sent by the web page ${shown(origin)}, which is not allowed to use this logger (LOGGER_ALLOWED_ORIGINS lists the pages that are)`;
  }
  const site = req.headers["sec-fetch-site"];
  if (site === undefined || site === "none") return null;
  if (site === "same-origin" && host !== undefined && trustedHost(host, policy)) return null;
  return `Request refused: it was sent by a web page on another site (Sec-Fetch-Site: ${shown(String(site))})`;
}

/** Answers a refused WebSocket upgrade on the raw socket: 403 with a ReturnState, then closed. */
export function refuseUpgrade(socket: Duplex, description: string): void {
  socket.on("error", () => socket.destroy());
  const body = JSON.stringify({ Success: false, ReturnState: { Value: -3, Description: description } });
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A Host that no page can have rebound: a loopback name, an IP address, or one of LOGGER_HOSTNAMES. */
function trustedHost(host: string, policy: SitePolicy): boolean {
  const name = bareHost(host);
  if (isLoopbackHost(name) || name.endsWith(".localhost") || isIP(name) !== 0) return true;
  return policy.hostnames?.has(name) ?? false;
}

/** `Host` or a list item without port, brackets, trailing dot and case. */
function bareHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith("[")) name = name.slice(1, name.indexOf("]") > 0 ? name.indexOf("]") : undefined);
  else if (name.split(":").length === 2) name = name.slice(0, name.indexOf(":"));
  return name.replace(/\.$/, "");
}

function normalOrigin(origin: string): string {
  try {
    return new URL(origin).origin; // "null" (sandboxed pages, file: URLs) throws: never allowed
  } catch {
    return "";
  }
}

const splitList = (text: string) => text.split(/[\s,]+/).filter(Boolean);
/** Header values end up in a Description: bounded, without control characters. */
const shown = (value: string) => value.replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 200);
