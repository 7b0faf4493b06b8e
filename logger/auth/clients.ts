import { createHash, timingSafeEqual } from "node:crypto";

export type OAuthClients = Map<string, string>;

// gibench is a public client (command-line bench scripts): it has no secret to keep.
export const PUBLIC_CLIENT_ID = "gibench";

export function makeClients(consoleId: string, consoleSecret: string): OAuthClients {
  return new Map([
    [consoleId, consoleSecret],
    [PUBLIC_CLIENT_ID, ""],
  ]);
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export function checkClient(clients: OAuthClients, id: string, secret: string): boolean {
  const expected = clients.get(id);
  if (expected === undefined) return false;
  return timingSafeEqual(digest(expected), digest(secret));
}

/** A client with a secret (the console): its requests may say whose browser they come from. */
export function isConfidentialClient(clients: OAuthClients, id: string): boolean {
  return id !== PUBLIC_CLIENT_ID && Boolean(clients.get(id));
}

export function parseBasicAuth(header: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  // RFC 6749 §2.3.1 form-encodes id and secret before base64; plain values pass through unchanged.
  const unescape = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match || match[1] === "None") return null;
  return match[1]!;
}
