import { createCookieSessionStorage } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sealer } from "~/services/sealedCookie.server";
import { sealedSessionCookie } from "../../support/sessionCookie";

// The cookie session carries its issue time and absolute end, signed with it, and both are
// checked on every request (issue 14): a cookie past its Max-Age is refused even if a browser
// (or a copy of the cookie) still sends it, and writing the session never extends its life.

type SessionModule = typeof import("~/services/session.server");
let mod: SessionModule;
const MAX_AGE = 3600;

beforeAll(async () => {
  process.env.SESSION_SECRET ??= "unit-test-session-secret-0123456789";
  process.env.SESSION_MAX_AGE = String(MAX_AGE);
  mod = await import("~/services/session.server");
});
afterEach(() => {
  vi.useRealTimers();
});

const storage = () => mod.sessionStorageFor(new Request("http://localhost/"));
const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;
const maxAgeOf = (setCookie: string) => Number(/Max-Age=(\d+)/i.exec(setCookie)?.[1]);

/** A cookie sealed with the console's secret but written by hand (what a forger with the key would send). */
async function handMade(data: Record<string, unknown>) {
  return `loggia_session=${await sealedSessionCookie(process.env.SESSION_SECRET!.split(","), data)}`;
}

/** A cookie as versions before issue 24 wrote it: signed with the console's secret, readable by anyone. */
async function signedOnly(data: Record<string, unknown>) {
  const raw = createCookieSessionStorage({ cookie: { name: "loggia_session", secrets: process.env.SESSION_SECRET!.split(","), path: "/" } });
  const session = await raw.getSession();
  for (const [k, v] of Object.entries(data)) session.set(k, v);
  return cookieHeader(await raw.commitSession(session));
}

/** Everything a reader of the cookie's text could decode from it without the secret. */
function readable(header: string): string {
  const value = decodeURIComponent(header.slice(header.indexOf("=") + 1));
  const layers = [value];
  for (let i = 0; i < 3; i++) layers.push(Buffer.from(layers.at(-1)!.replace(/^"|"$/g, "").replace(/^v1\./, "").split(".")[0]!, "base64").toString("latin1"));
  return layers.join("\n");
}

describe("session lifetime", () => {
  it("stamps a new session with its issue time, end and id", async () => {
    const s = await storage().getSession();
    s.set("username", "ada");
    const set = await storage().commitSession(s);
    const back = await storage().getSession(cookieHeader(set));
    expect(back.get("username")).toBe("ada");
    expect(back.get("expiresAt")! - back.get("issuedAt")!).toBe(MAX_AGE * 1000);
    expect(back.get("sid")).toMatch(/^[0-9a-f-]{36}$/);
    expect(maxAgeOf(set)).toBeGreaterThan(MAX_AGE - 5);
  });

  it("refuses a cookie past its end, also one the cache had verified", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const s = await storage().getSession();
    s.set("accessToken", "a-token");
    const header = cookieHeader(await storage().commitSession(s));
    expect((await mod.openSession(storage(), header)).get("accessToken")).toBe("a-token");
    vi.setSystemTime(new Date(Date.now() + MAX_AGE * 1000 - 1000));
    expect((await mod.openSession(storage(), header)).get("accessToken")).toBe("a-token");
    vi.setSystemTime(new Date(Date.now() + 1001));
    expect((await storage().getSession(header)).get("accessToken")).toBeUndefined();
    expect((await mod.openSession(storage(), header)).get("accessToken")).toBeUndefined();
  });

  it("does not extend the session when it is written again (refreshed tokens, toasts)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-02-01T00:00:00Z"));
    const s = await storage().getSession();
    s.set("accessToken", "first");
    const first = await storage().commitSession(s);
    const issuedAt = (await storage().getSession(cookieHeader(first))).get("issuedAt");
    vi.setSystemTime(new Date(Date.now() + 1800_000));
    const again = await storage().getSession(cookieHeader(first));
    again.set("accessToken", "second");
    const second = await storage().commitSession(again);
    // The browser is told to keep it only for what is left …
    expect(maxAgeOf(second)).toBe(1800);
    const back = await storage().getSession(cookieHeader(second));
    // … and the signed dates are the sign-in's.
    expect(back.get("issuedAt")).toBe(issuedAt);
    vi.setSystemTime(new Date(Date.now() + 1800_000));
    expect((await storage().getSession(cookieHeader(second))).get("accessToken")).toBeUndefined();
  });

  it("refuses signed cookies without dates, with a later end than SESSION_MAX_AGE allows, or from the future", async () => {
    const now = Date.now();
    const cases = [
      { accessToken: "legacy" }, // written before sessions had dates
      { accessToken: "long", issuedAt: now - 2 * MAX_AGE * 1000, expiresAt: now + 1000 }, // SESSION_MAX_AGE was lowered since
      { accessToken: "future", issuedAt: now + 3600_000, expiresAt: now + 7200_000 },
      { accessToken: "strings", issuedAt: String(now), expiresAt: String(now + 1000) },
    ];
    for (const data of cases) {
      expect((await mod.openSession(storage(), await handMade(data))).get("accessToken"), data.accessToken).toBeUndefined();
    }
    const fine = await handMade({ accessToken: "fine", issuedAt: now, expiresAt: now + 1000 });
    expect((await mod.openSession(storage(), fine)).get("accessToken")).toBe("fine");
  });

  it("gives a sign-in a new lifetime and id", async () => {
    const s = await storage().getSession();
    mod.beginSession(s, 1000);
    const sid = s.get("sid");
    mod.beginSession(s, 2000);
    expect(s.get("issuedAt")).toBe(2000);
    expect(s.get("expiresAt")).toBe(2000 + MAX_AGE * 1000);
    expect(s.get("sid")).not.toBe(sid);
    expect(mod.sessionIsCurrent({ issuedAt: 2000, expiresAt: 2000 + MAX_AGE * 1000 }, 2001)).toBe(true);
    expect(mod.sessionIsCurrent({ issuedAt: 2000, expiresAt: 2000 + MAX_AGE * 1000 }, 2000 + MAX_AGE * 1000)).toBe(false);
  });
});

