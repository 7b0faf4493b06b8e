import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ACCOUNTS_NEED_LOGIN } from "../../../logger/auth/caller.ts";
import { parseHostnames, parseOrigins } from "../../../logger/http/origin.ts";
import { ADMIN_PASSWORD, API, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Issue 24: a web page on another site, opened by an operator, must not use the logger through
// the operator's browser — with or without login. Every refusal over real HTTP, with the headers
// a browser sends (Origin, Sec-Fetch-Site, Host, a form's Content-Type).

const CONSOLE = "http://console.test:3000";
const EVIL = "http://evil.example";

type Reply = { status: number; body: any; headers: Record<string, string | string[] | undefined> };

/** One request with exactly these headers (fetch would add or refuse some, e.g. Host). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { ...headers, ...(body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Whether a WebSocket to /ws opens with these headers; the refusal's status otherwise. */
function openSocket(base: string, headers: Record<string, string>): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?apitoken=None`, { headers });
    ws.on("open", () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.on("unexpected-response", (_req, res) => {
      resolve({ opened: false, status: res.statusCode });
      res.resume();
    });
    ws.on("error", () => resolve({ opened: false }));
  });
}

const json = (token?: string) => ({ "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) });
const newUser = (name: string) => JSON.stringify({ User: { Username: name, Role: 1, MustChangePassword: false }, Password: "Planted-pass-123" });

describe("requests from foreign pages (login required)", () => {
  let lg: TestLogger;
  let admin: string;
  const users = async () => ((await rpc(lg.url, `${API}.GetUsers`, {}, admin)).body.Users as { Username: string }[]).map((u) => u.Username);

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, allowedOrigins: [CONSOLE], simulator: { seed: 3, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("takes RPC and REST JSON only as application/json (415), even with a valid token", async () => {
    const plain = await send(lg.url, "POST", `/rpc/${API}.AddUser`, { "Content-Type": "text/plain;charset=UTF-8", Authorization: `Bearer ${admin}` }, newUser("textual"));
    expect(plain.status).toBe(415);
    expect(plain.body.ReturnState).toEqual({ Value: -6, Description: "Send the body as JSON with Content-Type: application/json (got text/plain)" });
    const form = await send(lg.url, "POST", "/rpc/AdminAPI.SetGlobalSettings", { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Bearer ${admin}` }, '{"Config":{"DefaultStartPage":"x"}}=');
    expect(form.status).toBe(415);
    const untyped = await send(lg.url, "POST", "/online/data", { Authorization: `Bearer ${admin}` }, JSON.stringify({ Variables: [], Function: "read" }));
    expect(untyped.status).toBe(415);
    expect(untyped.body).toMatchObject({ Success: false, ReturnState: { Value: -6, Description: "Send the body as JSON with Content-Type: application/json (none was given)" } });
    expect(await users()).not.toContain("textual");
    // A call without a body needs no type; with the right type all is well.
    expect((await send(lg.url, "POST", "/rpc/AdminAPI.LoginRequired", {})).status).toBe(200);
    expect((await send(lg.url, "POST", "/rpc/AdminAPI.LoginRequired", { "Content-Type": "application/json; charset=utf-8" }, "{}")).status).toBe(200);
  });

  it("refuses writes a page of another origin sends (403), and takes the allowed origin's", async () => {
    const foreign = await send(lg.url, "POST", `/rpc/${API}.AddUser`, { ...json(admin), Origin: EVIL }, newUser("planted"));
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      Success: false,
      error: "access_denied",
      error_description: `Request refused: it was sent by the web page ${EVIL}, which is not allowed to use this logger (LOGGER_ALLOWED_ORIGINS lists the pages that are)`,
      ReturnState: { Value: -3, Description: foreign.body.error_description },
    });
    // A sandboxed page or a file says "null"; the logger's own origin serves no pages.
    expect((await send(lg.url, "POST", `/rpc/${API}.AddUser`, { ...json(admin), Origin: "null" }, newUser("planted"))).status).toBe(403);
    expect((await send(lg.url, "POST", `/rpc/${API}.AddUser`, { ...json(admin), Origin: lg.url }, newUser("planted"))).status).toBe(403);
    // Without Origin, fetch metadata tells another site.
    for (const site of ["cross-site", "same-site"]) {
      expect((await send(lg.url, "POST", `/rpc/${API}.AddUser`, { ...json(admin), "Sec-Fetch-Site": site }, newUser("planted"))).status, site).toBe(403);
    }
    expect(await users()).not.toContain("planted");
    const allowed = await send(lg.url, "POST", `/rpc/${API}.AddUser`, { ...json(admin), Origin: CONSOLE, "Sec-Fetch-Site": "same-site" }, newUser("welcome"));
    expect(allowed.status).toBe(200);
    // Scripts (no Origin, no fetch metadata) and what a user typed (none) are fine.
    expect((await send(lg.url, "POST", "/rpc/DeviceAPI.GetDevices", json(admin), "{}")).status).toBe(200);
    expect((await send(lg.url, "POST", "/rpc/DeviceAPI.GetDevices", { ...json(admin), "Sec-Fetch-Site": "none" }, "{}")).status).toBe(200);
    expect((await send(lg.url, "POST", "/rpc/DeviceAPI.GetDevices", { ...json(admin), "Sec-Fetch-Site": "same-origin" }, "{}")).status).toBe(200);
  });

  it("answers reads to any page but lets none of them read (no CORS), and refuses preflights", async () => {
    const read = await send(lg.url, "GET", "/online/structure/variables", { Authorization: `Bearer ${admin}`, Origin: EVIL });
    expect(read.status).toBe(200);
    expect(read.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await send(lg.url, "OPTIONS", `/rpc/${API}.AddUser`, { Origin: EVIL, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a foreign page's sign-in form before any password check, and non-form bodies at /token (415)", async () => {
    const form = new URLSearchParams({ grant_type: "password", username: "admin", password: "guess-from-a-page", client_id: "gibench" }).toString();
    const foreign = await send(lg.url, "POST", "/token", { "Content-Type": "application/x-www-form-urlencoded", Origin: EVIL }, form);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe("access_denied");
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "Logger" }, Limit: 50 }, admin);
    expect(audit.body.Messages.map((m: { Text: string }) => m.Text).join("\n")).not.toContain("Failed sign-in as admin");

    const asJson = await send(lg.url, "POST", "/token", { "Content-Type": "application/json" }, JSON.stringify({ grant_type: "password", username: "admin", password: ADMIN_PASSWORD, client_id: "gibench" }));
    expect(asJson.status).toBe(415);
    expect(asJson.body).toMatchObject({ error: "invalid_request", error_description: "Send the body as a form with Content-Type: application/x-www-form-urlencoded (got application/json)" });
    expect((await send(lg.url, "POST", "/revoke", { "Content-Type": "text/plain" }, "token=x&client_id=gibench")).status).toBe(415);
    // The way every client signs in still works.
    expect((await send(lg.url, "POST", "/token", { "Content-Type": "application/x-www-form-urlencoded" }, form.replace("guess-from-a-page", encodeURIComponent(ADMIN_PASSWORD)))).status).toBe(200);
  });

  it("takes a file's raw bytes in any type but an HTML form's", async () => {
    const opened = await send(lg.url, "POST", "/history/data/import", json(admin), JSON.stringify({
      CSVSettings: { ColumnSeparator: ";", DecimalSeparator: ".", NameRowIndex: 0, ValuesStartRowIndex: 1, ValuesStartColumnIndex: 1, DateTimeFmtColumn1: "%Y-%m-%d %H:%M:%S" },
      SourceName: "Foreign import",
    }));
    expect(opened.status).toBe(200);
    const id = opened.body.Data.SessionId as string;
    const chunk = (type: string | null, text: string) => send(lg.url, "POST", `/history/data/import/${id}`, { Authorization: `Bearer ${admin}`, ...(type ? { "Content-Type": type } : {}) }, text);
    for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"]) {
      const refused = await chunk(type, "time;a\n");
      expect(refused.status, type).toBe(415);
      expect(refused.body.ReturnState.Description).toMatch(/^Send the file's bytes with a Content-Type such as application\/octet-stream or text\/csv, not /);
    }
    expect((await chunk("text/csv", "time;a\n")).body.Data).toMatchObject({ Lines: 1 });
    expect((await chunk(null, "2026-01-01 00:00:00;1\n")).body.Data).toMatchObject({ Rows: 1 });
    expect((await chunk("application/octet-stream", "2026-01-01 00:00:01;2\n")).body.Data).toMatchObject({ Rows: 2 });
    expect((await send(lg.url, "DELETE", `/history/data/import/${id}`, { Authorization: `Bearer ${admin}` })).status).toBe(200);
    const upload = (type: string) => send(lg.url, "POST", "/files/upload?Path=&Name=page.txt", { Authorization: `Bearer ${admin}`, "Content-Type": type }, "hello");
    expect((await upload("text/plain")).status).toBe(415);
    expect((await upload("application/octet-stream")).status).toBe(200);
  });

  it("refuses a WebSocket a page of another origin opens; scripts (no Origin) and the allowed origin get in", async () => {
    expect(await openSocket(lg.url, { Origin: EVIL })).toEqual({ opened: false, status: 403 });
    expect(await openSocket(lg.url, { Origin: "null" })).toEqual({ opened: false, status: 403 });
    expect(await openSocket(lg.url, { Origin: CONSOLE })).toEqual({ opened: true });
    expect(await openSocket(lg.url, {})).toEqual({ opened: true });
  });
});

