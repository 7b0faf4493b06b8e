import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClientSubscriptionImpl } from "node-opcua-client/dist/private/client_subscription_impl.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { OpcuaAddress, OpcuaConnection, OpcuaDataSource, SourceVariable } from "../../../logger/sources/config.ts";
import { browseOpcua, OpcuaDriver, setOpcuaPkiFolder } from "../../../logger/sources/opcua.ts";
import { recordEvents, testVariable } from "../../support/devices/driverEvents.ts";
import { freePort } from "../../support/devices/modbusServer.ts";
import { OPCUA_USER, startOpcuaServer } from "../../support/devices/opcuaServer.ts";
import type { OpcuaDevice } from "../../support/devices/opcuaServer.ts";

// The OPC UA driver and browse against a real node-opcua server (one for the whole file: it takes
// a second or two to start). The client's PKI goes to a fresh folder, as on a first start.

let device: OpcuaDevice;
let pki: string;
const drivers: OpcuaDriver[] = [];

beforeAll(async () => {
  pki = mkdtempSync(join(tmpdir(), "loggia-opcua-test-pki-"));
  setOpcuaPkiFolder(pki);
  device = await startOpcuaServer({ tickMs: 50 });
}, 30_000);
afterAll(async () => {
  await device?.close();
  rmSync(pki, { recursive: true, force: true });
}, 30_000);
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
});

const anonymous = (): OpcuaConnection => ({ Endpoint: device.endpoint, SecurityMode: "None", SecurityPolicy: "None", Auth: "anonymous", Username: "" });

const variable = (Name: string, NodeId: string, Direction: "I" | "O" | "IO" = "I"): SourceVariable<OpcuaAddress> => testVariable<OpcuaAddress>(Name, { NodeId }, Direction);

function run(vars: SourceVariable<OpcuaAddress>[], connection: OpcuaConnection & { Password?: string } = anonymous(), PeriodMs = 100) {
  const config: OpcuaDataSource = { ID: 2, Name: "Cell", Protocol: "opcua", Enabled: true, PeriodMs, Connection: connection, Variables: vars };
  const rec = recordEvents();
  const driver = new OpcuaDriver(config, rec.events, { now: Date.now });
  drivers.push(driver);
  driver.start();
  return { rec, driver };
}

const until = (f: () => void, timeout = 10_000) => vi.waitFor(f, { timeout, interval: 25 });

