import { test as playwrightTest, expect, type BrowserContext, type BrowserContextOptions, type Cookie, type Page, type PlaywrightTestArgs, type PlaywrightTestOptions, type PlaywrightWorkerArgs, type PlaywrightWorkerOptions, type TestType } from "@playwright/test";
import { treeSeconds } from "../../scripts/cpuTime.ts";
import { FEATURES } from "../../app/features";
import { startWorkerStack } from "./workerStack";

export const LOGGER = `http://127.0.0.1:${process.env.E2E_LOGGER_PORT}`;
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD!;
/** Every routed screen of the feature table, but those that only redirect out of the console (Help). */
export const SCREENS = FEATURES.filter((f) => f.module && !f.external).map((f) => f.path);
const CLIENT = Buffer.from("loggia-console:loggia-console-secret").toString("base64");

/** Talks to the real embedded logger directly, to seed users and messages for a test. */
export async function token(username: string, password: string): Promise<string> {
  const res = await fetch(`${LOGGER}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${CLIENT}` },
    body: new URLSearchParams({ grant_type: "password", username, password }),
  });
  expect(res.status, `token for ${username}`).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * A password grant straight at the logger, sent as the console sends it for a browser at
 * `address` (X-Forwarded-For, believed because of the console's client credentials). Tests use
 * a made-up address so that their failures do not count against the one the browser signs in from.
 */
export async function consoleGrant(username: string, password: string, address: string) {
  const res = await fetch(`${LOGGER}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${CLIENT}`, "X-Forwarded-For": address },
    body: new URLSearchParams({ grant_type: "password", username, password }),
  });
  return { status: res.status, retryAfter: Number(res.headers.get("retry-after") ?? 0), body: (await res.json()) as Record<string, unknown> };
}

/**
 * Wrong passwords for `username` from one made-up address until the logger's sign-in throttle
 * makes that address wait at least `seconds` on the account (a few failures, then blocks of 1, 2,
 * 4, 8 … s); returns that wait. Other addresses are not made to wait (issue 24).
 */
export async function blockSignIns(username: string, seconds: number): Promise<number> {
  // A fresh made-up address each time: the failures of several tests from one address would
  // make that address wait (its own allowance), which is not what is being set up here.
  const address = `198.51.100.${1 + Math.floor(Math.random() * 254)}`;
  for (;;) {
    const r = await consoleGrant(username, "not-the-password", address);
    if (r.status === 429 && r.retryAfter >= seconds) return r.retryAfter;
    expect([400, 429]).toContain(r.status);
  }
}

/**
 * Wrong passwords for `username`, five from each of several made-up addresses, until a fresh
 * address is refused too: the account's budget for devices it has not signed in from is used up
 * (issue 24), as by a botnet. Returns the wait (minutes). A browser that signed in as the user
 * before still gets in (its device cookie); any other waits.
 */
export async function exhaustAccountBudget(username: string): Promise<number> {
  const base = 1 + Math.floor(Math.random() * 200);
  for (let n = 0; ; n++) {
    const address = `198.18.${base}.${1 + n}`;
    for (let i = 0; i < 5; i++) {
      const r = await consoleGrant(username, "not-the-password", address);
      if (r.status === 429) return r.retryAfter;
      expect(r.status).toBe(400);
    }
  }
}

/**
 * Makes the browser's own address wait at least `seconds` on `username` (the console tells the
 * logger the browser's address: 127.0.0.1 or ::1, whichever Chromium connected from). The
 * account's budget is not used up: the wait ends as the throttle says.
 */
export async function blockSignInsFromBrowser(username: string, seconds: number): Promise<number> {
  const waits = await Promise.all(
    ["127.0.0.1", "::1"].map(async (address) => {
      for (;;) {
        const r = await consoleGrant(username, "not-the-password", address);
        if (r.status === 429 && r.retryAfter >= seconds) return r.retryAfter;
        expect([400, 429]).toContain(r.status);
      }
    }),
  );
  return Math.max(...waits);
}

// The admin token rpc() uses, kept for a while: a grant costs the logger a scrypt, and tests make
// hundreds of calls. A 401 (the token revoked or expired, the logger restarted) fetches a new one.
let adminToken: { value: string; until: number } | null = null;
async function cachedAdminToken(fresh: boolean): Promise<string> {
  if (fresh || !adminToken || Date.now() > adminToken.until) adminToken = { value: await token("admin", ADMIN_PASSWORD), until: Date.now() + 5 * 60_000 };
  return adminToken.value;
}

