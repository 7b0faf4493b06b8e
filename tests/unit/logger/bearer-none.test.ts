import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, rpc, sleep, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Clients of the family send `Authorization: Bearer None` when login is not required
// (LOGGER-API.md, Conventions): every call must take it then, and none before.

describe("Bearer None without login", () => {
  let lg: TestLogger;
  const none = { Authorization: "Bearer None", "Content-Type": "application/json" };
  const get = (path: string) => fetch(`${lg.url}${path}`, { headers: none });
  const post = (path: string, body: unknown) => fetch(`${lg.url}${path}`, { method: "POST", headers: none, body: JSON.stringify(body) });

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 2, tickMs: 50 } });
    await sleep(300);
  });
  afterAll(() => lg.stop());

  it("is refused while login is required, and accepted on every kind of call once it is not", async () => {
    expect((await get("/online/structure/variables")).status).toBe(401);
    expect((await post("/rpc/DeviceAPI.GetDevices", {})).status).toBe(401);

    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, admin)).status).toBe(200);

    const vars = await get("/online/structure/variables");
    expect(vars.status).toBe(200);
    const oil = ((await vars.json()) as { Data: { Id: string; Name: string }[] }).Data.find((v) => v.Name === "Oil temperature")!;
    const sources = (await (await get("/history/structure/sources")).json()) as { Data: { Id: string; Variables: string[] }[] };
    const sid = sources.Data.find((s) => s.Variables.includes(oil.Id))!.Id;
    expect((await get(`/buffer/structure/sources/${sid}/variables`)).status).toBe(200);
    expect((await post(`/history/structure/sources/${sid}/measurements`, { AddVarMapping: true })).status).toBe(200);
    const data = await post("/buffer/data", { Start: -1000, Variables: [{ SID: sid, VID: oil.Id, Selector: "latest" }], Points: 10 });
    expect(data.status).toBe(200);
    expect(((await data.json()) as { Data: { TimeSeries: { Size: number } }[] }).Data[0]!.TimeSeries.Size).toBeGreaterThan(0);
    expect((await post("/online/data", { Variables: [oil.Id], Function: "read" })).status).toBe(200);
    expect((await post("/rpc/DeviceAPI.GetDevices", {})).status).toBe(200);
  });
});
