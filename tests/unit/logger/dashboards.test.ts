import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, rpc, start, startWithAdminAndViewer } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

const content = (widgets: object[] = []) => ({ Columns: 12, RowHeight: 80, Range: "1h", Refresh: "30s", Widgets: widgets });
const chart = { ID: "c1", Type: "chart", Title: "Temperatures", X: 0, Y: 0, W: 6, H: 3, Variables: ["v1", "v2"], Options: {} };

describe("WebUIAPI dashboards", () => {
  let lg: TestLogger;
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    ({ lg, admin, viewer } = await startWithAdminAndViewer());
  });
  afterAll(() => lg.stop());

  const save = (Dashboard: object, token = admin) => rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard }, token);

  it("starts without dashboards when the simulator is off", async () => {
    expect((await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List).toEqual([]);
  });

  it("creates, reads, lists and makes the first one the default", async () => {
    const added = await save({ Name: "Line 1", Content: content([chart]) });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ ID: expect.stringMatching(/^[0-9a-f-]{36}$/), Version: 1 });
    const got = await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: added.body.ID.toUpperCase() }, viewer);
    expect(got.status).toBe(200);
    expect(got.body.Dashboard).toMatchObject({ ID: added.body.ID, Name: "Line 1", IsDefault: true, Version: 1, Content: { Columns: 12, Widgets: [chart] } });
    const second = await save({ Name: "Line 2", Content: { Widgets: [] } });
    const list = (await rpc(lg.url, "WebUIAPI.List", {}, viewer)).body.List;
    expect(list).toEqual([
      { ID: added.body.ID, Name: "Line 1", IsDefault: true },
      { ID: second.body.ID, Name: "Line 2", IsDefault: false },
    ]);
    // Defaults fill what a client leaves out.
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: second.body.ID }, admin)).body.Dashboard.Content).toEqual(content());
  });

  it("updates with a Version check: a stale Version is a 409 and changes nothing", async () => {
    const { body } = await save({ Name: "Versioned", Content: content() });
    const first = await save({ ID: body.ID, Version: 1, Name: "Versioned", Content: content([chart]) });
    expect(first.body).toMatchObject({ ID: body.ID, Version: 2 });
    const stale = await save({ ID: body.ID, Version: 1, Name: "Overwrite", Content: content() });
    expect(stale.status).toBe(409);
    expect(stale.body.ReturnState).toMatchObject({ Value: -3, Description: expect.stringMatching(/changed by someone else/) });
    const now = (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: body.ID }, admin)).body.Dashboard;
    expect(now).toMatchObject({ Name: "Versioned", Version: 2 });
    // Saving the same thing again is no change: no new Version.
    expect((await save({ ID: body.ID, Version: 2, Name: "Versioned", Content: content([chart]) })).body.Version).toBe(2);
  });

  it("validates the content", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ Name: "", Content: content() }, /Dashboard\.Name/],
      [{ Name: "x", Content: content([{ ...chart, Type: "pie" }]) }, /Widgets\.0\.Type/],
      [{ Name: "x", Content: content([{ ...chart, X: 8, W: 6 }]) }, /reaches past column 12/],
      [{ Name: "x", Content: content([chart, chart]) }, /used twice/],
      [{ Name: "x", Content: content([{ ...chart, Variables: Array(9).fill("v") }]) }, /Variables/],
      [{ Name: "x", Content: { ...content(), Refresh: "2s" } }, /Refresh/],
      [{ Name: "x", Content: content([{ ...chart, Options: { Thresholds: [{ Value: 1, Color: "url(javascript:x)" }] } }]) }, /Color/],
    ];
    for (const [dashboard, message] of cases) {
      const res = await save(dashboard);
      expect(res.status, JSON.stringify(dashboard)).toBe(400);
      expect(res.body.ReturnState.Value).toBe(-6);
      expect(res.body.ReturnState.Description).toMatch(message);
    }
  });

  it("accepts an alarm list with or without variables, and checks its options", async () => {
    const alarms = { ID: "a1", Type: "alarms", Title: "", X: 0, Y: 3, W: 6, H: 4, Variables: [], Options: { OnlyUnacknowledged: true, MinSeverity: "high", MaxRows: 20 } };
    const filtered = { ...alarms, ID: "a2", X: 6, Variables: ["v1"], Options: {} };
    const res = await save({ Name: "Alarm wall", Content: content([chart, alarms, filtered]) });
    expect(res.status).toBe(200);
    const stored = (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: res.body.ID }, viewer)).body.Dashboard.Content.Widgets;
    expect(stored).toEqual([chart, alarms, filtered]);
    const cases: Array<[object, RegExp]> = [
      [{ MinSeverity: "urgent" }, /Widgets\.0\.Options\.MinSeverity/],
      [{ MaxRows: 0 }, /Widgets\.0\.Options\.MaxRows/],
      [{ MaxRows: 101 }, /MaxRows/],
      [{ OnlyUnacknowledged: "yes" }, /OnlyUnacknowledged/],
    ];
    for (const [Options, message] of cases) {
      const bad = await save({ Name: "x", Content: content([{ ...alarms, Options }]) });
      expect(bad.status, JSON.stringify(Options)).toBe(400);
      expect(bad.body.ReturnState.Description).toMatch(message);
    }
  });

  it("sets the default, and a removed default hands over to the first remaining one", async () => {
    const a = (await save({ Name: "Alpha", Content: content() })).body.ID;
    expect((await rpc(lg.url, "WebUIAPI.SetDefaultDashboard", { ID: a }, admin)).status).toBe(200);
    let list = (await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List as Array<{ ID: string; IsDefault: boolean }>;
    expect(list.filter((d) => d.IsDefault).map((d) => d.ID)).toEqual([a]);
    expect((await rpc(lg.url, "WebUIAPI.RemoveDashboard", { ID: a }, admin)).status).toBe(200);
    list = (await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List;
    expect(list.filter((d) => d.IsDefault)).toHaveLength(1);
    expect(list.find((d) => d.ID === a)).toBeUndefined();
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: a }, admin)).status).toBe(404);
    expect((await rpc(lg.url, "WebUIAPI.RemoveDashboard", { ID: a }, admin)).status).toBe(404);
    expect((await save({ ID: a, Name: "Ghost", Content: content() })).status).toBe(404);
  });

  it("needs ViewDashboards to read and ManageDashboards to write", async () => {
    const id = (await save({ Name: "Guarded", Content: content() })).body.ID;
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: id })).status).toBe(401);
    expect((await save({ Name: "Nope", Content: content() }, viewer)).status).toBe(403);
    expect((await rpc(lg.url, "WebUIAPI.RemoveDashboard", { ID: id }, viewer)).status).toBe(403);
    expect((await rpc(lg.url, "WebUIAPI.SetDefaultDashboard", { ID: id }, viewer)).status).toBe(403);
    const noDashboards = await rpc(lg.url, "GI.system/UserManagementAPI.AddRole", { Role: { Name: "Blind", Permissions: ["ViewLogs"] } }, admin);
    const blind = await rpc(lg.url, "GI.system/UserManagementAPI.AddUser", { User: { Username: "blind", Role: noDashboards.body.ID }, Password: "blind-pass-1" }, admin);
    expect(blind.status).toBe(200);
    const token = (await login(lg.url, "blind", "blind-pass-1")).access;
    expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: id }, token)).status).toBe(403);
  });

  it("audits every change", async () => {
    const { body } = await save({ Name: "Audited", Content: content() });
    await save({ ID: body.ID, Name: "Audited 2", Content: content([chart]) });
    await rpc(lg.url, "WebUIAPI.SetDefaultDashboard", { ID: body.ID }, admin);
    await rpc(lg.url, "WebUIAPI.RemoveDashboard", { ID: body.ID }, admin);
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 4 }, admin)).body;
    expect(Messages.map((m: { Text: string }) => m.Text).reverse()).toEqual([
      "Added dashboard Audited",
      "Changed dashboard Audited (now Audited 2): Name, Content",
      "Set default dashboard Audited 2",
      "Removed dashboard Audited 2",
    ]);
  });
});

