import { rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LiveValues } from "../../../logger/model/live.ts";
import { emptyModel } from "../../../logger/model/types.ts";
import type { Model } from "../../../logger/model/types.ts";
import type { DataSource, Protocol } from "../../../logger/sources/config.ts";
import type { DriverEvents, DriverFactory } from "../../../logger/sources/driver.ts";
import { SourceManager } from "../../../logger/sources/manager.ts";
import { openDb } from "../../../logger/store/db.ts";
import type { Db } from "../../../logger/store/db.ts";
import { migrate } from "../../../logger/store/migrations.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { tempDir } from "./helpers.ts";

// The SourceManager's grid with a fake driver and a fake clock: which slots are stored, when,
// with what value — the rules of decision 0010 ("Samples on the grid").

const P = 100; // PeriodMs
const T0 = 1_800_000_000_000; // a slot boundary (multiple of P)

describe("SourceManager grid", () => {
  let dir: string;
  let db: Db;
  let store: SeriesStore;
  let live: LiveValues;
  let model: Model;
  let now: number;
  let logs: string[];
  let written: [string, number, number[]][];
  let ev: DriverEvents;
  let writes: [number, number][];
  let m: SourceManager;

  const fake: DriverFactory = (_config, events) => {
    ev = events;
    return {
      start: () => events.state("connecting"),
      write: async (index, value) => {
        if (value === 13) throw new Error("device refused 13");
        writes.push([index, value]);
      },
      stop: async () => {},
    };
  };

  function source(protocol: Protocol, extra: Partial<DataSource> = {}): DataSource {
    const address = protocol === "mqtt" ? { Topic: "t", JsonPath: "", TimestampPath: "", Qos: 0 as const } : { NodeId: "ns=1;s=x" };
    return {
      ID: 7, Name: "Dev", Protocol: protocol, Enabled: true, PeriodMs: P,
      Connection: protocol === "mqtt" ? { Url: "mqtt://h", Username: "", ClientId: "" } : { Endpoint: "opc.tcp://h:4840", SecurityMode: "None", SecurityPolicy: "None", Auth: "anonymous", Username: "" },
      Variables: [
        { VariableId: "ds7v1", Name: "A", Unit: "", RangeMin: 0, RangeMax: 100, Precision: 1, Direction: "I", Address: address },
        { VariableId: "ds7v2", Name: "Out", Unit: "", RangeMin: 0, RangeMax: 100, Precision: 1, Direction: "O", Address: address },
      ],
      ...extra,
    } as DataSource;
  }

  beforeEach(async () => {
    dir = tempDir();
    db = openDb(dir);
    await migrate(db);
    store = new SeriesStore(dir);
    live = new LiveValues();
    model = emptyModel();
    now = T0;
    logs = [];
    written = [];
    writes = [];
    m = new SourceManager({ db, store, live, model, now: () => now, log: (level, msg) => logs.push(`${level}: ${msg}`), running: true, factories: { mqtt: fake, opcua: fake } });
    m.onSamples = (id, first, _p, values) => written.push([id, first, Array.from(values, (v) => (Number.isNaN(v) ? -1 : v))]);
  });

  afterEach(async () => {
    await m.close();
    store.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const slot = (k: number) => T0 / P + k;
  const at = (k: number, frac = 0.5) => T0 + (k + frac) * P;

  it("puts the model in place, stores a slot once it is over, the last value within a slot winning", async () => {
    await m.update(source("mqtt"));
    expect(model.devices).toEqual([expect.objectContaining({ ID: "ds7", Type: "MQTT", SourceId: "ds7", SampleRateHz: 10, IPAddress: "h" })]);
    expect(model.variables.map((v) => [v.Id, v.ModuleId, v.Direction])).toEqual([["ds7v1", "ds7m", "I"], ["ds7v2", "ds7m", "O"]]);
    ev.state("connected");
    ev.value(0, 1, at(0, 0.1));
    ev.value(0, 2, at(0, 0.9));
    now = at(0, 0.95);
    m.tick();
    expect(written).toEqual([]); // slot 0 is not over yet
    expect(live.get("ds7v1")).toEqual({ v: 2, t: slot(0) * P });
    now = at(1, 0.6);
    ev.value(0, 3, at(1));
    now = at(4, 0.95);
    ev.value(0, 5, at(4));
    now = at(5);
    m.tick();
    // Slots 2 and 3 had no value: a gap (NaN), not a repeated value.
    expect(written).toEqual([["ds7v1", slot(0), [2, 3, -1, -1, 5]]]);
    expect(m.states()[0]).toMatchObject({ State: "connected", Values: 4, Errors: 0, LastValueTime: at(4, 0.95) }); // arrival time, not the payload time
  });

  it("drops late values (bad only when over a minute old) and values far ahead", async () => {
    await m.update(source("mqtt"));
    now = at(3, 0.6);
    ev.value(0, 1, at(3));
    now = at(4);
    m.tick();
    ev.value(0, 9, at(2)); // older than what is stored: dropped quietly
    ev.value(0, 9, now - 61_000); // over a minute old: bad
    ev.value(0, 9, now + 61_000); // over a minute ahead: bad
    ev.value(0, Number.NaN, now);
    now = at(6);
    m.tick();
    expect(written).toEqual([["ds7v1", slot(3), [1]]]);
    expect(m.states()[0]!.Errors).toBe(3);
  });

  it("logs bad values at most once a minute per source", async () => {
    await m.update(source("mqtt"));
    ev.bad(0, "payload is not JSON");
    ev.bad(0, "payload is not JSON");
    ev.bad(null, "subscription refused");
    expect(logs.filter((l) => l.includes("bad value"))).toEqual(["warn: Dev: 1 bad value not stored (last: A: payload is not JSON)"]);
    now += 59_000;
    m.tick();
    expect(logs.filter((l) => l.includes("bad value"))).toHaveLength(1);
    now += 2_000;
    m.tick();
    expect(logs.filter((l) => l.includes("bad value")).at(-1)).toBe("warn: Dev: 2 bad values not stored (last: subscription refused)");
    expect(m.states()[0]!.Errors).toBe(3);
  });

  it("holds OPC UA values in every slot while connected, and leaves a gap after a lost session", async () => {
    await m.update(source("opcua"));
    ev.state("connected");
    ev.value(0, 4, at(0));
    now = at(5);
    m.tick();
    expect(written).toEqual([["ds7v1", slot(0), [4, 4, 4, 4, 4]]]);
    expect(live.get("ds7v1")).toEqual({ v: 4, t: slot(4) * P });
    ev.value(0, 6, at(5, 0.8));
    now = at(8);
    m.tick();
    expect(written.at(-1)).toEqual(["ds7v1", slot(5), [6, 6, 6]]);
    ev.state("error", "session lost");
    now = at(12);
    m.tick();
    expect(written).toHaveLength(2); // nothing held while the session is gone
    ev.state("connected");
    ev.value(0, 7, at(12));
    now = at(14);
    m.tick();
    expect(written.at(-1)).toEqual(["ds7v1", slot(12), [7, 7]]);
    expect(logs).toContain("warn: Dev: connection error: session lost");
  });

  // The time a value is filed at is the manager's rule for every driver (not each driver's own
  // clamp): never in the future; for a held source never behind the held slots nor before the
  // connection. One test per driver kind.
  describe("time of a value", () => {
    it("MQTT: a payload timestamp a little ahead is filed now, not in a future slot", async () => {
      await m.update(source("mqtt"));
      ev.state("connected");
      now = at(2);
      ev.value(0, 5, now + 30_000);
      expect(live.get("ds7v1")).toEqual({ v: 5, t: slot(2) * P });
      now = at(3);
      m.tick();
      expect(written).toEqual([["ds7v1", slot(2), [5]]]);
      ev.value(0, 6, now + 61_000); // over a minute ahead stays a bad value
      expect(m.states()[0]!.Errors).toBe(1);
    });

    it("Modbus: a poll time ahead of the logger's clock is filed now", async () => {
      m.register("modbus", fake);
      const address = { Register: "holding", Address: 0, Type: "uint16", WordOrder: "big", ByteOrder: "big", Scale: 1, Offset: 0 };
      const vars = source("mqtt").Variables.map((v) => ({ ...v, Address: address }));
      await m.update(source("modbus" as Protocol, { Connection: { Host: "plc", Port: 502, UnitId: 1, TimeoutMs: 1000 } as never, Variables: vars as never }));
      ev.state("connected");
      now = at(1);
      ev.value(0, 3, at(40));
      expect(live.get("ds7v1")).toEqual({ v: 3, t: slot(1) * P });
      now = at(2);
      m.tick();
      expect(written).toEqual([["ds7v1", slot(1), [3]]]);
    });

    it("OPC UA: a value unchanged since before the connection, a late change and a server clock ahead all land in slots still open", async () => {
      await m.update(source("opcua"));
      now = at(2);
      ev.state("connected");
      ev.value(0, 4, T0 - 3_600_000); // source timestamp an hour old: the value held from the connection on
      now = at(5);
      m.tick();
      expect(written).toEqual([["ds7v1", slot(2), [4, 4, 4]]]);
      ev.value(0, 6, at(3)); // reported after slots 3 and 4 were already held: not lost behind them
      now = at(6);
      m.tick();
      expect(written.at(-1)).toEqual(["ds7v1", slot(5), [6]]);
      ev.value(0, 8, now + 20_000); // server clock ahead
      expect(live.get("ds7v1")).toEqual({ v: 8, t: slot(6) * P });
      expect(m.states()[0]!.Errors).toBe(0);
    });
  });

  it("stores nothing while the project is stopped and clears live values", async () => {
    await m.update(source("mqtt"));
    ev.value(0, 1, at(0));
    m.setRunning(false);
    expect(live.get("ds7v1")!.v).toBeNull();
    ev.value(0, 2, at(1));
    now = at(3);
    m.tick();
    expect(written).toEqual([]);
    expect(m.states()[0]!.Values).toBe(2);
    m.setRunning(true);
    ev.value(0, 3, at(3));
    now = at(5);
    m.tick();
    expect(written).toEqual([["ds7v1", slot(3), [3]]]);
  });

  it("writes outputs through the driver with a readable error, and survives a driver that throws", async () => {
    await m.update(source("mqtt"));
    await m.write("ds7v2", 12);
    expect(writes).toEqual([[1, 12]]);
    expect(live.get("ds7v2")!.v).toBe(12);
    await expect(m.write("ds7v2", 13)).rejects.toThrow("Writing Out to Dev failed: device refused 13");
    await expect(m.write("ds7v1", 1)).rejects.toThrow("Variable A is an input");
    m.register("mqtt", () => {
      throw new Error("broken driver");
    });
    await m.update(source("mqtt", { Name: "Dev 2" }));
    expect(m.states()[0]).toMatchObject({ State: "error", LastError: "broken driver" });
    await m.update(source("modbus" as Protocol, { Connection: { Host: "plc", Port: 502, UnitId: 1, TimeoutMs: 1000 } as never, Variables: [] }));
    expect(m.states()[0]).toMatchObject({ State: "error", LastError: "No driver for protocol modbus in this build" });
  });

  it("keeps history on a period change and on removal", async () => {
    await m.update(source("mqtt"));
    ev.value(0, 1, at(0));
    now = at(2);
    m.tick();
    await m.update(source("mqtt", { PeriodMs: 2 * P }));
    expect(store.source("ds7")!.PeriodUs).toBe(2 * P * 1000);
    expect(model.sources[0]!.PeriodUs).toBe(2 * P * 1000);
    now += 3 * P;
    ev.value(0, 5, now);
    now += 3 * P;
    m.tick();
    expect(written.at(-1)![2]).toEqual([5]);
    await m.update(source("mqtt", { PeriodMs: 2 * P, Variables: [source("mqtt").Variables[1]!] as never }));
    expect(model.variables.map((v) => v.Id)).toEqual(["ds7v2"]);
    expect(store.variable("ds7v1")).toBeDefined();
    await m.remove(7);
    expect(model).toEqual({ devices: [], sources: [], variables: [] });
    expect(store.variable("ds7v1")).toBeDefined();
    expect(m.states()).toEqual([]);
  });
});
