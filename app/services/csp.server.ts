import { randomBytes } from "node:crypto";

// The Content-Security-Policy of every page: scripts only from the console itself and inline
// ones carrying this response's nonce (React Router's hydration data, React's streaming, the
// time-zone snippet in root.tsx); the console may be framed only by itself. The few places an
// administrator points elsewhere — the Map's tile server, the Jupyter Lab frame — are allowed
// by the Global Settings that name them, on every page (a client-side navigation keeps the
// policy of the page it started on).

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** A CSP source for a URL or tile template (`https://{s}.tile.example.org/{z}/{x}/{y}.png`), or null. */
export function cspSource(url: string | null | undefined): string | null {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(url?.trim() ?? "");
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  // A placeholder as the first label (Leaflet's {s} subdomains) becomes CSP's wildcard label.
  const host = m[2]!.toLowerCase().replace(/^\{[^}]*\}\./, "*.");
  // Anything else unusual (placeholders elsewhere, quotes, separators) allows the scheme only
  // rather than letting a setting write into the policy.
  if (!/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) return `${scheme}:`;
  return `${scheme}://${host}`;
}

export interface CspExtras {
  /** Image sources beyond the console's own (the Map's tile server). */
  images?: (string | null)[];
  /** Frame sources beyond the console's own (the Jupyter Lab server). */
  frames?: (string | null)[];
}

export function contentSecurityPolicy(nonce: string, extras: CspExtras = {}): string {
  const list = (values: (string | null)[] | undefined) => (values ?? []).filter((v): v is string => !!v).join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React's style props, Leaflet and uPlot position things with inline styles.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${list(extras.images)}`.trim(),
    "font-src 'self' data:",
    // The live stream and the VNC view's WebSocket are on the console itself.
    "connect-src 'self'",
    `frame-src 'self' ${list(extras.frames)}`.trim(),
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}
