import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, addUser, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

describe("MetaDataAPI", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 2, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  it("sets, lists and removes metadata of measurements, variables and devices", async () => {
    const { Devices } = (await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body;
    const device = Devices[0];
    const variable = device.Modules[0].Variables[0];
    const { Measurement } = (await rpc(lg.url, "MeasurementAPI.Start", { Name: "Meta run" }, admin)).body;
    await rpc(lg.url, "MeasurementAPI.Stop", {}, admin);

    const set = (Type: string, ID: string, MetaData: object[]) => rpc(lg.url, "MetaDataAPI.SetMetaData", { Type, ID, MetaData }, admin);
    // The device also has its seeded location keys (Latitude, Longitude, Site).
    expect((await set("device", device.ID, [{ Key: "Location", Value: "Cell 3" }])).body.MetaData).toContainEqual({ Key: "Location", Value: "Cell 3" });
    await set("variable", variable, [{ Key: "Sensor", Value: "PT100" }, { Key: "Calibrated", Value: "2026-01-10" }]);
    await set("measurement", Measurement.ID, [{ Key: "Operator", Value: "Anna" }]);
    expect((await set("variable", "nope", [{ Key: "A", Value: "b" }])).status).toBe(404);
    expect((await set("variable", variable, [{ Key: " ", Value: "b" }])).status).toBe(400);

    const all = (await rpc(lg.url, "MetaDataAPI.GetMetaData", {}, admin)).body.MetaData;
    expect(all).toEqual(
      expect.arrayContaining([
        { Type: "device", ID: device.ID, Key: "Location", Value: "Cell 3" },
        { Type: "variable", ID: variable, Key: "Sensor", Value: "PT100" },
        { Type: "measurement", ID: Measurement.ID, Key: "Operator", Value: "Anna" },
      ]),
    );
    expect((await rpc(lg.url, "MetaDataAPI.GetKeys", {}, admin)).body.Keys).toEqual(["Calibrated", "Latitude", "Location", "Longitude", "Operator", "Sensor", "Site"]);

    await set("variable", variable, [{ Key: "Sensor", Value: "" }]);
    const left = (await rpc(lg.url, "MetaDataAPI.GetMetaData", { Type: "variable", ID: variable }, admin)).body.MetaData;
    expect(left).toEqual([{ Type: "variable", ID: variable, Key: "Calibrated", Value: "2026-01-10" }]);
  });

  it("lets anyone signed in read and only ManageProject write", async () => {
    const viewer = (await addUser(lg.url, admin, "metaviewer", "Viewer")).token;
    expect((await rpc(lg.url, "MetaDataAPI.GetMetaData", {}, viewer)).status).toBe(200);
    expect((await rpc(lg.url, "MetaDataAPI.SetMetaData", { Type: "device", ID: "x", MetaData: [{ Key: "a", Value: "b" }] }, viewer)).status).toBe(403);
    expect((await rpc(lg.url, "MetaDataAPI.GetMetaData", {})).status).toBe(401);
  });
});