export async function rpc<T = Record<string, unknown>>(method: string, params: object, bearer?: string): Promise<T> {
  const send = async (fresh: boolean) =>
    fetch(`${LOGGER}/rpc/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer ?? (await cachedAdminToken(fresh))}` },
      body: JSON.stringify(params),
    });
  let res = await send(false);
  if (res.status === 401 && !bearer) {
    await res.body?.cancel();
    res = await send(true);
  }
  const json = (await res.json()) as T & { ReturnState?: { Value: number; Description: string } };
  if (!res.ok) throw new Error(`${method}: ${res.status} ${json.ReturnState?.Description}`);
  return json;
}

let counter = 0;
/** A unique name per call, so tests never collide on the shared logger. */
export function unique(prefix: string) {
  return `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;
}

export async function roleId(name: string): Promise<number> {
  const { Roles } = await rpc<{ Roles: { ID: number; Name: string }[] }>("GI.system/UserManagementAPI.GetRoles", {});
  const role = Roles.find((r) => r.Name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role.ID;
}

export async function createRole(permissions: string[]): Promise<{ id: number; name: string }> {
  const name = unique("role");
  const { ID } = await rpc<{ ID: number }>("GI.system/UserManagementAPI.AddRole", { Role: { Name: name, Description: "e2e", Permissions: permissions } });
  return { id: ID, name };
}

/** A user with a known password; `mustChange` flags the forced password change. */
export async function createUser(role: string | number, opts: { mustChange?: boolean } = {}) {
  const username = unique("user");
  const password = `pw-${username}-1`;
  const Role = typeof role === "number" ? role : await roleId(role);
  const { ID } = await rpc<{ ID: number }>("GI.system/UserManagementAPI.AddUser", {
    User: { Username: username, EMail: `${username}@example.com`, Role, Timezone: "Europe/Rome", TimezoneDiffSec: 0, TimezoneUseDST: true, MustChangePassword: !!opts.mustChange },
    Password: password,
  });
  return { id: ID, username, password };
}

/** Creates a dashboard through the Dashboard Manager's form and waits for its editor. */
export async function createDashboardInManager(page: Page, name: string) {
  await page.goto("/dashboardManager");
  await page.getByRole("link", { name: "New dashboard" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("heading", { name: `Edit dashboard ${name}` })).toBeVisible();
}

export async function signIn(page: Page, username: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel(/username|nome utente/i).fill(username);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/^password$/i).press("Enter");
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

/**
 * Signs in with the sign-in form's post sent from the page's own request context (its cookies are
 * the page's), for tests that go to another page next: the redirect is followed as the browser
 * would (the landing page's one-time toast is spent), but no page is drawn. The sign-in page
 * itself is tried by signIn() and the sign-in specs. The browser's language is not sent.
 */
export async function signInDirect(page: Page, username: string, password: string) {
  const kept = signedIn.get(username);
  if (kept && kept.password === password && Date.now() < kept.until) {
    await page.context().addCookies([kept.cookie]);
    // A test since may have signed this user out (which ends the sign-in the copy holds).
    const check = await page.request.get("/versionInfo", { maxRedirects: 0 });
    if (check.status() === 200) return;
    signedIn.delete(username);
    await page.context().clearCookies({ name: "loggia_session" });
  }
  await postSignIn(page.context(), username, password, pageOrigin(page));
  const cookie = (await page.context().cookies()).find((c) => c.name === "loggia_session");
  if (cookie) signedIn.set(username, { password, cookie, until: Date.now() + SESSION_REUSE_MS });
}

/** The origin a page's own posts carry: its console's, also before it has opened anything. */
export function pageOrigin(page: Page) {
  return new URL(page.url().startsWith("http") ? page.url() : test.info().project.use.baseURL!).origin;
}

/**
 * The sign-in form's post from a context's request client (its cookies are the context's; no page
 * is opened, so no renderer either), from the origin of `from` or of the project's console.
 */
export async function postSignIn(context: BrowserContext, username: string, password: string, from?: string) {
  const origin = new URL(from ?? test.info().project.use.baseURL!).origin;
  const res = await context.request.post("/signin", { form: { username, password }, headers: { Origin: origin } });
  expect(res.ok(), `sign-in of ${username} (${res.status()})`).toBe(true);
  expect(new URL(res.url()).pathname, `sign-in of ${username} landed`).not.toMatch(/^\/(signin|changePassword)/);
}

/**
 * Sign-ins of signInDirect, reused by the later tests of this worker (issue 25: one sign-in per
 * user and worker instead of one per test; a password check costs the logger a scrypt, and the
 * landing page a render). A copy is used for at most SESSION_REUSE_MS, well inside the access
 * token's life (ACCESS_TOKEN_TTL, 15 min): no test refreshes the tokens while another test's
 * copy still holds the old ones (a refresh token used twice ends the whole sign-in).
 */
const signedIn = new Map<string, { password: string; cookie: Cookie; until: number }>();
const SESSION_REUSE_MS = 8 * 60_000;

/** Signs out as the menus do: a POST (GET /logout only asks, it never signs anyone out). */
export async function signOut(page: Page) {
  await page.goto("/logout");
  if (new URL(page.url()).pathname === "/logout") await page.getByTestId("logout-confirm").click();
  await page.waitForURL((url) => url.pathname === "/signin");
}

export async function setGlobalSettings(config: Record<string, unknown>) {
  await rpc("AdminAPI.SetGlobalSettings", { Config: config });
}

/** An uncaught page error with its stack: a message like "signal is aborted without reason" alone does not say where it came from. */
function uncaught(e: Error): string {
  return e.stack && !e.stack.includes(e.message) ? `${e.message}\n${e.stack}` : (e.stack ?? e.message);
}

/** The origins a kept context's pages and frames were on: their storage is what resetContext empties. */
const contextOrigins = new WeakMap<BrowserContext, Set<string>>();

function trackOrigins(context: BrowserContext): BrowserContext {
  const origins = new Set<string>();
  contextOrigins.set(context, origins);
  context.on("page", (page) =>
    page.on("framenavigated", (frame) => {
      const origin = new URL(frame.url()).origin;
      if (origin.startsWith("http")) origins.add(origin);
    }),
  );
  return context;
}

/**
 * Puts a kept context back as a new one would be (issue 25): its pages closed (but its kept page,
 * which resetPage has put back), cookies gone, the local, session and IndexedDB storage of every
 * origin its pages were on emptied, and what a test may have switched (offline, extra headers,
 * permissions, routes) set back to the options. The HTTP cache stays: that is what keeping the
 * context is for. Throws when something cannot be reset. Not context.storageState() to find the
 * origins: it opens a page (a renderer process, ~0.5 CPU-s here) and loads every origin in it.
 */
async function resetContext(context: BrowserContext, options: BrowserContextOptions, keptPages: Map<BrowserContext, Page>): Promise<void> {
  const origins = contextOrigins.get(context)!;
  for (const other of context.pages()) if (other !== keptPages.get(context)) await other.close();
  if (origins.size) {
    // The clearing needs a page to speak through; one made for it is the next test's.
    let page = keptPages.get(context);
    if (!page) keptPages.set(context, (page = logged(await context.newPage())));
    // The kept page's tab keeps its session storage: the same clearing empties it.
    const cdp = await context.newCDPSession(page);
    for (const origin of origins) await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "local_storage,indexeddb,cache_storage,service_workers,file_systems,websql" });
    origins.clear();
    await cdp.detach();
  }
  await context.clearCookies();
  await context.clearPermissions();
  if (options.permissions?.length) await context.grantPermissions(options.permissions);
  await context.setOffline(options.offline ?? false);
  await context.setExtraHTTPHeaders(options.extraHTTPHeaders ?? {});
  await context.unrouteAll({ behavior: "ignoreErrors" });
}

/**
 * What a test did to a kept page that resetPage must undo, or cannot (then the page is closed
 * and the next test gets a new one): recorded by wrappers put on the page when it is made.
 */
type PageLog = { tainted: boolean; viewport: boolean; headers: boolean; routes: boolean; listeners: [string, (...args: unknown[]) => void][] };
const pageLogs = new WeakMap<Page, PageLog>();

/** Page methods whose effect no call takes back (init scripts, exposed functions, the fake clock, a key or button held down). */
const LASTING = ["addInitScript", "exposeFunction", "exposeBinding", "addLocatorHandler", "routeFromHAR", "routeWebSocket", "emulateMedia"] as const;
const CLOCK = ["install", "fastForward", "pauseAt", "resume", "runFor", "setFixedTime", "setSystemTime"] as const;

function logged(page: Page): Page {
  const log: PageLog = { tainted: false, viewport: false, headers: false, routes: false, listeners: [] };
  pageLogs.set(page, log);
  const wrap = <T extends object>(target: T, name: string, note: (...args: unknown[]) => void) => {
    const original = (target as Record<string, unknown>)[name] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== "function") return;
    (target as Record<string, unknown>)[name] = (...args: unknown[]) => {
      note(...args);
      return original.apply(target, args);
    };
  };
  for (const name of LASTING) wrap(page, name, () => (log.tainted = true));
  for (const name of CLOCK) wrap(page.clock, name, () => (log.tainted = true));
  wrap(page.keyboard, "down", () => (log.tainted = true));
  wrap(page.mouse, "down", () => (log.tainted = true));
  wrap(page, "setViewportSize", () => (log.viewport = true));
  wrap(page, "setExtraHTTPHeaders", () => (log.headers = true));
  wrap(page, "route", () => (log.routes = true));
  for (const name of ["on", "once", "addListener", "prependListener", "prependOnceListener"]) wrap(page, name, (event, listener) => log.listeners.push([event as string, listener as (...args: unknown[]) => void]));
  return page;
}

/**
 * Puts a kept page back as a new one would be (issue 25): the test's listeners, routes, headers
 * and viewport undone, the document left for about:blank (same renderer: a new page costs a
 * renderer process, ~0.5 CPU-s a test on a 2-core VM) and its history forgotten; the tab's
 * session storage is emptied by resetContext with the context's. Returns false when the page
 * cannot be kept (closed, or changed for good).
 */
async function resetPage(page: Page, options: BrowserContextOptions): Promise<boolean> {
  const log = pageLogs.get(page);
  if (!log || page.isClosed() || log.tainted || (log.viewport && !options.viewport)) return false;
  for (const [event, listener] of log.listeners.splice(0)) page.off(event as "console", listener);
  if (log.routes) await page.unrouteAll({ behavior: "ignoreErrors" });
  if (log.headers) await page.setExtraHTTPHeaders({});
  if (log.viewport) await page.setViewportSize(options.viewport!);
  log.routes = log.headers = log.viewport = false;
  await page.goto("about:blank", { timeout: 10_000 });
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("Page.resetNavigationHistory");
  } finally {
    await cdp.detach();
  }
  return true;
}

/**
 * Playwright's test with its own combination of a test's context options in view
 * (`_combinedContextOptions`, the fixture its context fixture makes contexts from; not in its
 * types): the kept contexts below are made from exactly what a fresh one would be.
 */
const base = playwrightTest as unknown as TestType<PlaywrightTestArgs & PlaywrightTestOptions & { _combinedContextOptions: BrowserContextOptions }, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

/** Every test fails on a browser console error (STYLE.md). */
export const test = base.extend<{ testCpu: void; failOnConsoleError: void; hydratedAfterGoto: void }, { workerStack: void; keptContexts: Map<string, BrowserContext>; keptPages: Map<BrowserContext, Page> }>({
  // Issue 25: the browser contexts of this worker, one per set of context options, kept between
  // its tests so that the console's bundles stay in the HTTP cache and compiled (a new context
  // made each test fetch, parse and compile them again: ~0.35 CPU-s a test).
  keptContexts: [
    async ({}, use) => {
      const kept = new Map<string, BrowserContext>();
      await use(kept);
      await Promise.all([...kept.values()].map((c) => c.close().catch(() => {})));
    },
    { scope: "worker" },
  ],
  // The page each kept context keeps between tests (resetPage), so its renderer process stays.
  keptPages: [
    async ({}, use) => {
      await use(new Map());
    },
    { scope: "worker" },
  ],
  // A kept context for the test's options, reset after it (resetContext); a fresh one, as
  // Playwright makes it, for options whose state a reset cannot give back (a storage state), and
  // for every test with E2E_FRESH_CONTEXTS=1 (to tell a leak between tests from a failure).
  // The test's options are Playwright's own combination of them (its context fixture uses the same).
  context: async ({ browser, keptContexts, keptPages, _combinedContextOptions }, use) => {
    const options = _combinedContextOptions;
    if (process.env.E2E_FRESH_CONTEXTS === "1" || options.storageState || options.recordHar || options.recordVideo) {
      const fresh = await browser.newContext(options);
      await use(fresh);
      await fresh.close();
      return;
    }
    const key = JSON.stringify(options);
    let context = keptContexts.get(key);
    if (!context) {
      const made = trackOrigins(await browser.newContext(options));
      made.on("close", () => keptContexts.get(key) === made && keptContexts.delete(key));
      keptContexts.set(key, (context = made));
    }
    await use(context);
    try {
      await resetContext(context, options, keptPages);
    } catch {
      // Whatever could not be reset goes with the context: the next test gets a new one.
      keptContexts.delete(key);
      keptPages.delete(context);
      await context.close().catch(() => {});
    }
  },
  // The kept context's kept page, put back as new after each test (resetPage); a new page where
  // the context is not kept, or the kept page could not be put back (closed by the context's reset).
  page: async ({ context, keptContexts, keptPages, _combinedContextOptions }, use) => {
    const kept = [...keptContexts.values()].includes(context);
    let page = kept ? keptPages.get(context) : undefined;
    if (!page || page.isClosed()) {
      page = await context.newPage();
      if (kept) keptPages.set(context, logged(page));
    }
    await use(page);
    if (!kept) return;
    const reusable = await resetPage(page, _combinedContextOptions).catch(() => false);
    if (!reusable) {
      keptPages.delete(context);
      await page.close().catch(() => {});
    }
  },
  // What the test cost the machine (issue 25): the CPU of this worker's process tree — Playwright,
  // its Chromium and pages, its stack and the stacks the test started — over the test and its
  // fixtures (automatic and needing none: set up before the page, torn down after its reset).
  // timingReporter.ts adds it up by file: a slow test may only wait, a costly one slows every
  // worker beside it.
  testCpu: [
    async ({}, use, testInfo) => {
      const before = treeSeconds(process.pid);
      await use();
      const after = treeSeconds(process.pid);
      if (before !== null && after !== null) testInfo.annotations.push({ type: "cpu", description: (after - before).toFixed(2) });
    },
    { auto: true },
  ],
  // The worker's own console + embedded logger (issue 25), up before its first test or hook and
  // stopped after its last; its ports are the worker's (playwright.config.ts).
  workerStack: [
    async ({}, use, workerInfo) => {
      const store = workerInfo.project.metadata?.store === "postgres" ? "postgres" : "sqlite";
      const stack = await startWorkerStack({ port: Number(process.env.E2E_PORT), loggerPort: Number(process.env.E2E_LOGGER_PORT), store });
      await use();
      await stack.stop();
    },
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
  // With JavaScript, page.goto returns once the app has hydrated (root marks <html data-hydrated>):
  // a click before that is a plain form post or link, not what a js test means to try.
  hydratedAfterGoto: [
    async ({ page, javaScriptEnabled }, use) => {
      // The page may be kept for the next test (resetPage): its own goto is put back after this one.
      const own = page.goto;
      if (javaScriptEnabled !== false) {
        page.goto = async (url, options) => {
          const response = await own.call(page, url, options);
          await page.waitForFunction(() => !("__reactRouterContext" in window) || document.documentElement.dataset.hydrated === "true", null, { timeout: 15_000 });
          return response;
        };
      }
      await use();
      page.goto = own;
    },
    { auto: true },
  ],
  failOnConsoleError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (m) => {
        // Error pages and refused forms answer 4xx on purpose; the browser logs those loads.
        if (m.type() === "error" && !/Failed to load resource: the server responded with a status of (4\d\d|502|503)/.test(m.text())) errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(uncaught(e)));
      await use();
      expect(errors, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * For tests that take the network or the logger away on purpose (issue 26): the browser's own
 * log lines for the requests that failed because of it — "net::ERR_INTERNET_DISCONNECTED" while
 * offline, "net::ERR_NETWORK_CHANGED" or a refused connection, and the 503 of a page the logger
 * could not serve — are expected. Every other console error still fails the test.
 */
export const faultTest = test.extend({
  // An override: still automatic, as the fixture it replaces.
  failOnConsoleError: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      if (/Failed to load resource: (the server responded with a status of (4\d\d|502|503)|net::ERR_(INTERNET_DISCONNECTED|NETWORK_CHANGED|CONNECTION_REFUSED|EMPTY_RESPONSE|CONNECTION_RESET|NETWORK_IO_SUSPENDED))/.test(m.text())) return;
      errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(uncaught(e)));
    await use();
    expect(errors, "browser console errors").toEqual([]);
  },
});
