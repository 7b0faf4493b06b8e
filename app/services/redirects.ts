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

/**
 * A same-origin path, or null. Rejects absolute URLs, protocol-relative `//host`, backslash
 * tricks and control characters, so redirect_uri cannot send anyone elsewhere.
 */
export function safePath(target: string | null | undefined): string | null {
  if (!target || typeof target !== "string") return null;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return null;
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return null;
  try {
    const base = "http://console.invalid";
    const url = new URL(target, base);
    if (url.origin !== base) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}
