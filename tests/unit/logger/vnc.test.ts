import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT, rpc, startWithAdminAndViewer } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

/** The console's confidential client, which alone may learn a target's password. */
const console_ = { ClientID: CLIENT.id, ClientSecret: CLIENT.secret };

describe("VncAPI", () => {
  let lg: TestLogger;
  let admin: string;
  let viewer: string;
  beforeAll(async () => {
    ({ lg, admin, viewer } = await startWithAdminAndViewer());
  });
  afterAll(() => lg.stop());

  it("stores targets; List never carries the password, Connect does", async () => {
    const set = await rpc(lg.url, "VncAPI.Set", { Name: "HMI line 1", Host: "10.0.0.5", Port: 5900, Password: "pw-1" }, admin);
    expect(set.status).toBe(200);
    const id = set.body.ID;
    await rpc(lg.url, "VncAPI.Set", { Name: "alpha", Host: "[fe80::1]", Port: 5901 }, admin);
    const list = await rpc(lg.url, "VncAPI.List", {}, viewer);
    expect(list.status).toBe(200);
    expect(list.body.Targets.map((t: { Name: string }) => t.Name)).toEqual(["alpha", "HMI line 1"]);
    expect(list.body.Targets[1]).toEqual({ ID: id, Name: "HMI line 1", Host: "10.0.0.5", Port: 5900, HasPassword: true });
    expect(list.body.Targets[0]).toMatchObject({ Host: "fe80::1", HasPassword: false });
    expect(JSON.stringify(list.body)).not.toContain("pw-1");
    // A signed-in user asking the logger directly, without the console's client secret, gets 403.
    for (const creds of [{}, { ClientID: CLIENT.id, ClientSecret: "guess" }, { ClientID: "gibench", ClientSecret: "" }]) {
      const direct = await rpc(lg.url, "VncAPI.Connect", { ID: id, ...creds }, viewer);
      expect(direct.status).toBe(403);
      expect(JSON.stringify(direct.body)).not.toContain("pw-1");
    }
    expect((await rpc(lg.url, "VncAPI.Connect", { ID: id, ...console_ }, viewer)).body).toMatchObject({ ID: id, Host: "10.0.0.5", Port: 5900, Password: "pw-1" });

    // Without Password the stored one stays; "" removes it.
    await rpc(lg.url, "VncAPI.Set", { ID: id, Name: "HMI line 1", Host: "10.0.0.6", Port: 5900 }, admin);
    expect((await rpc(lg.url, "VncAPI.Connect", { ID: id, ...console_ }, viewer)).body).toMatchObject({ Host: "10.0.0.6", Password: "pw-1" });
    await rpc(lg.url, "VncAPI.Set", { ID: id, Name: "HMI line 1", Host: "10.0.0.6", Port: 5900, Password: "" }, admin);
    expect((await rpc(lg.url, "VncAPI.Connect", { ID: id, ...console_ }, viewer)).body.Password).toBe("");

    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "admin" } }, admin);
    expect(audit.body.Messages[0].Text).toBe("Set VNC target HMI line 1");
  });

  it("validates, refuses duplicates and unknown ids", async () => {
    for (const [params, field] of [
      [{ Name: "", Host: "h", Port: 1 }, "Name"],
      [{ Name: "x", Host: "http://h/", Port: 1 }, "Host"],
      [{ Name: "x", Host: "h", Port: 0 }, "Port"],
      [{ Name: "x", Host: "h", Port: 65536 }, "Port"],
    ] as const) {
      const res = await rpc(lg.url, "VncAPI.Set", params, admin);
      expect(res.status).toBe(400);
      expect(res.body.ReturnState.Description).toContain(`Invalid parameter ${field}`);
    }
    const dup = await rpc(lg.url, "VncAPI.Set", { Name: "ALPHA", Host: "h", Port: 1 }, admin);
    expect(dup.status).toBe(400);
    expect(dup.body.ReturnState.Description).toBe("Another VNC target is already called ALPHA");
    expect((await rpc(lg.url, "VncAPI.Set", { ID: 999, Name: "n", Host: "h", Port: 1 }, admin)).status).toBe(404);
    expect((await rpc(lg.url, "VncAPI.Connect", { ID: 999, ...console_ }, admin)).status).toBe(404);
    expect((await rpc(lg.url, "VncAPI.Remove", { ID: 999 }, admin)).status).toBe(404);
  });

  it("needs ManageGlobalSettings to change targets and a token to read them", async () => {
    const { body } = await rpc(lg.url, "VncAPI.List", {}, admin);
    const id = body.Targets[0].ID;
    expect((await rpc(lg.url, "VncAPI.Set", { Name: "v", Host: "h", Port: 1 }, viewer)).status).toBe(403);
    expect((await rpc(lg.url, "VncAPI.Remove", { ID: id }, viewer)).status).toBe(403);
    expect((await rpc(lg.url, "VncAPI.List", {})).status).toBe(401);
    expect((await rpc(lg.url, "VncAPI.Connect", { ID: id, ...console_ })).status).toBe(401);
    expect((await rpc(lg.url, "VncAPI.Remove", { ID: id }, admin)).status).toBe(200);
    expect((await rpc(lg.url, "VncAPI.Connect", { ID: id, ...console_ }, admin)).status).toBe(404);
  });
});
