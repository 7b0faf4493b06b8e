import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, ADMIN_PASSWORD, API, login, rpc, start, startWithAdmin, tempDir } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";
import { LATEST_SCHEMA_VERSION } from "../../../logger/store/migrations.ts";

describe("database lifecycle", () => {
  it("keeps data across restarts and does not migrate or seed twice", async () => {
    const dataDir = tempDir();
    try {
      const first = await start({ dataDir, adminPassword: ADMIN_PASSWORD });
      const admin = (await login(first.url, "admin", ADMIN_PASSWORD)).access;
      await addUser(first.url, admin, "keeper", "Viewer");
      await first.close();

      // A different admin password on a later start must not reseed or reset anything.
      const second = await start({ dataDir, adminPassword: "another-password" });
      const again = (await login(second.url, "admin", ADMIN_PASSWORD)).access;
      const users = (await rpc(second.url, `${API}.GetUsers`, {}, again)).body.Users;
      expect(users.map((u: { Username: string }) => u.Username)).toEqual(["admin", "keeper"]);
      expect((await rpc(second.url, `${API}.GetRoles`, {}, again)).body.Roles).toHaveLength(3);
      const versions = (await rpc(second.url, "ConfigAPI.GetVersionInformation", {}, again)).body.VersionInformation;
      expect(versions.find((v: { Name: string }) => v.Name === "Database schema").Major).toBe(LATEST_SCHEMA_VERSION);
      const seeded = await rpc(second.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Sender: "Logger" } }, again);
      expect(seeded.body.Total).toBe(1);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("WebUIAPI", () => {
  let lg: TestLogger;
  let admin: string;
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString("base64");
  beforeAll(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterAll(() => lg.stop());

  it("lists no dashboards yet", async () => {
    const res = await rpc(lg.url, "WebUIAPI.List", {}, admin);
    expect(res.body.List).toEqual([]);
    expect((await rpc(lg.url, "WebUIAPI.List", {})).status).toBe(401);
  });

  it("serves webui/ files publicly and others only with a token", async () => {
    const up = await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "webui/logo.png", Content: png, ContentType: "image/png" }, admin);
    expect(up.status).toBe(200);
    expect(up.body.FileName).toBe("webui/logo.png");
    const down = await rpc(lg.url, "WebUIAPI.DownloadFile", { FileName: "webui/logo.png" });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ Content: png, ContentType: "image/png" });

    await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "dash/notes.txt", Content: "aGk=", ContentType: "text/plain" }, admin);
    expect((await rpc(lg.url, "WebUIAPI.DownloadFile", { FileName: "dash/notes.txt" })).status).toBe(401);
    expect((await rpc(lg.url, "WebUIAPI.DownloadFile", { FileName: "dash/notes.txt" }, admin)).body.Content).toBe("aGk=");
    expect((await rpc(lg.url, "WebUIAPI.DownloadFile", { FileName: "webui/../dash/notes.txt" })).status).toBe(400);
    const missing = await rpc(lg.url, "WebUIAPI.DownloadFile", { FileName: "webui/none.png" });
    expect(missing.status).toBe(404);
    expect(missing.body.ReturnState.Value).toBe(-4);
  });

  it("checks upload permissions, base64 and size", async () => {
    const operator = await addUser(lg.url, admin, "otto", "Operator");
    expect((await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "webui/logo.png", Content: png }, operator.token)).status).toBe(403);
    expect((await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "dash/a.bin", Content: png }, operator.token)).status).toBe(200);
    expect((await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "dash/b.bin", Content: "**" }, admin)).status).toBe(400);
    const big = Buffer.alloc(2 * 1024 * 1024 + 1).toString("base64");
    const tooBig = await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "dash/big.bin", Content: big }, admin);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.ReturnState.Description).toMatch(/2 MB/);
    const justFits = Buffer.alloc(2 * 1024 * 1024).toString("base64");
    expect((await rpc(lg.url, "WebUIAPI.UploadFile", { FileName: "dash/fits.bin", Content: justFits }, admin)).status).toBe(200);
  });
});
