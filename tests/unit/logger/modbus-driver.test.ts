import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ModbusAddress, ModbusDataSource, SourceVariable } from "../../../logger/sources/config.ts";
import { ModbusDriver } from "../../../logger/sources/modbus.ts";
import { recordEvents, testVariable } from "../../support/devices/driverEvents.ts";
import { freePort, startModbusServer } from "../../support/devices/modbusServer.ts";
import type { ModbusDevice } from "../../support/devices/modbusServer.ts";

// The Modbus TCP driver against a real Modbus TCP server (modbus-serial's ServerTCP), one per file.

let device: ModbusDevice;
const drivers: ModbusDriver[] = [];

beforeAll(async () => {
  device = await startModbusServer({ tickMs: 50 });
});
afterAll(async () => {
  await device.close();
});
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
});

const variable = (Name: string, a: Partial<ModbusAddress>, Direction: "I" | "O" | "IO" = "I"): SourceVariable<ModbusAddress> =>
  testVariable<ModbusAddress>(Name, { Register: "holding", Address: 0, Type: "uint16", WordOrder: "big", ByteOrder: "big", Scale: 1, Offset: 0, ...a }, Direction);

function source(vars: SourceVariable<ModbusAddress>[], o: { port?: number; PeriodMs?: number; TimeoutMs?: number } = {}): ModbusDataSource {
  return {
    ID: 1,
    Name: "PLC",
    Protocol: "modbus",
    Enabled: true,
    PeriodMs: o.PeriodMs ?? 50,
    Connection: { Host: "127.0.0.1", Port: o.port ?? device.port, UnitId: 1, TimeoutMs: o.TimeoutMs ?? 500 },
    Variables: vars,
  };
}

function run(config: ModbusDataSource) {
  const rec = recordEvents();
  const driver = new ModbusDriver(config, rec.events, { now: Date.now });
  drivers.push(driver);
  driver.start();
  return { rec, driver };
}

