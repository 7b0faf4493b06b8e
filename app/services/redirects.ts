// Redirect rules of spec §2, as pure functions so they can be tested without a server.

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The UUID of a path that is a bare UUID ("/{8-4-4-4-12}"), else null. */
export function bareUuid(pathname: string): string | null {
  const segment = pathname.replace(/^\/+|\/+$/g, "");
  return UUID_RE.test(segment) ? segment : null;
}

/** Where "/" leads: DefaultStartPage, with the special value `device`. */
export function startPagePath(
  defaultStartPage: string | undefined,
  opts: { loginRequired: boolean; permissions: readonly string[] },
): string {
  const page = (defaultStartPage ?? "device").trim().replace(/^\/+/, "") || "device";
  if (page !== "device") return `/${page}`;
  const holds = (p: string) => !opts.loginRequired || opts.permissions.includes(p);
  if (holds("ViewDevices")) return "/devices";
  if (holds("ViewCockpit")) return "/cockpit";
  return "/settings";
}

/** Paths never remembered as the redirect target. */
export function isRememberable(pathname: string): boolean {
  return !["/", "/logout", "/signin", ""].includes(pathname);
}

const BASE = "http://console.invalid";
/**
 * The longest redirect target: any link the console takes (its request head may be 64 KB, see
 * server/main.ts) up to 16 KB comes back after a sign-in, even inside the sign-in page's URL.
 */
export const MAX_TARGET_LENGTH = 16 * 1024;
/** C0 controls (tab, newline…), DEL and the C1 controls: browsers drop or mangle them inside URLs. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** What makes a path start elsewhere: `//host`, `/\host`, or a backslash anywhere in the path. */
const LEAVES = /^(?:[/\\]{2}|[^/])|\\/;

/** Percent-decoding until nothing changes (at most a few rounds), or null for broken encodings. */
function decodeFully(text: string): string | null {
  let current = text;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** The path part of a URL reference (before `?` or `#`). */
const pathPart = (ref: string) => ref.split(/[?#]/, 1)[0]!;

/**
 * THE decision on where a redirect may lead (sign-in's redirect_uri, the remembered target,
 * the banner's return path): a path on this console, or null.
 *
 * Decided on the normalised target, as a browser (or a server behind a proxy that decodes
 * once more) would read it: the path's percent-encodings are decoded (repeatedly, so `%252e`
 * counts as a dot), dot segments resolved, and the result must still be an absolute path on this origin
 * that no reader can take for `//host` or `/\host`. Tabs, newlines and other controls are
 * refused outright (the URL parser drops them, turning `/\t/host` into `//host`). The answer
 * is the resolved path itself, so what was checked is exactly what is sent.
 */
export function safePath(target: string | null | undefined): string | null {
  if (!target || typeof target !== "string" || target.length > MAX_TARGET_LENGTH) return null;
  if (CONTROL.test(target)) return null;
  // Only the path decides where a browser goes; the query and hash are data, decoded by nobody
  // on the way (a search for "100%" is `?text=100%25`, which would not decode twice).
  const decoded = decodeFully(pathPart(target));
  if (decoded === null || CONTROL.test(decoded)) return null;
  // Both the target as given and as decoded must be plain paths on this origin.
  for (const form of [target, decoded]) {
    if (LEAVES.test(pathPart(form))) return null;
    let url: URL;
    try {
      url = new URL(form, BASE);
    } catch {
      return null;
    }
    if (url.origin !== BASE || LEAVES.test(url.pathname)) return null;
    const resolvedDecoded = decodeFully(url.pathname);
    if (resolvedDecoded === null || LEAVES.test(resolvedDecoded)) return null;
  }
  const url = new URL(target, BASE);
  const result = url.pathname + url.search + url.hash;
  return LEAVES.test(pathPart(result)) ? null : result;
}

/** Only these break a query value: `%` (decoded), `&` (the next parameter), `+` (a space), `#` (the hash). */
const QUERY_VALUE_SPECIAL = /[%&+#]/g;

/**
 * `page` (the sign-in or forced password change) with `target` as its redirect_uri: the page
 * returns there afterwards (spec §2), and a back navigation to it leads there again. The target
 * travels in the URL, not in the session cookie, so a long link cannot make the cookie too large.
 * The target is encoded only where a query value must be (an already encoded link stays nearly
 * as long as it was); one that is not a safe, rememberable path is left out.
 */
export function withReturnPath(page: string, target: string | null | undefined): string {
  const path = safePath(target);
  if (!path || !isRememberable(pathPart(path))) return page;
  return `${page}?redirect_uri=${path.replace(QUERY_VALUE_SPECIAL, (c) => encodeURIComponent(c))}`;
}
