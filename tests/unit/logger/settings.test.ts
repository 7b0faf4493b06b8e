import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, ADMIN_PASSWORD, API, login, rpc, start, startWithAdmin, verify } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

const SETTINGS = "GI.system/SettingsManagementAPI";

describe("global settings", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterAll(() => lg.stop());

  it("starts from the seeded Config", async () => {
    const res = await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {}, admin);
    expect(res.status).toBe(200);
    expect(res.body.Config).toEqual({
      DefaultStartPage: "device",
      LoginRequired: true,
      Features: ["dashboard", "dashboardManager", "analytics", "export", "import", "devices", "structView", "variableOverview", "measurementUI", "versionInfo", "settings", "vncview", "traceLog", "canscanner", "changelogUI", "help"],
      DefaultLanguage: "en",
      DefaultTimezone: "UTC",
    });
    expect((await rpc(lg.url, "AdminAPI.GetGlobalSettings", {}, admin)).body.Config).toEqual(res.body.Config);
    expect((await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {})).status).toBe(401);
  });

  it("merges a partial Config and audits it", async () => {
    const set = await rpc(lg.url, "ConfigAPI.SetGlobalSettings", { Config: { DefaultStartPage: "dashboard", DefaultTimezone: "Europe/Rome" } }, admin);
    expect(set.status).toBe(200);
    const config = (await rpc(lg.url, "AdminAPI.GetGlobalSettings", {}, admin)).body.Config;
    expect(config).toMatchObject({ DefaultStartPage: "dashboard", DefaultTimezone: "Europe/Rome", LoginRequired: true, DefaultLanguage: "en" });
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "admin" } }, admin);
    expect(audit.body.Messages[0].Text).toBe("Changed global settings: DefaultStartPage, DefaultTimezone");
    // Current IANA names that Intl only knows as aliases are accepted too.
    expect((await rpc(lg.url, "ConfigAPI.SetGlobalSettings", { Config: { DefaultTimezone: "Asia/Kolkata" } }, admin)).status).toBe(200);
  });

  it("validates the Config fields", async () => {
    const cases: Array<[object, string]> = [
      [{ DefaultTimezone: "Mars/Base" }, "Config.DefaultTimezone"],
      [{ DefaultTimezone: "+01:00" }, "Config.DefaultTimezone"],
      [{ DefaultLanguage: "de" }, "Config.DefaultLanguage"],
      [{ DefaultStartPage: "../etc" }, "Config.DefaultStartPage"],
      [{ DefaultStartPage: "" }, "Config.DefaultStartPage"],
      [{ LoginRequired: "no" }, "Config.LoginRequired"],
      [{ Features: "all" }, "Config.Features"],
      [{ JupyterUrl: "javascript:alert(1)" }, "Config.JupyterUrl"],
      [{ JupyterUrl: "ftp://example.com" }, "Config.JupyterUrl"],
      [{ JupyterUrl: `http://example.com/${"x".repeat(500)}` }, "Config.JupyterUrl"],
      [{ MapTileUrl: "http://tiles.example/{z}/{x}.png" }, "Config.MapTileUrl"],
      [{ MapTileUrl: "file:///tiles/{z}/{x}/{y}.png" }, "Config.MapTileUrl"],
      [{ MapTileAttribution: "x".repeat(301) }, "Config.MapTileAttribution"],
    ];
    for (const [Config, field] of cases) {
      const res = await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config }, admin);
      expect(res.status).toBe(400);
      expect(res.body.ReturnState.Description).toContain(`Invalid parameter ${field}`);
    }
  });

  it("stores a Jupyter address and clears it with an empty one", async () => {
    for (const JupyterUrl of ["http://127.0.0.1:8888/lab", ""]) {
      expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { JupyterUrl } }, admin)).status).toBe(200);
      expect((await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {}, admin)).body.Config.JupyterUrl).toBe(JupyterUrl);
    }
  });

  it("stores a map tile URL template and clears it with an empty one", async () => {
    for (const MapTileUrl of ["https://tiles.example/{z}/{x}/{y}.png", ""]) {
      expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { MapTileUrl, MapTileAttribution: "© Example" } }, admin)).status).toBe(200);
      expect((await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {}, admin)).body.Config).toMatchObject({ MapTileUrl, MapTileAttribution: "© Example" });
    }
  });

  it("needs ManageGlobalSettings to change settings", async () => {
    const op = await addUser(lg.url, admin, "olga", "Operator");
    const res = await rpc(lg.url, "ConfigAPI.SetGlobalSettings", { Config: { DefaultLanguage: "it" } }, op.token);
    expect(res.status).toBe(403);
    expect(res.body.ReturnState.Description).toBe("Permission denied: ManageGlobalSettings required");
    expect((await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {}, op.token)).status).toBe(200);
  });

  it("answers version information with the service name", async () => {
    const res = await rpc(lg.url, "system.getVersionInfo");
    expect(res.status).toBe(200);
    expect(res.body.Value).toMatchObject({ Name: "Loggia Logger Service", Major: expect.any(Number), Minor: expect.any(Number) });
  });

  it("lists every IANA time zone with its offset, without a token", async () => {
    const res = await rpc(lg.url, "ConfigAPI.ListTimezones", { Representation: "UTC" });
    expect(res.status).toBe(200);
    const list: Array<{ Description: string; Value: string }> = res.body.Timezones.List;
    expect(list.length).toBe(Intl.supportedValuesOf("timeZone").length + 1);
    const rome = list.find((z) => z.Value === "Europe/Rome");
    expect(rome?.Description).toMatch(/^Europe\/Rome \(UTC\+0[12]:00\)$/);
    expect(list.find((z) => z.Value === "UTC")?.Description).toBe("UTC (UTC+00:00)");
    const india = list.find((z) => z.Value === "Asia/Kolkata" || z.Value === "Asia/Calcutta");
    expect(india?.Description).toMatch(/\(UTC\+05:30\)$/);
  });
});