describe("sealed session cookie (issue 24)", () => {
  const now = Date.now();
  const tokens = { accessToken: "access-token-in-clear-0123", refreshToken: "refresh-token-in-clear-4567", username: "ada", issuedAt: now, expiresAt: now + 60_000 };

  it("keeps the tokens and the rest of the session unreadable without the secret", async () => {
    const s = await storage().getSession();
    for (const [k, v] of Object.entries(tokens)) s.set(k as "username", v as string);
    const header = cookieHeader(await storage().commitSession(s));
    expect((await storage().getSession(header)).get("accessToken")).toBe(tokens.accessToken);
    const text = readable(header);
    for (const secret of [tokens.accessToken, tokens.refreshToken, "accessToken", "ada"]) expect(text).not.toContain(secret);
    // The signed-only form of the same data shows it all: the check above can fail.
    expect(readable(await signedOnly(tokens))).toContain(tokens.accessToken);
  });

  it("opens no cookie of the old signed form, nor a tampered or truncated one", async () => {
    expect((await mod.openSession(storage(), await signedOnly(tokens))).get("accessToken")).toBeUndefined();
    const good = await handMade(tokens);
    expect((await mod.openSession(storage(), good)).get("accessToken")).toBe(tokens.accessToken);
    const value = decodeURIComponent(good.slice(good.indexOf("=") + 1));
    const sealed = JSON.parse(Buffer.from(value, "base64").toString()) as string;
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    for (const bad of [flip(sealed, 10), flip(sealed, sealed.length - 5), sealed.slice(0, -4), "v1.", "v2." + sealed.slice(3)]) {
      const header = `loggia_session=${Buffer.from(JSON.stringify(bad)).toString("base64")}`;
      expect((await mod.openSession(storage(), header)).get("accessToken"), bad.slice(0, 20)).toBeUndefined();
    }
  });

  it("opens cookies sealed with any listed secret and seals with the first (rotation)", async () => {
    const old = sealer(["old-secret-0123456789abcdef"]);
    const rotated = sealer(["new-secret-0123456789abcdef", "old-secret-0123456789abcdef"]);
    const fresh = sealer(["new-secret-0123456789abcdef"]);
    const fromOld = await old.seal({ a: 1 });
    expect(await rotated.open(fromOld)).toEqual({ a: 1 });
    expect(await fresh.open(fromOld)).toBeNull();
    expect(await fresh.open(await rotated.seal({ b: 2 }))).toEqual({ b: 2 });
    // Two seals of the same data differ (a random IV each): equal cookies tell nothing.
    expect(await fresh.seal({ b: 2 })).not.toBe(await fresh.seal({ b: 2 }));
  });
});
