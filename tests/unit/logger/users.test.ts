import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, ADMIN_PASSWORD, API, login, rpc, start, startWithAdmin, tokenRequest, verify } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

const roleId = async (base: string, token: string, name: string): Promise<number> =>
  (await rpc(base, `${API}.GetRoles`, {}, token)).body.Roles.find((r: { Name: string }) => r.Name === name).ID;

describe("first-start seeding", () => {
  it("seeds admin with a generated password and MustChangePassword when no admin password is given", async () => {
    const lg = await start();
    const other = await start();
    try {
      // Never a published default: not "admin", not the same twice, and policy-conforming.
      const initial = lg.initialAdminPassword!;
      expect(initial).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(other.initialAdminPassword).not.toBe(initial);
      expect((await tokenRequest(lg.url, { grant_type: "password", username: "admin", password: "admin" })).status).toBe(400);
      const first = await login(lg.url, "admin", initial);
      expect((await verify(lg.url, first.access)).body.must_change_password).toBe(true);
      // That token is good only for the password change (issue 14); the seed is read after it.
      expect((await rpc(lg.url, `${API}.GetUser`, { ID: 1 }, first.access)).status).toBe(403);
      expect((await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: initial, NewPassword: "seeded-admin-1" }, first.access)).status).toBe(200);
      const { access } = await login(lg.url, "admin", "seeded-admin-1");
      const me = await rpc(lg.url, `${API}.GetUser`, { ID: 1 }, access);
      expect(me.body.User).toMatchObject({ Username: "admin", EMail: "", MustChangePassword: false });
      const roles = (await rpc(lg.url, `${API}.GetRoles`, {}, access)).body.Roles;
      expect(roles.map((r: { Name: string }) => r.Name)).toEqual(["Administrator", "Operator", "Viewer"]);
      expect(roles[0]).toMatchObject({ BuiltIn: true });
      expect(roles[0].Permissions).toHaveLength(17);
      expect(roles[2].Permissions).toEqual(["ViewStructure", "ViewCockpit", "ViewDashboards", "ViewAnalytics", "ViewDevices"]);
    } finally {
      await lg.stop();
      await other.stop();
    }
  });

  it("seeds the given admin password without MustChangePassword", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD });
    try {
      const { access } = await login(lg.url, "admin", ADMIN_PASSWORD);
      expect((await verify(lg.url, access)).body.must_change_password).toBe(false);
      expect(lg.initialAdminPassword).toBeNull();
      expect((await tokenRequest(lg.url, { grant_type: "password", username: "admin", password: "admin" })).status).toBe(400);
    } finally {
      await lg.stop();
    }
  });

  it("refuses to start with an admin password that breaks the policy", async () => {
    await expect(start({ adminPassword: "short" })).rejects.toThrow(/at least 8/);
  });
});

describe("ChangePassword", () => {
  let lg: TestLogger;
  let token: string;
  /** admin's generated first password. */
  let first: string;
  beforeAll(async () => {
    lg = await start();
    first = lg.initialAdminPassword!;
    token = (await login(lg.url, "admin", first)).access;
  });
  afterAll(() => lg.stop());

  it("refuses a wrong current password, the same password and policy breaks with -14", async () => {
    const cases: Array<[string, string, string]> = [
      ["wrong-old", "new-password-1", "Current password is wrong"],
      [first, "short", "Password must be at least 8 characters"],
      [first, first, "The new password must differ from the current one"],
    ];
    for (const [OldPassword, NewPassword, Description] of cases) {
      const res = await rpc(lg.url, `${API}.ChangePassword`, { OldPassword, NewPassword }, token);
      expect(res.status).toBe(400);
      expect(res.body.ReturnState).toEqual({ Value: -14, Description });
    }
    const sameAsName = await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: first, NewPassword: "ADMIN" }, token);
    expect(sameAsName.body.ReturnState.Value).toBe(-14);
  });

  it("changes the password and clears MustChangePassword", async () => {
    const res = await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: first, NewPassword: "brand-new-pass" }, token);
    expect(res.status).toBe(200);
    expect((await verify(lg.url, token)).body.must_change_password).toBe(false);
    expect((await tokenRequest(lg.url, { grant_type: "password", username: "admin", password: first })).status).toBe(400);
    await login(lg.url, "admin", "brand-new-pass");
  });

  it("needs a token", async () => {
    expect((await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: "a", NewPassword: "b" })).status).toBe(401);
  });
});

