import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, API, login, rpc, start, startWithAdmin } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Names people give (issue 14): control and format characters refused, NFC-normalised before they
// are stored and compared. Passwords at most 1,024 characters.

const INVISIBLE = /Must not contain control or invisible formatting characters/;
// NUL, a zero-width space, a right-to-left override, a line break, a BOM, a soft hyphen.
const BAD = ["Admin\u0000", "Admin\u200bistrator", "Evil\u202Egnp.exe", "two\nlines", "b\uFEFFom", "soft\u00ADhyphen"];
const COMPOSED = "Caf\u00e9";
const DECOMPOSED = "Cafe\u0301";

describe("names", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 4, tickMs: 100 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  const call = (method: string, params: object) => rpc(lg.url, method, params, admin);

  it("refuses control and format characters in role names", async () => {
    for (const name of BAD) {
      const res = await call(`${API}.AddRole`, { Role: { Name: name } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.ReturnState.Description).toMatch(/^Invalid parameter Role\.Name: /);
      expect(res.body.ReturnState.Description).toMatch(INVISIBLE);
    }
    const roles = (await call(`${API}.GetRoles`, {})).body.Roles.map((r: { Name: string }) => r.Name);
    expect(roles).toEqual(["Administrator", "Operator", "Viewer"]);
    // SetRole too.
    const set = await call(`${API}.SetRole`, { Role: { ID: 2, Name: "Oper\u200Bator" } });
    expect(set.status).toBe(400);
  });

  it("refuses them in user names (which are plain ASCII anyway)", async () => {
    const res = await call(`${API}.AddUser`, { User: { Username: "Admin\u200bistrator", Role: 2 }, Password: "long-enough-1" });
    expect(res.status).toBe(400);
    expect(res.body.ReturnState.Description).toMatch(/^Invalid parameter User\.Username/);
  });

  it("stores names NFC-normalised and compares them that way", async () => {
    const added = await call(`${API}.AddRole`, { Role: { Name: DECOMPOSED } });
    expect(added.status).toBe(200);
    const stored = (await call(`${API}.GetRoles`, {})).body.Roles.find((r: { ID: number }) => r.ID === added.body.ID);
    expect(stored.Name).toBe(COMPOSED);
    const twin = await call(`${API}.AddRole`, { Role: { Name: COMPOSED.toUpperCase() } });
    expect(twin.status).toBe(400);
    expect(twin.body.ReturnState.Description).toBe(`A role named ${COMPOSED} already exists`);
  });

  it("refuses them in dashboard, notification target, VNC target, alarm rule, measurement names and metadata keys", async () => {
    const cases: Array<[string, (name: string) => object, RegExp]> = [
      ["WebUIAPI.SaveDashboard", (Name) => ({ Dashboard: { Name, Content: {} } }), /Dashboard\.Name/],
      ["NotificationAPI.AddTarget", (Name) => ({ Target: { Name, Type: "webhook", URL: "https://example.com/hook" } }), /Name/],
      ["VncAPI.Set", (Name) => ({ Name, Host: "example.com", Port: 5900 }), /Name/],
      ["AlarmAPI.AddRule", (Name) => ({ Rule: { Name, VariableId: "x", Type: "high", Severity: "high", High: 1 } }), /Name/],
      ["MeasurementAPI.Start", (Name) => ({ Name }), /Name/],
      ["MetaDataAPI.SetMetaData", (Key) => ({ Type: "device", ID: "x", MetaData: [{ Key, Value: "v" }] }), /Key/],
    ];
    for (const [method, params, field] of cases) {
      for (const name of ["Hall\u200B 1", "Line\u0000"]) {
        const res = await call(method, params(name));
        expect(res.status, `${method} ${JSON.stringify(name)}`).toBe(400);
        expect(res.body.ReturnState.Description, method).toMatch(field);
        expect(res.body.ReturnState.Description, method).toMatch(INVISIBLE);
      }
    }
    const saved = await call("WebUIAPI.SaveDashboard", { Dashboard: { Name: ` ${DECOMPOSED} `, Content: {} } });
    expect(saved.status).toBe(200);
    const list = (await call("WebUIAPI.List", {})).body.List.map((d: { Name: string }) => d.Name);
    expect(list).toContain(COMPOSED);
    expect(list).not.toContain(DECOMPOSED);
  });
});

describe("password length", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterAll(() => lg.stop());

  it("accepts 1,024 characters and refuses 1,025 (AddUser, SetUser, ChangePassword)", async () => {
    const ok = "p".repeat(1024);
    const long = "p".repeat(1025);
    const tooLong = { Value: -14, Description: "Password must be at most 1024 characters" };
    const add = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "longpw", Role: 2, MustChangePassword: false }, Password: long }, admin);
    expect(add.status).toBe(400);
    expect(add.body.ReturnState).toEqual(tooLong);
    const added = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "longpw", Role: 2, MustChangePassword: false }, Password: ok }, admin);
    expect(added.status).toBe(200);
    const token = (await login(lg.url, "longpw", ok)).access;
    const set = await rpc(lg.url, `${API}.SetUser`, { User: { ID: added.body.ID }, Password: long }, admin);
    expect(set.body.ReturnState).toEqual(tooLong);
    const change = await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: ok, NewPassword: long }, token);
    expect(change.status).toBe(400);
    expect(change.body.ReturnState).toEqual(tooLong);
  });
});