describe("requests from foreign pages (login not required)", () => {
  let lg: TestLogger;
  let admin: string;
  let outputId: string;
  const outputValue = async () => (await send(lg.url, "POST", "/online/data", json(), JSON.stringify({ Variables: [outputId], Function: "read" }))).body.Data.Values[0];

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, allowedOrigins: [CONSOLE], simulator: { seed: 3, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, admin)).status).toBe(200);
    const vars = (await send(lg.url, "GET", "/online/structure/variables", {})).body.Data as { Id: string; Direction: string; DataFormat: string }[];
    outputId = vars.find((v) => v.Direction !== "I" && v.DataFormat === "BOOL")!.Id;
  });
  afterAll(() => lg.stop());

  it("refuses the no-cors fetch and form posts of a foreign page: no user, no setting, no output changed", async () => {
    const before = { value: await outputValue(), settings: (await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {})).body.Config };
    const page = { Origin: EVIL, "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain;charset=UTF-8" };
    expect((await send(lg.url, "POST", `/rpc/${API}.AddUser`, page, newUser("backdoor"))).status).toBe(403);
    expect((await send(lg.url, "POST", "/rpc/ConfigAPI.SetGlobalSettings", page, JSON.stringify({ Config: { DefaultStartPage: "evil" } }))).status).toBe(403);
    expect((await send(lg.url, "POST", "/online/data", page, JSON.stringify({ Variables: [outputId], Values: [before.value ? 0 : 1], Function: "write" }))).status).toBe(403);
    // The same body as application/json from a page would need a preflight, which is refused too.
    expect((await send(lg.url, "POST", "/online/data", { ...page, "Content-Type": "application/json" }, JSON.stringify({ Variables: [outputId], Values: [before.value ? 0 : 1], Function: "write" }))).status).toBe(403);
    expect(await outputValue()).toBe(before.value);
    expect((await rpc(lg.url, "ConfigAPI.GetGlobalSettings", {})).body.Config).toEqual(before.settings);
    expect(await openSocket(lg.url, { Origin: EVIL })).toEqual({ opened: false, status: 403 });
  });

  it("refuses every user and role change while login is off, so that no account is planted for later", async () => {
    const { Users } = (await rpc(lg.url, `${API}.GetUsers`, {})).body;
    const adminUser = Users.find((u: { Username: string }) => u.Username === "admin");
    const { Roles } = (await rpc(lg.url, `${API}.GetRoles`, {})).body;
    const calls: [string, object][] = [
      ["AddUser", { User: { Username: "planted", Role: adminUser.Role, MustChangePassword: false }, Password: "Planted-pass-123" }],
      ["SetUser", { User: { ID: adminUser.ID, MustChangePassword: false }, Password: "Taken-over-pass-1" }],
      ["SetUser", { User: { ID: adminUser.ID, EMail: "attacker@evil.example" } }],
      ["RemoveUser", { ID: adminUser.ID }],
      ["AddRole", { Role: { Name: "Everything", Permissions: ["ManageUsers"] } }],
      ["SetRole", { Role: { ID: Roles[Roles.length - 1].ID, Permissions: ["ManageUsers", "ManageRoles"] } }],
      ["RemoveRole", { ID: Roles[Roles.length - 1].ID }],
      ["ChangePassword", { OldPassword: ADMIN_PASSWORD, NewPassword: "Taken-over-pass-1" }],
    ];
    for (const [name, params] of calls) {
      const res = await rpc(lg.url, `${API}.${name}`, params);
      expect(res.status, name).toBe(name === "ChangePassword" ? 400 : 403);
      if (name !== "ChangePassword") expect(res.body.ReturnState).toEqual({ Value: -3, Description: ACCOUNTS_NEED_LOGIN });
    }
    expect((await rpc(lg.url, `${API}.GetUsers`, {})).body.Users).toEqual(Users);
    expect((await rpc(lg.url, `${API}.GetRoles`, {})).body.Roles).toEqual(Roles);
    // The admin's password is unchanged; switching login back on works, and so do changes then.
    expect((await rpc(lg.url, "ConfigAPI.SetGlobalSettings", { Config: { LoginRequired: true } })).status).toBe(200);
    const again = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    expect((await rpc(lg.url, `${API}.AddUser`, calls[0]![1], again)).status).toBe(200);
    expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, again)).status).toBe(200);
  });
});

