import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_PASSWORD, LOGGER, expect, rpc, roleId, test, token, unique } from "./fixtures";

// Issue 24: a web page on another site that an operator opens must not be able to use the logger
// through the operator's browser, with login required or not. A hostile page served from another
// site (127.0.0.2, another port) tries what such pages do — a text/plain JSON `no-cors` fetch to
// AddUser, the global settings and an output write, HTML forms posting to /token and (as
// text/plain JSON) to AddUser, and the live WebSocket with `apitoken=None` — against the real
// embedded logger, in Chromium. Afterwards the admin API shows that nothing changed.

type Plan = { logger: string; planted: string[]; role: number; output: string; flip: number; guessed: string };

const hostilePage = (plan: Plan) => `<!doctype html><html><head><title>Cheap flights</title></head><body>
<p>Nothing to see here.</p>
<script>
const plan = ${JSON.stringify(plan)};
const L = plan.logger;
const results = {};
// Simple requests: no preflight, the answer cannot be read — nor does it need to be.
const blind = (path, body) => fetch(L + path, { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body: JSON.stringify(body) }).then(() => "sent", (e) => String(e));
// An HTML form posted into a hidden frame; resolves when the logger's answer has loaded there.
function formPost(path, enctype, fields) {
  return new Promise((resolve) => {
    const name = "f" + Math.random().toString(36).slice(2);
    const frame = Object.assign(document.createElement("iframe"), { name, hidden: true });
    frame.onload = () => resolve("loaded");
    document.body.append(frame);
    const form = Object.assign(document.createElement("form"), { method: "POST", action: L + path, enctype, target: name });
    for (const [k, v] of fields) form.append(Object.assign(document.createElement("input"), { type: "hidden", name: k, value: v }));
    document.body.append(form);
    form.submit();
  });
}
const socket = () => new Promise((resolve) => {
  const ws = new WebSocket(L.replace("http", "ws") + "/ws?apitoken=None");
  ws.onopen = () => { resolve("open"); ws.close(); };
  ws.onerror = () => resolve("refused");
});
(async () => {
  const user = (name) => ({ User: { Username: name, Role: plan.role, MustChangePassword: false }, Password: "Planted-pass-123" });
  const [a, b, c, d] = await Promise.all([
    blind("/rpc/GI.system/UserManagementAPI.AddUser", user(plan.planted[0])),
    blind("/rpc/ConfigAPI.SetGlobalSettings", { Config: { DefaultStartPage: "planted", LoginRequired: false } }),
    blind("/online/data", { Variables: [plan.output], Values: [plan.flip], Function: "write" }),
    formPost("/token", "application/x-www-form-urlencoded", [["grant_type", "password"], ["username", plan.guessed], ["password", "guessed-by-a-page"], ["client_id", "gibench"]]),
  ]);
  // text/plain form: name + "=" + value is the body, so the pair makes one JSON object.
  const json = JSON.stringify(user(plan.planted[1])).slice(0, -1) + ',"pad":"';
  const e = await formPost("/rpc/GI.system/UserManagementAPI.AddUser", "text/plain", [[json, '"}']]);
  Object.assign(results, { addUser: a, settings: b, write: c, tokenForm: d, addUserForm: e, socket: await socket() });
  window.__results = results;
})();
</script></body></html>`;

let site: Server;
let siteUrl = "";
let plan: Plan | null = null;

test.beforeAll(async () => {
  site = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(plan ? hostilePage(plan) : "");
  });
  // Another site altogether: 127.0.0.2 is loopback too, but not the logger's (nor the console's) host.
  await new Promise<void>((done) => site.listen(0, "127.0.0.2", done));
  siteUrl = `http://127.0.0.2:${(site.address() as AddressInfo).port}/`;
});
test.afterAll(() => new Promise<void>((done) => site.close(() => done())));

/** The logger's state the page is after: users, global settings, the output's value, failed sign-ins. */
async function loggerState(admin: string, output: string, guessed: string) {
  const { Users } = await rpc<{ Users: { Username: string }[] }>("GI.system/UserManagementAPI.GetUsers", {}, admin);
  const { Config } = await rpc<{ Config: Record<string, unknown> }>("AdminAPI.GetGlobalSettings", {}, admin);
  const read = await fetch(`${LOGGER}/online/data`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
    body: JSON.stringify({ Variables: [output], Function: "read" }),
  });
  const value = ((await read.json()) as { Data: { Values: number[] } }).Data.Values[0];
  const { Messages } = await rpc<{ Messages: { Text: string }[] }>("GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "Logger" }, Limit: 200 }, admin);
  return { users: Users.map((u) => u.Username), config: Config, value, guesses: Messages.filter((m) => m.Text.startsWith(`Failed sign-in as ${guessed.toLowerCase()} `)).length };
}

for (const loginRequired of [true, false]) {
  test(`a page on another site changes nothing at the logger ${loginRequired ? "with" : "without"} login`, async ({ browser }) => {
    const admin = await token("admin", ADMIN_PASSWORD);
    const vars = ((await (await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()) as { Data: { Id: string; Name: string }[] }).Data;
    const output = vars.find((v) => v.Name === "Horn")!.Id; // a digital output of the simulated rig: it holds what was written
    const guessed = unique("victim");
    const before = await loggerState(admin, output, guessed);
    plan = { logger: LOGGER, planted: [unique("planted"), unique("planted")], role: await roleId("Administrator"), output, flip: before.value ? 0 : 1, guessed };

    if (!loginRequired) await rpc("AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, admin);
    const hostile = await browser.newPage();
    try {
      await hostile.goto(siteUrl);
      const results = await (await hostile.waitForFunction(() => (window as { __results?: Record<string, string> }).__results)).jsonValue();
      // Every attempt was made (the browser sent it) and the socket was refused at the handshake.
      expect.soft(results).toEqual({ addUser: "sent", settings: "sent", write: "sent", tokenForm: "loaded", addUserForm: "loaded", socket: "refused" });
    } finally {
      await hostile.close();
      if (!loginRequired) await rpc("AdminAPI.SetGlobalSettings", { Config: { LoginRequired: true } }, admin);
    }

    const after = await loggerState(admin, output, guessed);
    expect.soft(after.users).toEqual(before.users);
    expect.soft(after.users).not.toContain(plan.planted[0]);
    expect.soft(after.config).toEqual({ ...before.config, LoginRequired: true });
    expect.soft(after.value).toBe(before.value);
    expect(after.guesses, "password checks the page's sign-in form caused").toBe(0);
  });
}
