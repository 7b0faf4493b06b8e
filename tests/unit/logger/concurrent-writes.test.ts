import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API, login, rpc, startWithAdmin } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// The stores answer asynchronously, so requests interleave between their awaits: a check and
// the write that depends on it must still be one step. Each case sends two conflicting requests
// at once; exactly one may win.

describe("concurrent writes that check before they write", () => {
  let lg: TestLogger;
  let admin: string;

  beforeEach(async () => {
    ({ lg, admin } = await startWithAdmin());
  });
  afterEach(() => lg.stop());

  it("two Administrators removing each other at once: one stays", async () => {
    const roles = (await rpc(lg.url, `${API}.GetRoles`, {}, admin)).body.Roles as { ID: number; Name: string }[];
    const adminRole = roles.find((r) => r.Name === "Administrator")!.ID;
    const added = await rpc(lg.url, `${API}.AddUser`, { User: { Username: "second", Role: adminRole, MustChangePassword: false }, Password: "Sec0nd-Secret!" }, admin);
    expect(added.status).toBe(200);
    const second = (await login(lg.url, "second", "Sec0nd-Secret!")).access;
    const adminId = ((await rpc(lg.url, `${API}.GetUsers`, {}, admin)).body.Users as { ID: number; Username: string }[]).find((u) => u.Username === "admin")!.ID;

    const answers = await Promise.all([
      rpc(lg.url, `${API}.RemoveUser`, { ID: added.body.ID }, admin),
      rpc(lg.url, `${API}.RemoveUser`, { ID: adminId }, second),
    ]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const survivor = answers[0]!.status === 200 ? admin : second;
    const users = (await rpc(lg.url, `${API}.GetUsers`, {}, survivor)).body.Users as { Role: number }[];
    expect(users.filter((u) => u.Role === adminRole)).toHaveLength(1);
  });

  it("two saves of one dashboard Version at once: the second is told it changed meanwhile", async () => {
    const saved = await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { Name: "Shared", Content: {} } }, admin);
    expect(saved.status).toBe(200);
    const { ID, Version } = saved.body as { ID: string; Version: number };
    const answers = await Promise.all(
      ["Renamed by one", "Renamed by two"].map((Name) => rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { ID, Name, Content: {}, Version } }, admin)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const stored = (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID }, admin)).body.Dashboard as { Version: number };
    expect(stored.Version).toBe(Version + 1);
  });

  it("two roles of one name added at once: one is refused", async () => {
    const answers = await Promise.all([1, 2].map(() => rpc(lg.url, `${API}.AddRole`, { Role: { Name: "Twin" } }, admin)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const roles = (await rpc(lg.url, `${API}.GetRoles`, {}, admin)).body.Roles as { Name: string }[];
    expect(roles.filter((r) => r.Name === "Twin")).toHaveLength(1);
  });
});
