import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, addUser, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Dashboard history (issue 28): every save keeps a version with its author and time;
// ListDashboardVersions, GetDashboard {Version}, RestoreDashboardVersion.

const content = (title: string) => ({ Columns: 12, RowHeight: 80, Range: "1h", Refresh: "30s", Widgets: [{ ID: "c1", Type: "chart", Title: title, X: 0, Y: 0, W: 6, H: 3, Variables: [], Options: {} }] });

describe("WebUIAPI dashboard versions", () => {
  let lg: TestLogger;
  let admin: string;
  let operator: string;
  let viewer: string;

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    operator = (await addUser(lg.url, admin, "olga", "Operator")).token;
    viewer = (await addUser(lg.url, admin, "vera", "Viewer")).token;
  });
  afterAll(() => lg.stop());

  const save = (Dashboard: object, token = admin) => rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard }, token);
  const versions = (ID: string, token = viewer) => rpc(lg.url, "WebUIAPI.ListDashboardVersions", { ID }, token);

  it("keeps a version per save, with its author, newest first", async () => {
    const { body } = await save({ Name: "Line 1", Content: content("A") });
    await save({ ID: body.ID, Name: "Line 1", Content: content("B") }, operator);
    await save({ ID: body.ID, Name: "Line one", Content: content("B") });
    const got = await versions(body.ID);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ ID: body.ID, Current: 3, Kept: 100 });
    expect(got.body.Versions.map((v: { Version: number; Author: string; Name: string }) => [v.Version, v.Author, v.Name])).toEqual([
      [3, "admin", "Line one"],
      [2, "olga", "Line 1"],
      [1, "admin", "Line 1"],
    ]);
    expect(got.body.Versions[0].Updated).toMatch(/^\d{4}-\d\d-\d\dT/);
    // An old version as it was; the current one names its author too.
    const v1 = await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: body.ID, Version: 1 }, viewer);
    expect(v1.body.Dashboard).toMatchObject({ ID: body.ID, Name: "Line 1", Version: 1, Author: "admin", Content: { Widgets: [{ Title: "A" }] } });
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: body.ID }, viewer)).body.Dashboard).toMatchObject({ Version: 3, Author: "admin", Name: "Line one" });
    const gone = await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: body.ID, Version: 9 }, viewer);
    expect(gone.status).toBe(404);
    expect(gone.body.ReturnState).toMatchObject({ Code: "versionNotKept", Args: { version: 9 } });
  });

  it("restores a version as a new one, audited; a stale CurrentVersion is a 409", async () => {
    const { body } = await save({ Name: "Restorable", Content: content("first") });
    await save({ ID: body.ID, Name: "Renamed", Content: content("second") });
    expect((await rpc(lg.url, "WebUIAPI.RestoreDashboardVersion", { ID: body.ID, Version: 1 }, viewer)).status).toBe(403);
    const stale = await rpc(lg.url, "WebUIAPI.RestoreDashboardVersion", { ID: body.ID, Version: 1, CurrentVersion: 1 }, operator);
    expect(stale.status).toBe(409);
    expect(stale.body.ReturnState.Code).toBe("stale");
    const restored = await rpc(lg.url, "WebUIAPI.RestoreDashboardVersion", { ID: body.ID, Version: 1, CurrentVersion: 2 }, operator);
    expect(restored.body).toMatchObject({ ID: body.ID, Version: 3 });
    const now = (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: body.ID }, admin)).body.Dashboard;
    expect(now).toMatchObject({ Name: "Restorable", Version: 3, Author: "olga", Content: { Widgets: [{ Title: "first" }] } });
    // Nothing of the history is lost, and restoring what is already current changes nothing.
    expect((await versions(body.ID)).body.Versions.map((v: { Version: number }) => v.Version)).toEqual([3, 2, 1]);
    expect((await rpc(lg.url, "WebUIAPI.RestoreDashboardVersion", { ID: body.ID, Version: 1 }, operator)).body.Version).toBe(3);
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "olga" }, Limit: 5 }, admin)).body;
    expect(Messages.map((m: { Text: string }) => m.Text)).toContain("Restored dashboard Renamed (now Restorable) to version 1 (as version 3)");
  });

  it("keeps the newest 100 versions and forgets a removed dashboard's", async () => {
    const { body } = await save({ Name: "Busy", Content: content("v1") });
    for (let v = 2; v <= 103; v++) await save({ ID: body.ID, Name: "Busy", Content: content(`v${v}`) });
    const kept = (await versions(body.ID)).body.Versions.map((v: { Version: number }) => v.Version);
    expect(kept).toHaveLength(100);
    expect(kept[0]).toBe(103);
    expect(kept.at(-1)).toBe(4);
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: body.ID, Version: 3 }, admin)).status).toBe(404);
    await rpc(lg.url, "WebUIAPI.RemoveDashboard", { ID: body.ID }, admin);
    expect((await versions(body.ID)).status).toBe(404);
  });
});

describe("Refusal codes", () => {
  let lg: TestLogger;
  let admin: string;

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("carry a Code and Args beside the English Description; other answers keep the old ReturnState", async () => {
    const self = await rpc(lg.url, "GI.system/UserManagementAPI.RemoveUser", { ID: 1 }, admin);
    expect(self.status).toBe(400);
    expect(self.body.ReturnState).toEqual({ Value: -3, Description: "You cannot remove your own account", Code: "ownAccount", Args: {} });
    const taken = await rpc(lg.url, "GI.system/UserManagementAPI.AddUser", { User: { Username: "ADMIN", Role: 1 }, Password: "some-pass-123" }, admin);
    expect(taken.body.ReturnState).toMatchObject({ Description: "The username ADMIN is already taken", Code: "usernameTaken", Args: { name: "ADMIN" } });
    const builtIn = await rpc(lg.url, "GI.system/UserManagementAPI.RemoveRole", { ID: 1 }, admin);
    expect(builtIn.body.ReturnState).toMatchObject({ Code: "builtInRemove", Args: { name: "Administrator" } });
    expect((await rpc(lg.url, "AdminAPI.LoginRequired", {})).body.ReturnState).toEqual({ Value: 0, Description: "OK" });
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: "nope" }, admin)).body.ReturnState).toEqual({ Value: -4, Description: "Dashboard nope not found" });
  });
});
