import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// The Measurement Explorer's metadata filter, answered by the logger's query: a measurement
// matches on its own metadata, on one of its variables' or on its device's.

describe("measurements by metadata", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 3, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(() => lg.stop());

  let sid = "";
  const search = async ({ MetaKey, MetaValue, ...q }: { MetaKey?: string; MetaValue?: string; Limit?: number; Order?: string }) => {
    const filter = MetaKey || MetaValue ? { MeasMetaDataFilter: { Key: MetaKey, Value: MetaValue } } : {};
    const res = await fetch(`${lg.url}/history/structure/sources/${sid}/measurements`, { method: "POST", headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" }, body: JSON.stringify({ ...q, ...filter }) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { Data: { Id: string; Name: string; MatchedOn?: string[]; SourceId: string; Variables: string[] }[] }).Data;
  };
  const record = async (Name: string, MetaData: object[] = []) => {
    const { Measurement } = (await rpc(lg.url, "MeasurementAPI.Start", { Name, MetaData }, admin)).body;
    await rpc(lg.url, "MeasurementAPI.Stop", {}, admin);
    return Measurement as { ID: string; SourceId: string; Variables: string[] };
  };
  const set = (Type: string, ID: string, Key: string, Value: string) => rpc(lg.url, "MetaDataAPI.SetMetaData", { Type, ID, MetaData: [{ Key, Value }] }, admin);

  it("matches own, variable and device metadata, says where, and counts Limit over matches", async () => {
    const { Devices } = (await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body as { Devices: { ID: string; Modules: { Variables: string[] }[] }[] };
    const own = await record("Own", [{ Key: "Operator", Value: "Anna Rossi" }]);
    const other = await record("Other", [{ Key: "Operator", Value: "Bruno" }]);
    sid = own.SourceId;
    const variable = own.Variables[0]!;
    expect(other.Variables).toContain(variable);
    await set("variable", variable, "Sensor", "PT100 class A");
    const device = Devices.find((d) => d.Modules.some((m) => m.Variables.includes(variable)))!;
    await set("device", device.ID, "Location", "Cell 3");

    // Own metadata: key case-insensitive, part of the value.
    const anna = await search({ MetaKey: "operator", MetaValue: "ANNA" });
    expect(anna.map((m) => m.Name)).toEqual(["Own"]);
    expect(anna[0]!.MatchedOn).toEqual(["measurement"]);
    // Any key with "Bruno" in the value.
    expect((await search({ MetaValue: "brun" })).map((m) => m.Name)).toEqual(["Other"]);

    // A variable's metadata: both measurements recorded it.
    const sensor = await search({ MetaKey: "Sensor" });
    expect(sensor.map((m) => m.Name).sort()).toEqual(["Other", "Own"]);
    expect(sensor.every((m) => m.MatchedOn!.includes("variable") && !m.MatchedOn!.includes("measurement"))).toBe(true);

    // The device's metadata.
    const cell = await search({ MetaKey: "Location", MetaValue: "cell 3" });
    expect(cell.map((m) => m.Name).sort()).toEqual(["Other", "Own"]);
    expect(cell[0]!.MatchedOn).toEqual(["device"]);

    // Newest first; Limit counts matches, not rows filtered afterwards.
    expect((await search({ MetaKey: "Sensor", Limit: 1 })).map((m) => m.Name)).toEqual(["Other"]);
    expect((await search({ MetaKey: "Sensor", Order: "asc", Limit: 1 })).map((m) => m.Name)).toEqual(["Own"]);

    // No match, and no search at all (no MatchedOn then).
    expect(await search({ MetaKey: "Nope" })).toEqual([]);
    expect(await search({ MetaKey: "Location", MetaValue: "Cell 4" })).toEqual([]);
    const plain = await search({});
    expect(plain.map((m) => m.Name)).toEqual(["Other", "Own", "Test bench controller (continuous)"]);
    expect(plain[0]!.MatchedOn).toBeUndefined();

    // The family's client sends a list of {Key, Value}: any match lists the measurement (it was 400).
    const list = async (MeasMetaDataFilter: unknown) => {
      const res = await fetch(`${lg.url}/history/structure/sources/${sid}/measurements`, { method: "POST", headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" }, body: JSON.stringify({ MeasMetaDataFilter }) });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { Data: { Name: string; MatchedOn?: string[] }[] }).Data;
    };
    expect((await list([{ Key: "Operator", Value: "Anna" }])).map((m) => m.Name)).toEqual(["Own"]);
    const either = await list([{ Key: "Operator", Value: "Bruno" }, { Key: "Operator", Value: "Anna" }]);
    expect(either.map((m) => m.Name)).toEqual(["Other", "Own"]);
    expect(either.every((m) => m.MatchedOn!.join() === "measurement")).toBe(true);
    // Scopes of every term that matched, in one list.
    const both = await list([{ Key: "Operator", Value: "Anna" }, { Key: "Location", Value: "Cell 3" }]);
    expect(both.find((m) => m.Name === "Own")!.MatchedOn).toEqual(["measurement", "device"]);
    expect(both.find((m) => m.Name === "Other")!.MatchedOn).toEqual(["device"]);
    expect(await list([{ Key: "Nope", Value: "x" }, { Key: "Operator", Value: "Carla" }])).toEqual([]);
    // An empty list is no filter.
    expect((await list([])).map((m) => m.Name)).toEqual(["Other", "Own", "Test bench controller (continuous)"]);

    // A removed entry no longer matches.
    await set("variable", variable, "Sensor", "");
    expect(await search({ MetaKey: "Sensor" })).toEqual([]);
  });
});