describe("OPC UA driver", () => {
  it("reports connected once subscribed; changing values arrive with their time; bad status and unknown nodes are bad values", async () => {
    const { rec } = run([
      variable("Temperature", "ns=1;s=Cell.Temperature"),
      variable("Counter", "ns=1;s=Cell.Counter"),
      variable("Faulty", "ns=1;s=Cell.Faulty"),
      variable("Missing", "ns=1;s=Cell.Nothing"),
      variable("Nonsense", "not a node id"),
    ]);
    await until(() => expect(new Set(rec.valuesOf(1)).size).toBeGreaterThanOrEqual(5));
    // A node's bad status comes with its own first notification, which a loaded machine can
    // deliver after the counter's fifth value (a full run saw Faulty's come later): waited for too.
    await until(() => expect(rec.bad.map((b) => b.index)).toEqual(expect.arrayContaining([2, 3, 4])));
    expect(rec.states.map((s) => s.state)).toEqual(["connecting", "connected"]);
    const temps = rec.valuesOf(0);
    expect(temps.every((t) => t >= 15 && t <= 25)).toBe(true);
    const counts = rec.valuesOf(1);
    expect(counts.slice(1).every((c, i) => c > counts[i]!)).toBe(true);
    const now = Date.now();
    expect(rec.values.every((v) => v.timeMs <= now && v.timeMs > now - 10_000)).toBe(true);
    expect(rec.values.some((v) => v.index >= 2)).toBe(false);
    expect(rec.bad).toEqual(
      expect.arrayContaining([
        { index: 2, reason: "Faulty: BadSensorFailure" },
        { index: 3, reason: "Missing: ns=1;s=Cell.Nothing: BadNodeIdUnknown" },
        { index: 4, reason: "Nonsense: not a node id is not a valid NodeId" },
      ]),
    );
  });

  it("a node that never changes is read once when its first notification is lost", async () => {
    // The client stack drops the first data-change notification of the subscription (as a lost
    // publish answer would): Setpoint and Faulty never send another one.
    type Notified = { __on_publish_response_DataChangeNotification(n: unknown): void };
    const proto = ClientSubscriptionImpl.prototype as unknown as Notified;
    const deliver = proto.__on_publish_response_DataChangeNotification;
    let dropped = 0;
    const spy = vi.spyOn(proto, "__on_publish_response_DataChangeNotification").mockImplementation(function (this: Notified, n) {
      if (dropped++ > 0) deliver.call(this, n);
    });
    try {
      const { rec } = run([variable("Setpoint", "ns=1;s=Cell.Setpoint"), variable("Faulty", "ns=1;s=Cell.Faulty"), variable("Counter", "ns=1;s=Cell.Counter")]);
      await until(() => expect(rec.valuesOf(0)).toEqual([device.writes.at(-1)?.value ?? 50]));
      await until(() => expect(rec.bad).toEqual([{ index: 1, reason: "Faulty: BadSensorFailure" }]));
      expect(dropped).toBeGreaterThan(1);
      expect(rec.valuesOf(2).length).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
  });

  it("writes an output with the node's data type; inputs and read-only nodes are refused", async () => {
    const { rec, driver } = run([variable("Setpoint", "ns=1;s=Cell.Setpoint", "IO"), variable("Counter", "ns=1;s=Cell.Counter"), variable("Pressure", "ns=1;s=Cell.Pressure", "O")]);
    await until(() => expect(rec.state()).toBe("connected"));
    const before = device.writes.length;
    await driver.write(0, 42.5);
    expect(device.writes.slice(before)).toEqual([{ nodeId: "ns=1;s=Cell.Setpoint", value: 42.5 }]);
    await until(() => expect(rec.last(0)).toBe(42.5));
    await expect(driver.write(1, 1)).rejects.toThrow("Counter is an input, not an output");
    await expect(driver.write(2, 1)).rejects.toThrow(/Writing Pressure: the server answered Bad(NotWritable|UserAccessDenied)/);
  });

  it("connects with SignAndEncrypt / Basic256Sha256 and a user name and password; a wrong password is a readable error", async () => {
    const secure = { ...anonymous(), SecurityMode: "SignAndEncrypt", SecurityPolicy: "Basic256Sha256", Auth: "user", Username: OPCUA_USER.username } as const;
    const { rec } = run([variable("Counter", "ns=1;s=Cell.Counter")], { ...secure, Password: OPCUA_USER.password });
    await until(() => expect(rec.valuesOf(0).length).toBeGreaterThan(2), 20_000);
    expect(rec.state()).toBe("connected");
    const wrong = run([variable("Counter", "ns=1;s=Cell.Counter")], { ...secure, Password: "wrong" });
    await until(() => expect(wrong.rec.state()).toBe("error"), 20_000);
    expect(wrong.rec.states.at(-1)?.error).toBe(`${device.endpoint} refused the sign-in (user name or password)`);
    expect(JSON.stringify(wrong.rec.states)).not.toContain("wrong");
  });

  it("requires the server certificate the operator checked: another fingerprint is refused before signing in; the right one connects", async () => {
    const secure = { ...anonymous(), SecurityMode: "Sign", SecurityPolicy: "Basic256Sha256", Auth: "user", Username: OPCUA_USER.username, Password: OPCUA_USER.password } as const;
    const { fingerprint } = await browseOpcua(secure, "");
    expect(fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const other = "00:".repeat(31) + "00";
    const wrong = run([variable("Counter", "ns=1;s=Cell.Counter")], { ...secure, Trust: "fingerprint", Fingerprint: other });
    await until(() => expect(wrong.rec.state()).toBe("error"), 20_000);
    expect(wrong.rec.states.at(-1)?.error).toBe(`The certificate of ${device.endpoint} is not trusted (fingerprint ${fingerprint}, expected ${other})`);
    const right = run([variable("Counter", "ns=1;s=Cell.Counter")], { ...secure, Trust: "fingerprint", Fingerprint: fingerprint! });
    await until(() => expect(right.rec.valuesOf(0).length).toBeGreaterThan(1), 20_000);
    expect(right.rec.state()).toBe("connected");
  });

  it("connection refused is a readable error", async () => {
    const port = await freePort();
    const { rec } = run([variable("Counter", "ns=1;s=Cell.Counter")], { ...anonymous(), Endpoint: `opc.tcp://127.0.0.1:${port}` });
    await until(() => expect(rec.state()).toBe("error"));
    expect(rec.states.at(-1)?.error).toBe(`Connection refused by opc.tcp://127.0.0.1:${port}`);
  });
});

describe("OPC UA browse", () => {
  it("lists the Objects folder and a folder's variables with units, ranges, data types and write access", async () => {
    const { nodes: top } = await browseOpcua(anonymous(), "");
    expect(top).toEqual(expect.arrayContaining([{ NodeId: "ns=1;s=Cell", DisplayName: "Cell", NodeClass: "Object", HasChildren: true }]));
    expect(top.find((n) => n.DisplayName === "Server")?.HasChildren).toBe(true);
    const { nodes: cell } = await browseOpcua(anonymous(), "ns=1;s=Cell");
    const by = Object.fromEntries(cell.map((n) => [n.DisplayName, n]));
    expect(by.Temperature).toEqual({ NodeId: "ns=1;s=Cell.Temperature", DisplayName: "Temperature", NodeClass: "Variable", HasChildren: false, DataType: "Double", Unit: "°C", RangeMin: 0, RangeMax: 100, Writable: false });
    expect(by.Setpoint).toMatchObject({ Writable: true, Unit: "°C", RangeMin: 0, RangeMax: 100 });
    expect(by.Pressure).toMatchObject({ Unit: "bar", RangeMin: 0, RangeMax: 10 });
    expect(by.Counter).toEqual({ NodeId: "ns=1;s=Cell.Counter", DisplayName: "Counter", NodeClass: "Variable", HasChildren: false, DataType: "UInt32", Writable: false });
    expect(by.Motor).toMatchObject({ NodeId: "ns=1;s=Cell.Motor", NodeClass: "Object", HasChildren: true });
    const { nodes: motor } = await browseOpcua(anonymous(), "ns=1;s=Cell.Motor");
    expect(motor).toEqual([expect.objectContaining({ DisplayName: "Speed", RangeMin: 0, RangeMax: 3000, DataType: "Double" })]);
  });

  it("works on a secure endpoint with a user, and fails readably", async () => {
    const secure = { ...anonymous(), SecurityMode: "Sign", SecurityPolicy: "Aes128_Sha256_RsaOaep", Auth: "user", Username: OPCUA_USER.username, Password: OPCUA_USER.password } as const;
    const browsed = await browseOpcua(secure, "ns=1;s=Cell");
    expect(browsed.nodes.map((n) => n.DisplayName)).toContain("Temperature");
    // The server's certificate, for the operator to check and require (decision 0010).
    expect(browsed.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect((await browseOpcua(anonymous(), "ns=1;s=Cell")).fingerprint).toBeNull();
    await expect(browseOpcua(anonymous(), "ns=x;q=1")).rejects.toThrow(/NodeId ns=x;q=1 is not valid/);
    await expect(browseOpcua(anonymous(), "ns=1;s=Cell.Nothing")).rejects.toThrow("Cannot browse ns=1;s=Cell.Nothing: BadNodeIdUnknown");
    const port = await freePort();
    await expect(browseOpcua({ ...anonymous(), Endpoint: `opc.tcp://127.0.0.1:${port}` }, "")).rejects.toThrow(`Connection refused by opc.tcp://127.0.0.1:${port}`);
  });
});

describe("OPC UA device restart", () => {
  it("server stops → error; it returns → a new session and subscription, values flow again without restarting the driver", async () => {
    const { rec } = run([variable("Counter", "ns=1;s=Cell.Counter")]);
    await until(() => expect(rec.valuesOf(0).length).toBeGreaterThan(2));
    await device.stop();
    await until(() => expect(rec.state()).toBe("error"));
    expect(rec.states.at(-1)?.error).toContain(device.endpoint);
    const seen = rec.values.length;
    await device.start();
    await until(() => expect(rec.values.length).toBeGreaterThan(seen + 3), 20_000);
    expect(rec.state()).toBe("connected");
    // (while the device is away the error text may change: connection lost, then refused)
    expect(rec.states.map((s) => s.state).filter((s, i, all) => s !== all[i - 1])).toEqual(["connecting", "connected", "error", "connected"]);
  }, 40_000);
});