describe("Modbus TCP driver", () => {
  it("decodes every type and order, and reads contiguous registers in one request", async () => {
    // 0x12345678 as ABCD at 200, CDAB at 202, BADC at 204; float32 1.5 at 206; float64 -2.25 at 208;
    // int16 -2 at 212, uint16 65534 at 213, int32 -123 at 214.
    device.setRegisters("holding", 200, [0x1234, 0x5678, 0x5678, 0x1234, 0x3412, 0x7856, 0x3fc0, 0x0000, 0xc002, 0x0000, 0x0000, 0x0000, 0xfffe, 0xfffe, 0xffff, 0xff85]);
    const vars = [
      variable("abcd", { Address: 200, Type: "uint32" }),
      variable("cdab", { Address: 202, Type: "uint32", WordOrder: "little" }),
      variable("badc", { Address: 204, Type: "uint32", ByteOrder: "little" }),
      variable("f32", { Address: 206, Type: "float32", Scale: 2, Offset: 1 }),
      variable("f64", { Address: 208, Type: "float64" }),
      variable("i16", { Address: 212, Type: "int16" }),
      variable("u16", { Address: 213, Type: "uint16" }),
      variable("i32", { Address: 214, Type: "int32" }),
    ];
    const before = device.requests.length;
    const { rec, driver } = run(source(vars));
    await vi.waitFor(() => expect(rec.values.filter((v) => v.index === 7).length).toBeGreaterThanOrEqual(3), { timeout: 5000, interval: 20 });
    expect(rec.state()).toBe("connected");
    expect(vars.map((_, i) => rec.last(i))).toEqual([0x12345678, 0x12345678, 0x12345678, 4, -2.25, -2, 65534, -123]);
    // one FC3 request of 16 registers per poll, nothing else
    const mine = device.requests.slice(before);
    expect(driver.requests).toHaveLength(1);
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine.every((r) => r.fc === 3 && r.start === 200 && r.count === 16)).toBe(true);
    // every value of a poll carries the start of the slot the poll began in, on the period's grid
    const times = rec.values.filter((v) => v.index === 0).map((v) => v.timeMs);
    expect(rec.values.filter((v) => v.index === 7).map((v) => v.timeMs)).toEqual(times.slice(0, rec.valuesOf(7).length));
    for (const t of times) expect(t % 50).toBe(0);
    expect(new Set(times).size).toBe(times.length);
    expect(rec.bad).toEqual([]);
  });

  it("reads changing values from holding, input, coil and discrete registers", async () => {
    const { rec } = run(
      source([
        variable("sine", { Address: 0, Type: "float32" }),
        variable("counter", { Register: "input", Address: 0 }),
        variable("coil", { Register: "coil", Address: 3 }),
        variable("toggle", { Register: "discrete", Address: 0 }),
      ]),
    );
    await vi.waitFor(
      () => {
        const counts = rec.valuesOf(1);
        expect(new Set(counts).size).toBeGreaterThanOrEqual(3);
        expect(new Set(rec.valuesOf(0)).size).toBeGreaterThanOrEqual(3);
      },
      { timeout: 5000, interval: 20 },
    );
    expect(rec.valuesOf(0).every((v) => v >= -10 && v <= 10)).toBe(true);
    expect(new Set(rec.valuesOf(2)).size).toBe(1);
    expect([0, 1]).toContain(rec.last(3));
  });

  it("writes holding registers (FC6 for one register, FC16 for several) and coils (FC5)", async () => {
    const { rec, driver } = run(
      source([
        variable("setpoint", { Address: 100, Type: "uint16", Scale: 0.5 }, "O"),
        variable("limit", { Address: 102, Type: "float32", WordOrder: "little" }, "IO"),
        variable("valve", { Register: "coil", Address: 5 }, "O"),
        variable("input", { Register: "input", Address: 0 }),
      ]),
    );
    await vi.waitFor(() => expect(rec.state()).toBe("connected"), { timeout: 5000, interval: 20 });
    const before = device.requests.length;
    const writes = device.writes.length;
    await driver.write(0, 21);
    await driver.write(1, 1.5);
    await driver.write(2, 1);
    expect(device.writes.slice(writes)).toEqual([
      { kind: "register", address: 100, values: [42] },
      { kind: "register", address: 102, values: [0x0000, 0x3fc0] },
      { kind: "coil", address: 5, values: [1] },
    ]);
    expect(device.requests.slice(before).filter((r) => r.fc !== 4 && r.fc !== 3).map((r) => r.fc)).toEqual([6, 16, 5]);
    // the IO variable reads back what was written
    await vi.waitFor(() => expect(rec.last(1)).toBe(1.5), { timeout: 5000, interval: 20 });
    await expect(driver.write(3, 1)).rejects.toThrow(/input, not an output/);
    await expect(driver.write(0, 1e9)).rejects.toThrow(/outside the uint16 range/);
  });

  it("a Modbus exception answer is a readable error naming the exception", async () => {
    const { rec } = run(source([variable("missing", { Address: 5000 })]));
    await vi.waitFor(() => expect(rec.state()).toBe("error"), { timeout: 5000, interval: 20 });
    expect(rec.states.at(-1)?.error).toMatch(/^Modbus exception 2 \(Illegal data address\)/);
    expect(rec.bad[0]?.index).toBe(0);
  });

  it("connection refused is an error and the driver connects by itself once the device is there", async () => {
    const port = await freePort();
    const { rec } = run(source([variable("counter", { Register: "input", Address: 0 })], { port }));
    await vi.waitFor(() => expect(rec.state()).toBe("error"), { timeout: 5000, interval: 20 });
    expect(rec.states.at(-1)?.error).toBe(`Connection refused by 127.0.0.1:${port}`);
    const late = await startModbusServer({ port, tickMs: 50 });
    try {
      await vi.waitFor(() => expect(rec.valuesOf(0).length).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
      expect(rec.state()).toBe("connected");
    } finally {
      await late.close();
    }
  });

  it("a device that accepts the connection but never answers is a timeout error", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const { rec } = run(source([variable("counter", { Register: "input", Address: 0 })], { port, TimeoutMs: 200 }));
      await vi.waitFor(() => expect(rec.state()).toBe("error"), { timeout: 5000, interval: 20 });
      expect(rec.states.at(-1)?.error).toBe(`No answer from 127.0.0.1:${port} (timeout)`);
      expect(rec.values).toEqual([]);
    } finally {
      silent.close();
    }
  });

  it("server stops → error state; it returns → values flow again without restarting the driver", async () => {
    const port = await freePort();
    const dev = await startModbusServer({ port, tickMs: 50 });
    try {
      const { rec } = run(source([variable("counter", { Register: "input", Address: 0 })], { port }));
      await vi.waitFor(() => expect(rec.valuesOf(0).length).toBeGreaterThan(2), { timeout: 5000, interval: 20 });
      await dev.stop();
      await vi.waitFor(() => expect(rec.state()).toBe("error"), { timeout: 5000, interval: 20 });
      expect(rec.states.at(-1)?.error).toMatch(/127\.0\.0\.1:\d+/);
      const seen = rec.values.length;
      await dev.start();
      await vi.waitFor(() => expect(rec.values.length).toBeGreaterThan(seen + 2), { timeout: 10_000, interval: 20 });
      expect(rec.state()).toBe("connected");
      // (while the device is away the error text may change: connection closed, then refused)
      expect(rec.states.map((s) => s.state).filter((s, i, all) => s !== all[i - 1])).toEqual(["connecting", "connected", "error", "connected"]);
    } finally {
      await dev.close();
    }
  });

  it("a connection cut while a request is in flight does not hold up the next connection's polls", async () => {
    // The first device takes the request and drops the connection without an answer: the
    // library then cancels that request's timeout and never settles it. Before, it held the
    // driver's request queue for good: "connected" again, and never another value.
    const port = await freePort();
    let cut = 0;
    const cutter = createServer((socket) => socket.once("data", () => (cut++, socket.destroy())));
    await new Promise<void>((resolve) => cutter.listen(port, "127.0.0.1", resolve));
    const { rec } = run(source([variable("counter", { Register: "input", Address: 0 })], { port }));
    await vi.waitFor(() => expect(cut).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
    await new Promise<void>((resolve) => cutter.close(() => resolve()));
    const dev = await startModbusServer({ port, tickMs: 50 });
    try {
      await vi.waitFor(() => expect(rec.valuesOf(0).length).toBeGreaterThan(2), { timeout: 10_000, interval: 20 });
      expect(rec.state()).toBe("connected");
    } finally {
      await dev.close();
    }
  });

  it("stop() ends polling and the connection", async () => {
    const { rec, driver } = run(source([variable("counter", { Register: "input", Address: 0 })]));
    await vi.waitFor(() => expect(rec.values.length).toBeGreaterThan(1), { timeout: 5000, interval: 20 });
    await driver.stop();
    const n = rec.values.length;
    const polls = device.requests.length;
    await new Promise((r) => setTimeout(r, 200)); // four periods: a running driver would have polled
    expect(rec.values.length).toBe(n);
    expect(device.requests.length).toBe(polls);
    await expect(driver.write(0, 1)).rejects.toThrow();
  });
});
