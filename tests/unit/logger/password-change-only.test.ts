import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, API, CLIENT, login, rpc, start, tokenRequest, verify } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// The token of a user who must change the password is good only for changing it (issue 14):
// everything else answers 403 with a Description that says so.

const REQUIRED = /^Password change required: this account must choose a new password \(UserManagementAPI\.ChangePassword\)/;

describe("tokens of a user who must change the password", () => {
  let lg: TestLogger;
  let admin: string;
  let flagged: { access: string; refresh: string };
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 100 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const added = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "fresh", Role: 1 }, Password: "temporary-pass-1" }, admin);
    expect(added.status).toBe(200);
    flagged = await login(lg.url, "fresh", "temporary-pass-1");
  });
  afterAll(() => lg.stop());

  it("refuses every RPC that needs a token with 403 and a clear Description", async () => {
    const calls: Array<[string, object]> = [
      [`${API}.GetUser`, { ID: 2 }],
      [`${API}.GetUsers`, {}],
      [`${API}.GetPermissions`, {}],
      ["ConfigAPI.GetGlobalSettings", {}],
      ["WebUIAPI.List", {}],
      ["GI.system/MessagingAPI.GetMessages", {}],
      ["GI.system/SettingsManagementAPI.GetSetting", { Key: "Other" }],
      [`${API}.SetUser`, { User: { ID: 2, Theme: "dark" } }],
    ];
    for (const [method, params] of calls) {
      const res = await rpc(lg.url, method, params, flagged.access);
      expect(res.status, method).toBe(403);
      expect(res.body.ReturnState.Value, method).toBe(-3);
      expect(res.body.ReturnState.Description, method).toMatch(REQUIRED);
    }
  });

  it("refuses the REST data API likewise", async () => {
    for (const path of ["/online/structure/variables", "/history/structure/sources", "/files/list"]) {
      const res = await fetch(`${lg.url}${path}`, { headers: { Authorization: `Bearer ${flagged.access}` } });
      expect(res.status, path).toBe(403);
      const body = (await res.json()) as { Success: boolean; ReturnState: { Description: string } };
      expect(body.Success).toBe(false);
      expect(body.ReturnState.Description).toMatch(REQUIRED);
    }
  });

  it("still answers public calls, /verify, refresh and the password change", async () => {
    expect((await rpc(lg.url, "AdminAPI.LoginRequired", {}, flagged.access)).status).toBe(200);
    expect((await rpc(lg.url, "system.getVersionInfo", {}, flagged.access)).status).toBe(200);
    expect((await rpc(lg.url, "GI.system/SettingsManagementAPI.GetSetting", { Key: "WebUI" }, flagged.access)).status).toBe(200);
    const who = await verify(lg.url, flagged.access);
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ username: "fresh", must_change_password: true });

    const refreshed = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: flagged.refresh });
    expect(refreshed.status).toBe(200);
    const access = refreshed.body.access_token as string;
    expect((await rpc(lg.url, `${API}.GetUser`, { ID: 2 }, access)).status).toBe(403);

    const changed = await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: "temporary-pass-1", NewPassword: "my-own-pass-1" }, access);
    expect(changed.status).toBe(200);
    // The same token is good for everything its role allows now.
    expect((await rpc(lg.url, `${API}.GetUser`, { ID: 2 }, access)).status).toBe(200);
    expect((await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${access}` } })).status).toBe(200);
  });

  it("lets the flagged user sign out (revoke)", async () => {
    await rpc(lg.url, `${API}.SetUser`, { User: { ID: 2 }, Password: "another-temp-1" }, admin);
    const pair = await login(lg.url, "fresh", "another-temp-1");
    expect((await rpc(lg.url, "WebUIAPI.List", {}, pair.access)).status).toBe(403);
    const res = await fetch(`${lg.url}/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}` },
      body: new URLSearchParams({ token: pair.refresh }).toString(),
    });
    expect(res.status).toBe(200);
    expect((await verify(lg.url, pair.access)).status).toBe(401);
  });

  it("closes the live WebSocket to such a token", async () => {
    await rpc(lg.url, `${API}.SetUser`, { User: { ID: 2 }, Password: "third-temp-12" }, admin);
    const pair = await login(lg.url, "fresh", "third-temp-12");
    const ws = new WebSocket(`${lg.url.replace("http", "ws")}/ws?apitoken=${pair.access}`);
    const closed = await new Promise<number>((resolve) => {
      ws.addEventListener("close", (e) => resolve(e.code));
      setTimeout(() => resolve(0), 3000); // still open: the token was accepted
    });
    expect(closed).toBeGreaterThan(1000);
  });
});
