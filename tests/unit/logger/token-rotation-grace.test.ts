import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROTATION_GRACE_MS } from "../../../logger/auth/tokens.ts";
import { ADMIN_PASSWORD, login, sleep, start, tokenRequest, verify, type TestLogger } from "./helpers.ts";

// Console replicas share no memory, so two of them may refresh one session's tokens at once
// (issue 17). A repeat of a rotation with the same session binding, within a few seconds, gets
// the same successor pair; every other reuse still ends the sign-in (issue 14).

const SESSION = "b".repeat(43);
const OTHER_SESSION = "c".repeat(43);

let lg: TestLogger;
beforeAll(async () => {
  lg = await start({ adminPassword: ADMIN_PASSWORD });
});
afterAll(() => lg.stop());

const refresh = (token: string, binding?: string) =>
  tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: token, ...(binding === undefined ? {} : { session_binding: binding }) });

describe("idempotent rotation within the grace window", () => {
  it("answers two concurrent refreshes of one session with the same pair, which works", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const [a, b] = await Promise.all([refresh(first.refresh, SESSION), refresh(first.refresh, SESSION)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).not.toBe(first.refresh);
    expect(b.body.access_token).toBe(a.body.access_token);
    expect(b.body.refresh_token).toBe(a.body.refresh_token);
    expect((await verify(lg.url, a.body.access_token)).status).toBe(200);
    // The shared successor rotates on as usual: the family is alive.
    const next = await refresh(a.body.refresh_token, SESSION);
    expect(next.status).toBe(200);
    expect((await verify(lg.url, next.body.access_token)).status).toBe(200);
  });

  it("derives different pairs for different sign-ins and sessions", async () => {
    const one = await login(lg.url, "admin", ADMIN_PASSWORD);
    const two = await login(lg.url, "admin", ADMIN_PASSWORD);
    const [a, b] = await Promise.all([refresh(one.refresh, SESSION), refresh(two.refresh, SESSION)]);
    expect(a.body.refresh_token).not.toBe(b.body.refresh_token);
    expect(a.body.access_token).not.toBe(b.body.access_token);
  });

  it("treats a repeat from another session as a reuse and ends the sign-in", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const mine = await refresh(first.refresh, SESSION);
    expect(mine.status).toBe(200);
    const theirs = await refresh(first.refresh, OTHER_SESSION);
    expect(theirs.status).toBe(400);
    expect(theirs.body).toEqual({ error: "invalid_grant", error_description: "Refresh token already used" });
    expect((await verify(lg.url, mine.body.access_token)).status).toBe(401);
    expect((await refresh(mine.body.refresh_token, SESSION)).status).toBe(400);
  });

  it("treats a repeat without a binding as a reuse", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const mine = await refresh(first.refresh, SESSION);
    expect((await refresh(first.refresh)).body.error).toBe("invalid_grant");
    expect((await verify(lg.url, mine.body.access_token)).status).toBe(401);
  });

  it("treats a repeat after the successor was itself rotated as a reuse", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const second = await refresh(first.refresh, SESSION);
    const third = await refresh(second.body.refresh_token, SESSION);
    expect(third.status).toBe(200);
    expect((await refresh(first.refresh, SESSION)).status).toBe(400);
    expect((await verify(lg.url, third.body.access_token)).status).toBe(401);
  });

  it("treats a repeat after the window as a reuse and ends the sign-in", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const mine = await refresh(first.refresh, SESSION);
    expect(mine.status).toBe(200);
    await sleep(ROTATION_GRACE_MS + 300);
    const late = await refresh(first.refresh, SESSION);
    expect(late.status).toBe(400);
    expect(late.body.error_description).toBe("Refresh token already used");
    expect((await verify(lg.url, mine.body.access_token)).status).toBe(401);
  }, ROTATION_GRACE_MS + 10_000);

  it("refuses a binding of the wrong size", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const res = await refresh(first.refresh, "short");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    // The refused request consumed nothing.
    expect((await refresh(first.refresh, SESSION)).status).toBe(200);
  });

  it("is a few seconds", () => {
    expect(ROTATION_GRACE_MS).toBeGreaterThanOrEqual(2000);
    expect(ROTATION_GRACE_MS).toBeLessThanOrEqual(10_000);
  });
});

describe("idempotent rotation and the family's end", () => {
  it("never repeats a pair past the family's end", async () => {
    const short = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 0.3, refreshTtlSec: 1 });
    try {
      const first = await login(short.url, "admin", ADMIN_PASSWORD);
      const form = { grant_type: "refresh_token", refresh_token: first.refresh, session_binding: SESSION };
      const mine = await tokenRequest(short.url, form);
      expect(mine.status).toBe(200);
      expect(mine.body.expires_in).toBeLessThanOrEqual(1);
      await sleep(1100);
      expect((await tokenRequest(short.url, { ...form, refresh_token: mine.body.refresh_token })).body.error_description).toBe("Refresh token expired");
      // Still within the grace window, but the pair it would repeat has ended with the family.
      expect((await tokenRequest(short.url, form)).status).toBe(400);
    } finally {
      await short.stop();
    }
  });
});
