import type { RouterContextProvider } from "react-router";
import { LOCALE_IDS, type Language } from "~/locales";
import { stateOf } from "~/services/context.server";
import { getLocale } from "~/services/i18n.server";
import { readPrefs } from "~/services/prefs.server";
import { DEFAULT_THEME } from "~/services/theme.server";
import { summarizeFreshness } from "~/ui/live/freshness";
import type { Stamps } from "~/ui/live/useLiveValues";

// A dashboard while the logger is unreachable (issue 15 §1, §5): instead of the error page, the
// page this sign-in last saw — its shell, layout, values and charts — marked offline, with the
// outage strip on a wall display and a refresh that brings it back by itself. Kept in this
// process's memory only, per sign-in (the session's random `sid`, new at every sign-in) and only
// while the session still holds the sign-in's tokens, so nobody is shown what they did not see.

/** How long a remembered page may be shown during an outage. */
const KEEP_MS = 24 * 3600_000;
/** Sign-ins remembered at most (the oldest go first), and pages per sign-in (a kiosk's rotation). */
const MAX_SIGN_INS = 200;
const MAX_PAGES = 8;

interface Remembered {
  /** Whether the session held tokens then: a session without them now (signed out) gets nothing. */
  signedIn: boolean;
  shell?: { at: number; value: unknown };
  pages: Map<string, { at: number; value: unknown }>;
}

const memory = new Map<string, Remembered>();

function entryFor(context: Readonly<RouterContextProvider>, create: boolean): Remembered | undefined {
  const { session } = stateOf(context);
  const sid = session.get("sid");
  if (!sid) return undefined;
  const signedIn = session.has("accessToken");
  let entry = memory.get(sid);
  if (entry && entry.signedIn && !signedIn) {
    if (!create) return undefined;
    entry = undefined;
  }
  if (!entry) {
    if (!create) return undefined;
    entry = { signedIn, pages: new Map() };
  }
  // Most recently used last: the first ones are dropped when there are too many.
  memory.delete(sid);
  memory.set(sid, entry);
  for (const old of memory.keys()) {
    if (memory.size <= MAX_SIGN_INS) break;
    memory.delete(old);
  }
  return entry;
}

const fresh = (kept: { at: number; value: unknown } | undefined) => (kept && Date.now() - kept.at < KEEP_MS ? kept.value : undefined);

/** The logger client throws data(…, 502/503) when the logger is unreachable or garbled. */
export function loggerAway(error: unknown): boolean {
  const status = (error as { init?: { status?: number } } | null)?.init?.status;
  return status === 502 || status === 503;
}

/** Dashboard pages (a wall display's above all) are the ones drawn from memory during an outage. */
export function isDashboardPage(request: Request): boolean {
  const url = new URL(request.url);
  return request.method === "GET" && (url.pathname === "/dashboard" || url.pathname === "/defaultDashboard");
}

/** The root loader's shell data of a dashboard page, remembered for an outage. */
export function rememberShell<T>(context: Readonly<RouterContextProvider>, request: Request, shell: T): T {
  if (isDashboardPage(request)) {
    const entry = entryFor(context, true);
    if (entry) entry.shell = { at: Date.now(), value: shell };
  }
  return shell;
}

/**
 * The shell for a dashboard page while the logger is away: the remembered one (without the
 * one-time toast and the header's counts, which would be stale), else a bare one from the
 * cookies alone (locale, theme mode, zone) — enough for the kiosk's chrome and its strip.
 */
export async function outageShell(context: Readonly<RouterContextProvider>, request: Request): Promise<unknown> {
  const kept = fresh(entryFor(context, false)?.shell) as Record<string, unknown> | undefined;
  if (kept) return { ...kept, toast: null, hashToken: false, alerts: { alarms: null, messages: null } };
  const prefs = await readPrefs(request);
  const locale = getLocale(context) as Language;
  return {
    locale,
    localeId: LOCALE_IDS[locale] ?? "en-US",
    // Unknown: the bare page a signed-out caller gets (no menus that could not work anyway).
    loginRequired: true,
    signedIn: false,
    mustChangePassword: false,
    authUser: null,
    nav: [],
    helpUrl: null,
    dashboards: [],
    theme: { mainColor: DEFAULT_THEME.mainColor, hoverColor: DEFAULT_THEME.hoverColor, lightColor: DEFAULT_THEME.lightColor, logo: null },
    themeMode: prefs.theme,
    layout: prefs.layout,
    layoutType: prefs.layoutType,
    sidebarWidth: prefs.sidebarWidth,
    timeZone: prefs.timezone || prefs.browserZone || "UTC",
    banner: null,
    alerts: { alarms: null, messages: null },
    toast: null,
    hashToken: false,
  };
}

/** What the dashboard loader read for a page (`key`: the asked id, "" for the default dashboard). */
export function rememberPage<T>(context: Readonly<RouterContextProvider>, key: string, page: T): void {
  const entry = entryFor(context, true);
  if (!entry) return;
  entry.pages.delete(key);
  entry.pages.set(key, { at: Date.now(), value: page });
  for (const old of entry.pages.keys()) {
    if (entry.pages.size <= MAX_PAGES) break;
    entry.pages.delete(old);
  }
}

export function recallPage<T>(context: Readonly<RouterContextProvider>, key: string): T | undefined {
  return fresh(entryFor(context, false)?.pages.get(key)) as T | undefined;
}

/** The remembered values' times judged now with the logger away: offline, aged since the newest value. */
export function offlineStamps(stamps: Stamps) {
  const at = Date.now();
  return { stamps: { ...stamps, at, offline: true }, summary: summarizeFreshness(stamps.times, stamps.periods, at, false) };
}

/** Tests start from an empty memory. */
export function forgetOutagePages() {
  memory.clear();
}