describe("user and role rules", () => {
  let lg: TestLogger;
  let admin: string;
  let alice: { id: number; token: string };
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
    alice = await addUser(lg.url, admin, "alice", "Operator", "alice-pass-1");
  });
  afterAll(() => lg.stop());

  it("applies the password policy on AddUser", async () => {
    const res = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "longname", Role: 2 }, Password: "LongName" }, admin);
    expect(res.status).toBe(400);
    expect(res.body.ReturnState).toEqual({ Value: -14, Description: "Password must not equal the username" });
  });

  it("refuses a duplicate username, case-insensitively", async () => {
    const res = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "ALICE", Role: 2 }, Password: "another-pass" }, admin);
    expect(res.status).toBe(400);
    expect(res.body.ReturnState).toEqual({ Value: -3, Description: "The username ALICE is already taken", Code: "usernameTaken", Args: { name: "ALICE" } });
  });

  it("refuses a bad username, an unknown role and an unknown time zone", async () => {
    const bad = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "a b", Role: 2 }, Password: "another-pass" }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toMatch(/^Invalid parameter User.Username:/);
    const role = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "bruno", Role: 99 }, Password: "another-pass" }, admin);
    expect(role.status).toBe(400);
    expect(role.body.ReturnState).toEqual({ Value: -3, Description: "Role 99 does not exist", Code: "roleMissing", Args: { id: 99 } });
    const tz = await rpc(lg.url, `${API}.SetUser`, { User: { ID: alice.id, Timezone: "Mars/Base" } }, admin);
    expect(tz.status).toBe(400);
    expect(tz.body.ReturnState.Description).toMatch(/User.Timezone/);
  });

  it("creates users with MustChangePassword and never returns password fields", async () => {
    // addUser() asks for MustChangePassword false; without the field it is true.
    const added = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "carla", Role: 2 }, Password: "carla-pass-1" }, admin);
    expect((await rpc(lg.url, `${API}.GetUser`, { ID: added.body.ID }, admin)).body.User.MustChangePassword).toBe(true);
    expect((await rpc(lg.url, `${API}.RemoveUser`, { ID: added.body.ID }, admin)).status).toBe(200);
    const res = await rpc(lg.url, `${API}.GetUser`, { ID: alice.id }, admin);
    expect(res.body.User).toEqual({
      ID: alice.id,
      Username: "alice",
      EMail: "",
      Role: await roleId(lg.url, admin, "Operator"),
      Timezone: "",
      TimezoneDiffSec: 0,
      TimezoneUseDST: true,
      Language: "",
      Theme: "light",
      MustChangePassword: false,
      Version: 1,
    });
    const all = JSON.stringify((await rpc(lg.url, `${API}.GetUsers`, {}, admin)).body);
    expect(all).not.toMatch(/Password(Hash|Salt)|alice-pass-1/);
  });

  it("lets users change their own profile fields but nothing else", async () => {
    const own = await rpc(lg.url, `${API}.GetUser`, { ID: alice.id }, alice.token);
    expect(own.status).toBe(200);
    const user = own.body.User;
    const ok = await rpc(
      lg.url,
      `${API}.SetUser`,
      { User: { ...user, EMail: "alice@example.com", Theme: "dark", Timezone: "Europe/Rome", Language: "it" } },
      alice.token,
    );
    expect(ok.status).toBe(200);
    const role = await rpc(lg.url, `${API}.SetUser`, { User: { ID: alice.id, Role: 1 } }, alice.token);
    expect(role.status).toBe(403);
    expect(role.body.ReturnState.Description).toBe("Permission denied: ManageUsers required to change Role");
    const pw = await rpc(lg.url, `${API}.SetUser`, { User: { ID: alice.id }, Password: "sneaky-pass-1" }, alice.token);
    expect(pw.status).toBe(403);
    expect((await rpc(lg.url, `${API}.GetUser`, { ID: 1 }, alice.token)).status).toBe(403);
    expect((await rpc(lg.url, `${API}.SetUser`, { User: { ID: 1, Theme: "dark" } }, alice.token)).status).toBe(403);
    const after = (await rpc(lg.url, `${API}.GetUser`, { ID: alice.id }, alice.token)).body.User;
    expect(after).toMatchObject({ EMail: "alice@example.com", Theme: "dark", Timezone: "Europe/Rome", Version: 2 });
  });

  it("answers 409 to a SetUser with a stale Version", async () => {
    const current = (await rpc(lg.url, `${API}.GetUser`, { ID: alice.id }, admin)).body.User;
    const first = await rpc(lg.url, `${API}.SetUser`, { User: { ...current, TimezoneDiffSec: 3600 } }, admin);
    expect(first.status).toBe(200);
    const stale = await rpc(lg.url, `${API}.SetUser`, { User: { ...current, TimezoneDiffSec: 7200 } }, admin);
    expect(stale.status).toBe(409);
    expect(stale.body.ReturnState).toEqual({
      Value: -3,
      Description: "This user was changed by someone else meanwhile; reload and try again",
      Code: "stale",
      Args: {},
    });
  });

  it("marks a password set by an admin as temporary", async () => {
    await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: "alice-pass-1", NewPassword: "alice-pass-2" }, alice.token);
    expect((await verify(lg.url, alice.token)).body.must_change_password).toBe(false);
    const res = await rpc(lg.url, `${API}.SetUser`, { User: { ID: alice.id }, Password: "temp-pass-123" }, admin);
    expect(res.status).toBe(200);
    expect((await verify(lg.url, alice.token)).body.must_change_password).toBe(true);
    await login(lg.url, "alice", "temp-pass-123");
  });

  it("protects the last administrator and the caller's own account", async () => {
    const self = await rpc(lg.url, `${API}.RemoveUser`, { ID: 1 }, admin);
    expect(self.status).toBe(400);
    expect(self.body.ReturnState).toEqual({ Value: -3, Description: "You cannot remove your own account", Code: "ownAccount", Args: {} });

    const managerRole = await rpc(lg.url, `${API}.AddRole`, { Role: { Name: "User managers", Permissions: ["ManageUsers"] } }, admin);
    expect(managerRole.status).toBe(200);
    const mgr = await addUser(lg.url, admin, "mgr", "User managers");
    const remove = await rpc(lg.url, `${API}.RemoveUser`, { ID: 1 }, mgr.token);
    expect(remove.status).toBe(400);
    expect(remove.body.ReturnState.Description).toMatch(/^admin is the last user with the Administrator role/);
    const demote = await rpc(lg.url, `${API}.SetUser`, { User: { ID: 1, Role: await roleId(lg.url, admin, "Viewer") } }, mgr.token);
    expect(demote.status).toBe(400);
    expect(demote.body.ReturnState.Value).toBe(-3);

    // With a second administrator the first one may go.
    const second = await addUser(lg.url, admin, "admin2", "Administrator");
    expect((await rpc(lg.url, `${API}.RemoveUser`, { ID: second.id }, mgr.token)).status).toBe(200);
    expect((await rpc(lg.url, `${API}.RemoveUser`, { ID: mgr.id }, admin)).status).toBe(200);
    expect((await rpc(lg.url, `${API}.RemoveUser`, { ID: 999 }, admin)).status).toBe(404);
    // A removed user's tokens die with it.
    expect((await verify(lg.url, mgr.token)).status).toBe(401);
  });

  it("refuses to remove a role in use or the built-in role, and to weaken the built-in role", async () => {
    const operator = await roleId(lg.url, admin, "Operator");
    await addUser(lg.url, admin, "bob", "Operator");
    const inUse = await rpc(lg.url, `${API}.RemoveRole`, { ID: operator }, admin);
    expect(inUse.status).toBe(400);
    expect(inUse.body.ReturnState).toEqual({ Value: -3, Description: "Role Operator is still held by: alice, bob", Code: "roleHeld", Args: { name: "Operator", users: "alice, bob" } });

    const builtIn = await rpc(lg.url, `${API}.RemoveRole`, { ID: 1 }, admin);
    expect(builtIn.status).toBe(400);
    expect(builtIn.body.ReturnState.Description).toBe("The built-in Administrator role cannot be removed");
    expect((await rpc(lg.url, `${API}.SetRole`, { Role: { ID: 1, Name: "Boss" } }, admin)).status).toBe(400);
    const weaker = await rpc(lg.url, `${API}.SetRole`, { Role: { ID: 1, Permissions: ["ViewLogs"] } }, admin);
    expect(weaker.status).toBe(400);
    expect(weaker.body.ReturnState.Description).toMatch(/must keep every permission/);
    expect((await rpc(lg.url, `${API}.SetRole`, { Role: { ID: 1, Description: "The bosses" } }, admin)).status).toBe(200);
  });

  it("validates role names and permissions", async () => {
    const dup = await rpc(lg.url, `${API}.AddRole`, { Role: { Name: "viewer", Permissions: [] } }, admin);
    expect(dup.status).toBe(400);
    expect(dup.body.ReturnState.Description).toBe("A role named Viewer already exists");
    const empty = await rpc(lg.url, `${API}.AddRole`, { Role: { Name: "  ", Permissions: [] } }, admin);
    expect(empty.status).toBe(400);
    const unknown = await rpc(lg.url, `${API}.AddRole`, { Role: { Name: "Odd", Permissions: ["ViewLogs", "FlyToMoon"] } }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.ReturnState.Description).toBe("Invalid parameter Role.Permissions.1: Unknown permission FlyToMoon");
  });

  it("changes and removes a role, with 409 on a stale Version", async () => {
    const added = await rpc(lg.url, `${API}.AddRole`, { Role: { Name: "Auditors", Permissions: ["ViewLogs"] } }, admin);
    const role = (await rpc(lg.url, `${API}.GetRoles`, {}, admin)).body.Roles.find((r: { ID: number }) => r.ID === added.body.ID);
    expect(role).toMatchObject({ Name: "Auditors", Permissions: ["ViewLogs"], BuiltIn: false, Version: 1 });
    const set = await rpc(lg.url, `${API}.SetRole`, { Role: { ...role, Permissions: ["ViewLogs", "UseExport"] } }, admin);
    expect(set.status).toBe(200);
    expect((await rpc(lg.url, `${API}.SetRole`, { Role: { ...role, Name: "Late" } }, admin)).status).toBe(409);
    expect((await rpc(lg.url, `${API}.RemoveRole`, { ID: role.ID }, admin)).status).toBe(200);
    expect((await rpc(lg.url, `${API}.RemoveRole`, { ID: role.ID }, admin)).status).toBe(404);
  });

  it("lists every permission with a description", async () => {
    // admin's token: alice was given a temporary password above, so hers is good only for ChangePassword now.
    const res = await rpc(lg.url, `${API}.GetPermissions`, {}, admin);
    expect(res.body.Permissions).toHaveLength(17);
    expect(res.body.Permissions[0]).toEqual({ Name: "ViewStructure", Description: expect.any(String) });
    expect(res.body.Permissions.map((p: { Name: string }) => p.Name)).toContain("ManageGlobalSettings");
  });

  it("writes audit messages for changes, never with a password", async () => {
    const res = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 5000 }, admin);
    const texts: string[] = res.body.Messages.map((m: { Text: string }) => m.Text);
    expect(texts).toContain("Added user alice (role Operator)");
    expect(texts).toContain("Changed user alice: EMail, Timezone, Language, Theme");
    expect(texts).toContain("Changed password of alice");
    expect(texts).toContain("Changed user alice: Password");
    expect(texts).toContain("Removed user mgr");
    expect(texts).toContain("Added role Auditors");
    expect(texts).toContain("Changed role Auditors: Permissions");
    const bySelf = res.body.Messages.find((m: { Text: string }) => m.Text === "Changed password of alice");
    expect(bySelf).toMatchObject({ Sender: "alice", Type: "Info", Topic: "Audit" });
    expect(res.body.Messages.find((m: { Text: string }) => m.Text.startsWith("Added user alice")).Sender).toBe("admin");
    const dump = JSON.stringify(res.body);
    for (const secret of [ADMIN_PASSWORD, "alice-pass-1", "alice-pass-2", "temp-pass-123", "user-pass-123"]) {
      expect(dump).not.toContain(secret);
    }
  });
});