describe("demo dashboards", () => {
  it("are seeded once for the simulated rig, with its variable ids, and not again after removal", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 7 } });
    const dataDir = lg.dataDir;
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const list = (await rpc(lg.url, "WebUIAPI.List", {}, admin)).body.List as Array<{ ID: string; Name: string; IsDefault: boolean }>;
      expect(list.map((d) => [d.Name, d.IsDefault])).toEqual([
        ["Energy and weather dashboard", false],
        ["Test cell dashboard", true],
      ]);
      const res = await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } });
      const ids = new Set(((await res.json()) as { Data: Array<{ Id: string }> }).Data.map((v) => v.Id));
      for (const d of list) {
        const { Content } = (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: d.ID }, admin)).body.Dashboard;
        const vars = Content.Widgets.flatMap((w: { Variables: string[] }) => w.Variables);
        expect(vars.length).toBeGreaterThan(4);
        for (const v of vars) expect(ids.has(v), v).toBe(true);
      }
      for (const d of list) await rpc(lg.url, "WebUIAPI.RemoveDashboard", { ID: d.ID }, admin);
      await lg.close();
      const again = await start({ dataDir, simulator: { seed: 7 } });
      try {
        const token = (await login(again.url, "admin", ADMIN_PASSWORD)).access;
        expect((await rpc(again.url, "WebUIAPI.List", {}, token)).body.List).toEqual([]);
      } finally {
        await again.close();
      }
    } finally {
      await lg.stop();
    }
  });
});
