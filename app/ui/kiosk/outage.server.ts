import type { RouterContextProvider } from "react-router";
import { stateOf } from "~/services/context.server";
import { getLocale } from "~/services/i18n.server";
import { readPrefs } from "~/services/prefs.server";
import { defaultShell } from "~/ui/layout/defaultShell";
import { summarizeQuality } from "~/ui/live/quality";
import type { RootData } from "~/ui/rootData";
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
 * one-time toast; the header's alarm state unknown, since a count from before could be untrue),
 * else the app's default shell with what the cookies say (locale, theme mode, zone) — enough for
 * the kiosk's chrome and its strip.
 */
export async function outageShell(context: Readonly<RouterContextProvider>, request: Request): Promise<unknown> {
  const entry = entryFor(context, false)?.shell;
  const kept = fresh(entry) as Pick<RootData, "alerts"> | undefined;
  if (kept && entry) {
    const alarms = kept.alerts?.alarms ? ("unknown" as const) : null;
    return { ...kept, toast: null, hashToken: false, alerts: { alarms, messages: null }, logger: { since: entry.at } };
  }
  const prefs = await readPrefs(request);
  return defaultShell(getLocale(context), {
    themeMode: prefs.theme,
    layout: prefs.layout,
    layoutType: prefs.layoutType,
    sidebarWidth: prefs.sidebarWidth,
    timeZone: prefs.timezone || prefs.browserZone || "UTC",
    logger: { since: null },
  });
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
  return { stamps: { ...stamps, at, offline: true }, summary: summarizeQuality(stamps.times, stamps.periods, at, "logger", stamps.facts) };
}

/** Tests start from an empty memory. */
export function forgetOutagePages() {
  memory.clear();
}
