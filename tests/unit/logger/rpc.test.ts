import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, ADMIN_PASSWORD, API, login, rpc, startWithAdmin } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";
import { testEngineName } from "../../support/testStore.ts";

describe("RPC envelope and errors", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterAll(() => lg.stop());

  it("answers 400 -6 to malformed JSON and to a non-object body", async () => {
    const res = await rpc(lg.url, `${API}.GetUsers`, undefined, admin, "{not json");
    expect(res.status).toBe(400);
    expect(res.body.ReturnState.Value).toBe(-6);
    expect(res.body.ReturnState.Description).toMatch(/Malformed JSON/);
    expect((await rpc(lg.url, `${API}.GetUsers`, undefined, admin, "[1,2]")).status).toBe(400);
  });

  it("treats an empty body as {}", async () => {
    expect((await rpc(lg.url, `${API}.GetUsers`, undefined, admin)).status).toBe(200);
  });

  it("answers 404 -4 to an unknown method, even without a token", async () => {
    const res = await rpc(lg.url, "FooAPI.Bar", {});
    expect(res.status).toBe(404);
    expect(res.body.ReturnState).toEqual({ Value: -4, Description: "Unknown method FooAPI.Bar" });
    expect((await rpc(lg.url, "constructor", {}, admin)).status).toBe(404);
  });

  it("answers 400 naming the field when params fail validation", async () => {
    const res = await rpc(
      lg.url,
      `${API}.AddUser`,
      { User: { Username: "carl", Role: 2, EMail: "not-an-email" }, Password: "long-enough-1" },
      admin,
    );
    expect(res.status).toBe(400);
    expect(res.body.ReturnState).toEqual({ Value: -6, Description: "Invalid parameter User.EMail: Invalid email address" });
    const missing = await rpc(lg.url, `${API}.GetUser`, {}, admin);
    expect(missing.status).toBe(400);
    expect(missing.body.ReturnState.Description).toMatch(/^Invalid parameter ID:/);
  });

  it("allows unknown extra keys in params", async () => {
    expect((await rpc(lg.url, `${API}.GetUser`, { ID: 1, Extra: true }, admin)).status).toBe(200);
  });

  it("ignores a query string after the method", async () => {
    const res = await rpc(lg.url, "ConfigAPI.GetVersionInformation?_dc=1700000000000", {}, admin);
    expect(res.status).toBe(200);
    expect(res.body.VersionInformation.map((v: { Name: string }) => v.Name)).toEqual([
      "Loggia Logger Service",
      "Database schema",
      "Node.js",
      testEngineName(), // the engine this run put the logger on
    ]);
  });

  it("answers 405 to a GET on /rpc and a JSON 404 elsewhere", async () => {
    const get = await fetch(`${lg.url}/rpc/AdminAPI.LoginRequired`);
    expect(get.status).toBe(405);
    expect(((await get.json()) as any).ReturnState.Value).toBe(-3);
    const other = await fetch(`${lg.url}/nowhere`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).ReturnState.Value).toBe(-4);
  });

  it("answers 413 to a body over 1 MB and keeps serving", async () => {
    const big = JSON.stringify({ Filter: { Sender: "x".repeat(1024 * 1024 + 10) } });
    const res = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", undefined, admin, big);
    expect(res.status).toBe(413);
    expect((await rpc(lg.url, "AdminAPI.LoginRequired")).status).toBe(200);
  });

  it("answers 403 naming the permission to a Viewer calling GetUsers", async () => {
    const viewer = await addUser(lg.url, admin, "vera", "Viewer");
    const res = await rpc(lg.url, `${API}.GetUsers`, {}, viewer.token);
    expect(res.status).toBe(403);
    expect(res.body.ReturnState).toEqual({ Value: -3, Description: "Permission denied: ManageUsers required" });
    expect((await rpc(lg.url, `${API}.GetRoles`, {}, viewer.token)).status).toBe(403);
    expect((await rpc(lg.url, `${API}.GetPermissions`, {}, viewer.token)).status).toBe(200);
  });

  it("serves concurrent requests", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 ? rpc(lg.url, `${API}.GetUsers`, {}, admin) : rpc(lg.url, "GI.system/MessagingAPI.GetMessages", {}, admin),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });

  it("logs one line per request without tokens or passwords", async () => {
    const before = lg.lines.length;
    await rpc(lg.url, `${API}.GetUsers?token=${admin}`, {}, admin);
    await login(lg.url, "admin", ADMIN_PASSWORD);
    const lines = lg.lines.slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/POST \/rpc\/GI\.system\/UserManagementAPI\.GetUsers 200/);
    for (const line of lg.lines) {
      expect(line).not.toContain(admin);
      expect(line).not.toContain(ADMIN_PASSWORD);
    }
  });
});
