import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, API, CLIENT, login, rpc, sleep, start, tokenRequest, verify } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

describe("POST /token", () => {
  let lg: TestLogger;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
  });
  afterAll(() => lg.stop());

  it("issues a token pair for the right password (username case-insensitive)", async () => {
    const res = await tokenRequest(lg.url, { grant_type: "password", username: "ADMIN", password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 900 });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.access_token).not.toBe(res.body.refresh_token);
  });

  it("answers invalid_grant for a wrong password or unknown user", async () => {
    for (const [username, password] of [["admin", "wrong-password"], ["nobody", ADMIN_PASSWORD]]) {
      const res = await tokenRequest(lg.url, { grant_type: "password", username: username!, password: password! });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_grant", error_description: "Wrong username or password" });
    }
  });

  it("rejects an unknown client or a wrong secret with 401 invalid_client", async () => {
    const form = { grant_type: "password", username: "admin", password: ADMIN_PASSWORD };
    for (const client of [{ id: "intruder", secret: "x" }, { id: CLIENT.id, secret: "wrong" }, null]) {
      const res = await tokenRequest(lg.url, form, client);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    }
  });

  it("accepts the public gibench client without a secret, by Basic or form", async () => {
    const form = { grant_type: "password", username: "admin", password: ADMIN_PASSWORD };
    expect((await tokenRequest(lg.url, form, { id: "gibench", secret: "" })).status).toBe(200);
    expect((await tokenRequest(lg.url, { ...form, client_id: "gibench" }, null)).status).toBe(200);
    expect((await tokenRequest(lg.url, form, { id: "gibench", secret: "guess" })).status).toBe(401);
  });

  it("accepts the console's credentials in the form body", async () => {
    const res = await tokenRequest(
      lg.url,
      { grant_type: "password", username: "admin", password: ADMIN_PASSWORD, client_id: CLIENT.id, client_secret: CLIENT.secret },
      null,
    );
    expect(res.status).toBe(200);
  });

  it("answers unsupported_grant_type and invalid_request", async () => {
    expect((await tokenRequest(lg.url, { grant_type: "client_credentials" })).body.error).toBe("unsupported_grant_type");
    const missingGrant = await tokenRequest(lg.url, { username: "admin" });
    expect(missingGrant.status).toBe(400);
    expect(missingGrant.body.error).toBe("invalid_request");
    expect((await tokenRequest(lg.url, { grant_type: "password", username: "admin" })).body.error).toBe("invalid_request");
    expect((await tokenRequest(lg.url, { grant_type: "refresh_token" })).body.error).toBe("invalid_request");
  });

  it("rotates refresh tokens and revokes the whole family when a used one comes back", async () => {
    const first = await login(lg.url, "admin", ADMIN_PASSWORD);
    const second = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: first.refresh });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh);
    expect((await verify(lg.url, second.body.access_token)).status).toBe(200);

    const reuse = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: first.refresh });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    // Every token of that sign-in is gone, including the newest pair.
    expect((await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: second.body.refresh_token })).body.error).toBe(
      "invalid_grant",
    );
    expect((await verify(lg.url, second.body.access_token)).status).toBe(401);
    expect((await verify(lg.url, first.access)).status).toBe(401);
    // Another sign-in of the same user is untouched.
    const other = await login(lg.url, "admin", ADMIN_PASSWORD);
    expect((await verify(lg.url, other.access)).status).toBe(200);
  });

  it("refuses a refresh token issued to another client", async () => {
    const pair = await login(lg.url, "admin", ADMIN_PASSWORD);
    const res = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: pair.refresh }, { id: "gibench", secret: "" });
    expect(res.body.error).toBe("invalid_grant");
  });
});

