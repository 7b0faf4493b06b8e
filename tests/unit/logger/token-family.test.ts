import { describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, sleep, start, tokenRequest, verify } from "./helpers.ts";

// A sign-in (a token family) ends REFRESH_TOKEN_TTL after it began, however often it is
// refreshed: rotation no longer extends it (issue 14).

describe("token family lifetime", () => {
  it("never refreshes past the family's start + REFRESH_TOKEN_TTL", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 0.5, refreshTtlSec: 1.5 });
    try {
      let pair = await login(lg.url, "admin", ADMIN_PASSWORD);
      const signedInAt = Date.now(); // the family began a little before this
      // Refreshing every 400 ms would keep a sliding lifetime alive for ever.
      while (Date.now() - signedInAt < 1300) {
        await sleep(400);
        const res = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: pair.refresh });
        if (res.status !== 200) break;
        // No access token outlives the family either.
        expect(res.body.expires_in).toBeLessThanOrEqual(Math.ceil((signedInAt + 1500 - Date.now()) / 1000) + 1);
        pair = { access: res.body.access_token, refresh: res.body.refresh_token };
      }
      await sleep(Math.max(0, signedInAt + 1600 - Date.now()));
      const late = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: pair.refresh });
      expect(late.status).toBe(400);
      expect(late.body).toEqual({ error: "invalid_grant", error_description: "Refresh token expired" });
      expect((await verify(lg.url, pair.access)).status).toBe(401);
      // A new sign-in starts a new family.
      expect((await verify(lg.url, (await login(lg.url, "admin", ADMIN_PASSWORD)).access)).status).toBe(200);
    } finally {
      await lg.stop();
    }
  });

  it("caps an access token at the family's end", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 60, refreshTtlSec: 1 });
    try {
      const res = await tokenRequest(lg.url, { grant_type: "password", username: "admin", password: ADMIN_PASSWORD });
      expect(res.body.expires_in).toBe(1);
      await sleep(1100);
      expect((await verify(lg.url, res.body.access_token)).status).toBe(401);
    } finally {
      await lg.stop();
    }
  });
});