describe("host names (DNS rebinding)", () => {
  let lg: TestLogger;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, hostnames: ["logger.plant.local"] });
  });
  afterAll(() => lg.stop());

  it("refuses a Host the logger does not go by; its names, loopback names and addresses are fine", async () => {
    const ask = (host: string) => send(lg.url, "POST", "/rpc/AdminAPI.LoginRequired", { Host: host });
    const rebound = await ask("evil.example:8081");
    expect(rebound.status).toBe(403);
    expect(rebound.body.ReturnState.Description).toBe("Request refused: this logger is not reached by the name evil.example (LOGGER_HOSTNAMES lists the names it answers to)");
    expect((await send(lg.url, "GET", "/revision", { Host: "evil.example" })).status).toBe(403);
    for (const host of ["logger.plant.local:8081", "LOGGER.plant.local.", "localhost:8081", "127.0.0.1", "[::1]:8081", "10.0.0.5:8081"]) {
      expect((await ask(host)).status, host).toBe(200);
    }
    expect(await openSocket(lg.url, { Host: "evil.example" })).toEqual({ opened: false, status: 403 });
  });

  it("goes by loopback names only when it listens on loopback and no names are given", async () => {
    const loopback = await start({ adminPassword: ADMIN_PASSWORD });
    try {
      expect((await send(loopback.url, "GET", "/revision", { Host: "evil.example:8081" })).status).toBe(403);
      for (const host of ["localhost:8081", "127.0.0.1:8081", "[::1]:8081"]) expect((await send(loopback.url, "GET", "/revision", { Host: host })).status, host).toBe(200);
    } finally {
      await loopback.stop();
    }
  });

  it("answers any Host when it listens beyond loopback without names; a rebound page still cannot write", async () => {
    const open = await start({ adminPassword: ADMIN_PASSWORD, host: "0.0.0.0" });
    try {
      const url = open.url.replace("0.0.0.0", "127.0.0.1");
      expect((await send(url, "POST", "/rpc/AdminAPI.LoginRequired", { Host: "evil.example" })).status).toBe(200);
      // A rebound page's writes carry its Origin, or at least say same-origin on a name that can be rebound.
      expect((await send(url, "POST", "/rpc/AdminAPI.LoginRequired", { Host: "evil.example:8081", Origin: "http://evil.example:8081" })).status).toBe(403);
      expect((await send(url, "POST", "/rpc/AdminAPI.LoginRequired", { Host: "evil.example:8081", "Sec-Fetch-Site": "same-origin" })).status).toBe(403);
      expect((await send(url, "POST", "/rpc/AdminAPI.LoginRequired", { Host: "127.0.0.1:8081", "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});

describe("LOGGER_ALLOWED_ORIGINS and LOGGER_HOSTNAMES", () => {
  it("take origins and names, and refuse anything else", () => {
    expect(parseOrigins("http://console.test:3000, https://LOGGIA.example")).toEqual(["http://console.test:3000", "https://loggia.example"]);
    expect(parseOrigins("")).toEqual([]);
    for (const bad of ["console.test:3000", "http://console.test/path", "ftp://x.example", "http://x.example/", "null"]) expect(() => parseOrigins(bad), bad).toThrow(/LOGGER_ALLOWED_ORIGINS/);
    expect(parseHostnames("logger.plant.local LOGGER2.plant.local:8081")).toEqual(["logger.plant.local", "logger2.plant.local"]);
    expect(() => parseHostnames("http://x/")).toThrow(/LOGGER_HOSTNAMES/);
  });
});