describe("POST /verify and token checks on RPC", () => {
  let lg: TestLogger;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
  });
  afterAll(() => lg.stop());

  it("describes the token's user", async () => {
    const { access } = await login(lg.url, "admin", ADMIN_PASSWORD);
    const res = await verify(lg.url, access);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: 1, username: "admin", must_change_password: false });
    expect(res.body.permissions).toContain("ManageGlobalSettings");
    expect(res.body.permissions).toHaveLength(17);
  });

  it("answers 401 invalid_token without or with a bad token", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const res = await verify(lg.url, token);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_token");
    }
  });

  it("serves AdminAPI.LoginRequired without a token", async () => {
    const res = await rpc(lg.url, "AdminAPI.LoginRequired");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ LoginRequired: true, ReturnState: { Value: 0, Description: "OK" } });
  });

  it("answers 401 on a protected call without or with a bad token", async () => {
    const none = await rpc(lg.url, `${API}.GetUsers`, {});
    expect(none.status).toBe(401);
    expect(none.body.ReturnState).toEqual({ Value: -3, Description: "Authentication required" });
    const bad = await rpc(lg.url, `${API}.GetUsers`, {}, "forged");
    expect(bad.status).toBe(401);
    // A refresh token is not an access token.
    const { refresh } = await login(lg.url, "admin", ADMIN_PASSWORD);
    expect((await rpc(lg.url, `${API}.GetUsers`, {}, refresh)).status).toBe(401);
  });
});

describe("token lifetimes", () => {
  it("answers 401 Token expired once the access token is past its TTL", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 0.3 });
    try {
      const { access } = await login(lg.url, "admin", ADMIN_PASSWORD);
      expect((await rpc(lg.url, `${API}.GetUsers`, {}, access)).status).toBe(200);
      await sleep(450);
      const res = await rpc(lg.url, `${API}.GetUsers`, {}, access);
      expect(res.status).toBe(401);
      expect(res.body.ReturnState).toEqual({ Value: -3, Description: "Token expired" });
      expect((await verify(lg.url, access)).status).toBe(401);
    } finally {
      await lg.stop();
    }
  });

  it("refuses an expired refresh token", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, refreshTtlSec: 0.3 });
    try {
      const { refresh } = await login(lg.url, "admin", ADMIN_PASSWORD);
      await sleep(450);
      const res = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: refresh });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    } finally {
      await lg.stop();
    }
  });
});

describe("AdminAPI.Login and AdminAPI.RefreshToken", () => {
  let lg: TestLogger;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
  });
  afterAll(() => lg.stop());

  it("logs in with a known client and refuses wrong credentials with -14", async () => {
    const ok = await rpc(lg.url, "AdminAPI.Login", { ClientID: "gibench", Username: "Admin", Password: ADMIN_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ExpiresIn: 900, ReturnState: { Value: 0 } });
    expect((await verify(lg.url, ok.body.AccessToken)).status).toBe(200);

    const wrong = await rpc(lg.url, "AdminAPI.Login", { ClientID: "gibench", Username: "admin", Password: "nope-nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.ReturnState.Value).toBe(-14);

    const client = await rpc(lg.url, "AdminAPI.Login", { ClientID: "who", Username: "admin", Password: ADMIN_PASSWORD });
    expect(client.status).toBe(401);
    expect(client.body.AccessToken).toBeUndefined();
  });

  it("rotates with RefreshToken and rejects reuse", async () => {
    const first = await rpc(lg.url, "AdminAPI.Login", { ClientID: CLIENT.id, Username: "admin", Password: ADMIN_PASSWORD });
    const second = await rpc(lg.url, "AdminAPI.RefreshToken", { ClientID: CLIENT.id, RefreshToken: first.body.RefreshToken });
    expect(second.status).toBe(200);
    expect(second.body.RefreshToken).not.toBe(first.body.RefreshToken);
    const reuse = await rpc(lg.url, "AdminAPI.RefreshToken", { ClientID: CLIENT.id, RefreshToken: first.body.RefreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body.ReturnState.Value).toBe(-3);
    expect((await verify(lg.url, second.body.AccessToken)).status).toBe(401);
  });
});
