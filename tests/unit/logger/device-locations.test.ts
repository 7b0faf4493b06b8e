import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

type Device = { ID: string; Name: string; Location: { Lat: number; Lon: number; Site?: string } | null };

describe("device locations", () => {
  let lg: TestLogger;
  let admin: string;
  const devices = async (): Promise<Device[]> => (await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body.Devices;
  const set = (ID: string, MetaData: object[]) => rpc(lg.url, "MetaDataAPI.SetMetaData", { Type: "device", ID, MetaData }, admin);

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("seeds distinct sites for the simulated devices as metadata", async () => {
    const list = await devices();
    expect(list.map((d) => d.Location?.Site)).toEqual(["Modena test cell", "Maranello substation", "Monte Cimone"]);
    const points = new Set(list.map((d) => `${d.Location!.Lat},${d.Location!.Lon}`));
    expect(points.size).toBe(3);
    for (const d of list) {
      expect(d.Location!.Lat).toBeGreaterThan(44);
      expect(d.Location!.Lat).toBeLessThan(45);
    }
    const meta = (await rpc(lg.url, "MetaDataAPI.GetMetaData", { Type: "device", ID: list[0].ID }, admin)).body.MetaData;
    expect(meta).toEqual(expect.arrayContaining([{ Type: "device", ID: list[0].ID, Key: "Latitude", Value: "44.6471" }]));
  });

  it("follows metadata changes, refuses bad coordinates and keeps a cleared location across restarts", async () => {
    const [bench, meter] = await devices();
    expect((await set(bench.ID, [{ Key: "Latitude", Value: "45.4642" }, { Key: "Longitude", Value: "9.19" }, { Key: "Site", Value: "Milano" }])).status).toBe(200);
    expect((await devices())[0].Location).toEqual({ Lat: 45.4642, Lon: 9.19, Site: "Milano" });

    for (const [Key, Value] of [["Latitude", "91"], ["Longitude", "-180.5"], ["Latitude", "north"], ["Longitude", "1e3"]]) {
      const res = await set(bench.ID, [{ Key, Value }]);
      expect(res.status, `${Key}=${Value}`).toBe(400);
      expect(res.body.ReturnState.Value).toBe(-6);
    }
    expect((await devices())[0].Location).toEqual({ Lat: 45.4642, Lon: 9.19, Site: "Milano" });

    // One coordinate missing: no location at all (not half of one).
    await set(meter.ID, [{ Key: "Longitude", Value: "" }]);
    expect((await devices())[1].Location).toBeNull();

    // A restart on the same data folder seeds nothing again: the administrator's choice stays.
    await lg.close();
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 }, dataDir: lg.dataDir });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const after = await devices();
    expect(after[0].Location).toEqual({ Lat: 45.4642, Lon: 9.19, Site: "Milano" });
    expect(after[1].Location).toBeNull();
    expect(after[2].Location?.Site).toBe("Monte Cimone");
  });
});
