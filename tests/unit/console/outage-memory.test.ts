import { createSession, RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";

// What a dashboard may draw from memory while the logger is away (app/ui/kiosk/outage.server.ts):
// only what the same sign-in saw, never for a session that signed out since, never another's.

let mod: typeof import("~/ui/kiosk/outage.server");
let requestState: typeof import("~/services/context.server").requestState;

beforeAll(async () => {
  process.env.SESSION_SECRET ??= "unit-test-session-secret-0123456789";
  mod = await import("~/ui/kiosk/outage.server");
  ({ requestState } = await import("~/services/context.server"));
});

function contextOf(data: Record<string, unknown>) {
  const context = new RouterContextProvider();
  context.set(requestState, { session: createSession(data) as never, logger: null as never });
  return context;
}

describe("outage memory", () => {
  it("recalls a page for the same sign-in only, and not after it signed out", () => {
    mod.forgetOutagePages();
    const mine = { sid: "sid-a", accessToken: "token-a" };
    mod.rememberPage(contextOf(mine), "", { name: "home" });
    mod.rememberPage(contextOf(mine), "abc", { name: "other" });
    expect(mod.recallPage(contextOf(mine), "")).toEqual({ name: "home" });
    expect(mod.recallPage(contextOf(mine), "abc")).toEqual({ name: "other" });
    expect(mod.recallPage(contextOf(mine), "never-seen")).toBeUndefined();
    // Another sign-in, or a request without a session id: nothing.
    expect(mod.recallPage(contextOf({ sid: "sid-b", accessToken: "token-b" }), "")).toBeUndefined();
    expect(mod.recallPage(contextOf({ accessToken: "token-a" }), "")).toBeUndefined();
    // The same cookie session after signing out (tokens gone): nothing.
    expect(mod.recallPage(contextOf({ sid: "sid-a" }), "")).toBeUndefined();
  });

  it("remembers the shell only for dashboard pages, and serves it without the one-time toast, with the alarm state unknown and the outage said", async () => {
    mod.forgetOutagePages();
    const session = { sid: "sid-c", accessToken: "token-c" };
    const shell = { nav: ["dashboard"], toast: { text: "saved" }, hashToken: true, alerts: { alarms: { active: 2, unacknowledged: 1 }, messages: [] } };
    mod.rememberShell(contextOf(session), new Request("http://localhost/users"), { nav: ["users"] });
    mod.rememberShell(contextOf(session), new Request("http://localhost/dashboard?kiosk"), shell);
    const kept = (await mod.outageShell(contextOf(session), new Request("http://localhost/dashboard?kiosk"))) as typeof shell;
    expect(kept.nav).toEqual(["dashboard"]);
    // A count from before could be untrue: the bell says the alarm state is unknown (issue 26 §2),
    // and the shell says since when the page is the one remembered.
    expect(kept).toMatchObject({ toast: null, hashToken: false, alerts: { alarms: "unknown", messages: null }, logger: { since: expect.any(Number) } });
    // Nothing remembered: a bare, signed-out shell from the cookies alone.
    const { i18nextMiddleware } = await import("~/services/i18n.server");
    const request = new Request("http://localhost/dashboard?kiosk", { headers: { Cookie: "loggia_tz=Europe%2FRome" } });
    const context = contextOf({ sid: "sid-d", lng: "it" });
    let bare: Record<string, unknown> = {};
    await i18nextMiddleware({ request, context } as never, async () => {
      bare = (await mod.outageShell(context, request)) as Record<string, unknown>;
      return new Response();
    });
    expect(bare).toMatchObject({ signedIn: false, loginRequired: true, nav: [], dashboards: [], locale: "it", timeZone: "Europe/Rome", toast: null, logger: { since: null } });
  });

  it("judges the remembered values offline, aged since the newest one", () => {
    const now = Date.now();
    const { summary, stamps } = mod.offlineStamps({ times: { a: now - 60_000, b: now - 5_000 }, periods: { a: 1000, b: 1000 }, at: now - 4_000 });
    expect(summary.state).toBe("offline");
    expect(summary.each).toEqual({ a: "offline", b: "offline" });
    expect(summary.ageMs).toBeGreaterThanOrEqual(5_000);
    expect(summary.ageMs).toBeLessThan(60_000);
    expect(stamps.offline).toBe(true);
  });
});