describe("settings store", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterAll(() => lg.stop());

  it("serves WebUI publicly and other keys only with a token", async () => {
    const empty = await rpc(lg.url, `${SETTINGS}.GetSetting`, { ID: -1, Key: "WebUI" });
    expect(empty.status).toBe(200);
    expect(empty.body.Settings).toEqual([]);
    const value = JSON.stringify({ styling: { logo: "default_image", mainColor: "#112233" } });
    const set = await rpc(lg.url, `${SETTINGS}.SetSetting`, { ID: -1, Key: "WebUI", Value: value }, admin);
    expect(set.status).toBe(200);
    const read = await rpc(lg.url, `${SETTINGS}.GetSetting`, { ID: -1, Key: "WebUI" });
    expect(read.body.Settings).toEqual([{ ID: set.body.ID, Key: "WebUI", Value: value }]);

    await rpc(lg.url, `${SETTINGS}.SetSetting`, { ID: -1, Key: "Secret", Value: "{}" }, admin);
    expect((await rpc(lg.url, `${SETTINGS}.GetSetting`, { ID: -1, Key: "Secret" })).status).toBe(401);
    expect((await rpc(lg.url, `${SETTINGS}.GetSetting`, { ID: -1, Key: "" })).status).toBe(401);
    const all = await rpc(lg.url, `${SETTINGS}.GetSetting`, { ID: -1, Key: "" }, admin);
    expect(all.body.Settings.map((s: { Key: string }) => s.Key)).toEqual(["WebUI", "Secret"]);
    // Asking for another setting's ID under the public key returns nothing.
    const other = all.body.Settings[1].ID;
    expect((await rpc(lg.url, `${SETTINGS}.GetSetting`, { ID: other, Key: "WebUI" })).body.Settings).toEqual([]);
  });

  it("upserts by Key and rejects a Value that is not JSON text", async () => {
    const a = await rpc(lg.url, `${SETTINGS}.SetSetting`, { ID: 0, Key: "Layout", Value: '{"a":1}' }, admin);
    const b = await rpc(lg.url, `${SETTINGS}.SetSetting`, { ID: -1, Key: "Layout", Value: '{"a":2}' }, admin);
    expect(b.body.ID).toBe(a.body.ID);
    const bad = await rpc(lg.url, `${SETTINGS}.SetSetting`, { ID: -1, Key: "Layout", Value: "{oops" }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toContain("Invalid parameter Value");
    expect((await rpc(lg.url, `${SETTINGS}.SetSetting`, { ID: -1, Key: "Layout", Value: { a: 3 } }, admin)).status).toBe(400);
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 1 }, admin);
    expect(audit.body.Messages[0].Text).toBe("Set setting Layout");
  });
});

describe("no-login mode", () => {
  it("ignores tokens and allows everything once LoginRequired is false", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD });
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const set = await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, admin);
      expect(set.status).toBe(200);
      expect((await rpc(lg.url, "AdminAPI.LoginRequired")).body.LoginRequired).toBe(false);
      expect((await rpc(lg.url, `${API}.GetUsers`, {})).status).toBe(200);
      expect((await rpc(lg.url, `${API}.GetUsers`, {}, "None")).status).toBe(200);
      expect((await rpc(lg.url, `${API}.GetUsers`, {}, "garbage-token")).status).toBe(200);
      expect((await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {})).body.Config.LoginRequired).toBe(false);
      // /verify keeps answering for tokens only.
      expect((await verify(lg.url)).status).toBe(401);
      expect((await verify(lg.url, admin)).status).toBe(200);

      const back = await rpc(lg.url, "ConfigAPI.SetGlobalSettings", { Config: { LoginRequired: true } });
      expect(back.status).toBe(200);
      const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 1 }, admin);
      expect(audit.body.Messages[0]).toMatchObject({ Sender: "anonymous", Text: "Changed global settings: LoginRequired" });
      expect((await rpc(lg.url, `${API}.GetUsers`, {})).status).toBe(401);
    } finally {
      await lg.stop();
    }
  });
});

describe("controller mode", () => {
  it("hides ConfigAPI settings, keeps AdminAPI and drops Service from the name", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, controller: true });
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const cfg = await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {}, admin);
      expect(cfg.status).toBe(404);
      expect(cfg.body.ReturnState).toEqual({ Value: -4, Description: "Not available on a controller" });
      expect((await rpc(lg.url, "ConfigAPI.SetGlobalSettings", { Config: { DefaultLanguage: "it" } }, admin)).status).toBe(404);
      expect((await rpc(lg.url, "AdminAPI.GetGlobalSettings", {}, admin)).body.Config.DefaultStartPage).toBe("device");
      expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { DefaultLanguage: "it" } }, admin)).status).toBe(200);
      const name: string = (await rpc(lg.url, "system.getVersionInfo")).body.Value.Name;
      expect(name).toBe("Loggia Logger Controller");
      expect(name).not.toContain("Service");
    } finally {
      await lg.stop();
    }
  });
});
