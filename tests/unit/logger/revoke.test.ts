import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, CLIENT, login, start, tokenRequest, verify, type TestLogger } from "./helpers";

let lg: TestLogger;
beforeAll(async () => {
  lg = await start({ adminPassword: ADMIN_PASSWORD });
});
afterAll(() => lg.stop());

function revoke(form: Record<string, string>, client: { id: string; secret: string } | null = CLIENT) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (client) headers.Authorization = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;
  return fetch(`${lg.url}/revoke`, { method: "POST", headers, body: new URLSearchParams(form).toString() });
}

describe("POST /revoke (RFC 7009)", () => {
  it("revokes the whole sign-in given its refresh token", async () => {
    const pair = await login(lg.url, "admin", ADMIN_PASSWORD);
    expect((await verify(lg.url, pair.access)).status).toBe(200);
    expect((await revoke({ token: pair.refresh })).status).toBe(200);
    expect((await verify(lg.url, pair.access)).status).toBe(401);
    const refreshed = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: pair.refresh });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe("invalid_grant");
  });

  it("leaves other sign-ins of the same user alone", async () => {
    const a = await login(lg.url, "admin", ADMIN_PASSWORD);
    const b = await login(lg.url, "admin", ADMIN_PASSWORD);
    await revoke({ token: a.access });
    expect((await verify(lg.url, a.access)).status).toBe(401);
    expect((await verify(lg.url, b.access)).status).toBe(200);
  });

  it("answers 200 for unknown tokens, 400 without a token, 401 for a bad client", async () => {
    expect((await revoke({ token: "unknown-token" })).status).toBe(200);
    expect((await revoke({})).status).toBe(400);
    expect((await revoke({ token: "x" }, { id: CLIENT.id, secret: "wrong" })).status).toBe(401);
    const pair = await login(lg.url, "admin", ADMIN_PASSWORD);
    // Another client cannot revoke the console's tokens.
    expect((await revoke({ token: pair.refresh }, { id: "gibench", secret: "" })).status).toBe(200);
    expect((await verify(lg.url, pair.access)).status).toBe(200);
  });
});
