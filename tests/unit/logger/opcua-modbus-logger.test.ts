import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startModbusServer } from "../../support/devices/modbusServer.ts";
import type { ModbusDevice } from "../../support/devices/modbusServer.ts";
import { OPCUA_USER, startOpcuaServer } from "../../support/devices/opcuaServer.ts";
import type { OpcuaDevice } from "../../support/devices/opcuaServer.ts";
import { ADMIN_PASSWORD, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// The Modbus TCP and OPC UA drivers inside the logger (simulator off): sources added through
// DataSourceAPI, OPC UA nodes found by DataSourceAPI.Browse, live values, history on the grid and
// output writes through /online/data reaching the devices.

const PERIOD = 100;

describe("Modbus TCP and OPC UA sources in the logger", () => {
  let lg: TestLogger;
  let admin: string;
  let modbus: ModbusDevice;
  let opcua: OpcuaDevice;
  const call = (method: string, params: unknown) => rpc(lg.url, `DataSourceAPI.${method}`, params, admin);
  async function rest(path: string, body: unknown) {
    const res = await fetch(`${lg.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }
  const liveOf = async (ids: string[]) => (await rest("/online/data", { Variables: ids })).body.Data as { Values: (number | null)[]; Timestamps: (number | null)[] };
  const stateOf = async (id: number) => ((await call("GetState", {})).body.States as { ID: number; State: string; LastError: string }[]).find((s) => s.ID === id);
  const until = (f: () => Promise<void> | void, timeout = 15_000) => vi.waitFor(f, { timeout, interval: 50 });

  beforeAll(async () => {
    [modbus, opcua, lg] = await Promise.all([startModbusServer({ tickMs: 50 }), startOpcuaServer({ tickMs: 50 }), start({ adminPassword: ADMIN_PASSWORD, simulator: false })]);
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
  }, 30_000);
  afterAll(async () => {
    await lg?.stop();
    await Promise.all([modbus?.close(), opcua?.close()]);
  }, 30_000);

  const v = (Name: string, Direction: string, Address: object) => ({ VariableId: "", Name, Unit: "", RangeMin: 0, RangeMax: 100, Precision: 2, Direction, Address });

  it("a Modbus TCP source: values on the grid, live and in history; an output reaches the device", async () => {
    const m = (a: object) => ({ Register: "holding", Address: 0, Type: "uint16", WordOrder: "big", ByteOrder: "big", Scale: 1, Offset: 0, ...a });
    const added = await call("Set", {
      Source: {
        ID: -1,
        Name: "PLC",
        Protocol: "modbus",
        Enabled: true,
        PeriodMs: PERIOD,
        Connection: { Host: "127.0.0.1", Port: modbus.port, UnitId: 1, TimeoutMs: 500 },
        Variables: [v("Sine", "I", m({ Type: "float32" })), v("Counter", "I", m({ Register: "input" })), v("Setpoint", "IO", m({ Address: 100, Scale: 0.5 }))],
      },
    });
    expect(added.status).toBe(200);
    const s = added.body.Source;
    const ids = s.Variables.map((x: { VariableId: string }) => x.VariableId);
    await until(async () => expect((await stateOf(s.ID))?.State).toBe("connected"));
    const t0 = Date.now();
    await until(async () => {
      const live = await liveOf(ids);
      expect(live.Values[1]).not.toBeNull();
      expect(live.Timestamps[1]).toBeGreaterThan(t0);
    });
    const live = await liveOf(ids);
    expect(live.Timestamps[1]! % PERIOD).toBe(0);
    expect(live.Values[0]).toBeGreaterThanOrEqual(-10);
    expect(live.Values[0]).toBeLessThanOrEqual(10);

    const w = await rest("/online/data", { Function: "write", Variables: [ids[2]], Values: [21] });
    expect(w.status).toBe(200);
    expect(modbus.writes.at(-1)).toEqual({ kind: "register", address: 100, values: [42] });
    await until(async () => expect((await liveOf([ids[2]])).Values[0]).toBe(21));

    await until(async () => {
      const res = await rest("/history/data", { Start: t0, End: Date.now(), Type: "absolute", Variables: [{ SID: `ds${s.ID}`, VID: ids[1] }] });
      const values = (res.body.Data?.[0]?.TimeSeries?.Values?.[0] ?? []) as (number | null)[];
      expect(values.filter((x) => x !== null).length).toBeGreaterThanOrEqual(5);
    });
  });

  it("an OPC UA source picked by browsing: units and ranges offered, values live, an output written", async () => {
    const connection = { Endpoint: opcua.endpoint, SecurityMode: "SignAndEncrypt", SecurityPolicy: "Basic256Sha256", Auth: "user", Username: OPCUA_USER.username, Password: OPCUA_USER.password };
    const top = await call("Browse", { Connection: connection, NodeId: "" });
    expect(top.status).toBe(200);
    expect(top.body.Nodes).toEqual(expect.arrayContaining([expect.objectContaining({ NodeId: "ns=1;s=Cell", DisplayName: "Cell", HasChildren: true })]));
    const cell = (await call("Browse", { Connection: connection, NodeId: "ns=1;s=Cell" })).body.Nodes as { NodeId: string; DisplayName: string; Unit?: string; RangeMin?: number; RangeMax?: number; Writable?: boolean }[];
    const temp = cell.find((n) => n.DisplayName === "Temperature")!;
    const setpoint = cell.find((n) => n.DisplayName === "Setpoint")!;
    expect(temp).toMatchObject({ Unit: "°C", RangeMin: 0, RangeMax: 100, Writable: false });
    expect(setpoint.Writable).toBe(true);

    const added = await call("Set", {
      Source: {
        ID: -1,
        Name: "Cell server",
        Protocol: "opcua",
        Enabled: true,
        PeriodMs: PERIOD,
        Connection: connection,
        Variables: [
          { ...v("Temperature", "I", { NodeId: temp.NodeId }), Unit: temp.Unit, RangeMin: temp.RangeMin, RangeMax: temp.RangeMax },
          { ...v("Setpoint", "IO", { NodeId: setpoint.NodeId }), Unit: setpoint.Unit },
        ],
      },
    });
    expect(added.status).toBe(200);
    const s = added.body.Source;
    const ids = s.Variables.map((x: { VariableId: string }) => x.VariableId);
    // stored connection (with its password) browses too
    expect((await call("Browse", { ID: s.ID, NodeId: "ns=1;s=Cell.Motor" })).body.Nodes).toEqual([expect.objectContaining({ DisplayName: "Speed", Unit: "r/min" })]);
    await until(async () => expect((await stateOf(s.ID))?.State).toBe("connected"), 20_000);
    await until(async () => {
      const live = await liveOf(ids);
      expect(live.Values[0]).toBeGreaterThanOrEqual(15);
      expect(live.Values[0]).toBeLessThanOrEqual(25);
    });
    // changes are stored, not only the first value held (the temperature moves every 50 ms)
    const t0 = Date.now();
    await until(async () => {
      const res = await rest("/history/data", { Start: t0 - 2000, End: Date.now(), Type: "absolute", Variables: [{ SID: `ds${s.ID}`, VID: ids[0] }] });
      const values = (res.body.Data?.[0]?.TimeSeries?.Values?.[0] ?? []) as (number | null)[];
      expect(new Set(values.filter((x) => x !== null)).size).toBeGreaterThanOrEqual(5);
    });
    const w = await rest("/online/data", { Function: "write", Variables: [ids[1]], Values: [66.5] });
    expect(w.status).toBe(200);
    expect(opcua.writes.at(-1)).toEqual({ nodeId: "ns=1;s=Cell.Setpoint", value: 66.5 });
    await until(async () => expect((await liveOf([ids[1]])).Values[0]).toBe(66.5));
  }, 40_000);
});
