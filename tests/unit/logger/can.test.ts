import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCapture } from "../../../logger/can/capture.ts";
import { decodeSignal, parseDbc, rawValue } from "../../../logger/can/dbc.ts";
import type { DbcSignal } from "../../../logger/can/dbc.ts";
import { CanFileError } from "../../../logger/can/frame.ts";
import { lastFrames, scanCapture, scanSimulation } from "../../../logger/can/scan.ts";
import { ADMIN_PASSWORD, login, rpc, sleep, start, tempDir } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

const FIXTURES = join(import.meta.dirname, "../../fixtures/can");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

function lineError(run: () => unknown): CanFileError {
  try {
    run();
  } catch (err) {
    if (err instanceof CanFileError) return err;
    throw err;
  }
  throw new Error("expected a CanFileError");
}

describe("capture files", () => {
  it("reads a candump log", () => {
    const c = parseCapture(fixture("test-capture.candump"));
    expect(c.format).toBe("candump");
    expect(c.frames).toHaveLength(5);
    expect(c.frames[0]).toEqual({ t: 1700000000000, id: 0x100, ext: false, data: Uint8Array.from([0x10, 0x27, 0x64, 0x10, 0x18, 0xfc, 0, 0]) });
    expect(c.frames[3]).toMatchObject({ id: 0x18fef100, ext: true });
  });

  it("reads the same frames from a Vector ASC file", () => {
    const asc = parseCapture(fixture("test-capture.asc"));
    const log = parseCapture(fixture("test-capture.candump"));
    expect(asc.format).toBe("asc");
    expect(asc.frames.map((f) => [f.id, f.ext, [...f.data]])).toEqual(log.frames.map((f) => [f.id, f.ext, [...f.data]]));
    expect(asc.frames.map((f) => Math.round(f.t))).toEqual([0, 10, 50, 100, 110]);
  });

  it("names the line of a malformed frame", () => {
    const err = lineError(() => parseCapture(fixture("bad-capture.candump")));
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/^Line 3: /);
    expect(lineError(() => parseCapture("(1.0) can0 123#ABC\n")).message).toMatch(/^Line 1: payload ABC is not whole hex bytes/);
    expect(lineError(() => parseCapture("   0.1 1 123 Rx d 8 01 02\n")).message).toMatch(/^Line 1: DLC 8 but only 2 data bytes/);
    expect(lineError(() => parseCapture("(1.0) can0 1234#00\n")).line).toBe(1);
    expect(lineError(() => parseCapture("\n\n")).message).toMatch(/no CAN frames/);
  });

  it("scans a capture: count, DLC, rate and the bytes that changed", () => {
    const rows = scanCapture(parseCapture(fixture("test-capture.candump")).frames);
    expect(rows.map((r) => r.id)).toEqual([0x100, 0x200, 0x18fef100]);
    const engine = rows[0]!;
    expect(engine).toMatchObject({ dlc: 8, count: 3 });
    expect(engine.rateHz).toBeCloseTo(2 / 0.11, 6);
    expect([...engine.last]).toEqual([0x28, 0x23, 0xc8, 0x18, 0xfc, 0xaa, 0, 0]);
    expect(engine.changed).toEqual([true, true, true, true, true, true, false, false]);
    expect(rows[1]).toMatchObject({ dlc: 4, count: 1, rateHz: null, changed: [false, false, false, false] });
  });
});

describe("DBC decoding", () => {
  const db = parseDbc(fixture("test.dbc"));
  const frames = lastFrames(parseCapture(fixture("test-capture.candump")).frames);
  const value = (message: string, signal: string) => {
    const m = db.messages.find((x) => x.name === message)!;
    const s = m.signals.find((x) => x.name === signal)!;
    return decodeSignal(s, frames.get(`${m.ext ? "x" : "s"}${m.id}`)!.data);
  };

  it("reads messages and signals (extended IDs without the DBC's bit 31)", () => {
    expect(db.messages.map((m) => [m.name, m.id, m.ext, m.dlc])).toEqual([
      ["EngineData", 256, false, 8],
      ["Temperatures", 512, false, 4],
      ["Heartbeat", 0x18fef100, true, 8],
    ]);
    expect(db.messages[0]!.signals[2]).toMatchObject({ name: "Torque", littleEndian: true, signed: true, factor: 0.1, min: -3276.8, max: 3276.7, unit: "Nm" });
  });

  // Expected values worked out by hand from the last frame of each ID in test-capture.candump.
  it("decodes the capture to the hand-computed values", () => {
    expect(value("EngineData", "EngineSpeed")).toBe(2250); // 0x2328 = 9000 × 0.25
    expect(value("EngineData", "Throttle")).toBeCloseTo(80, 9); // 0xC8 = 200 × 0.4
    expect(value("EngineData", "Torque")).toBeCloseTo(-100, 9); // 0xFC18 = −1000 × 0.1
    expect(value("Temperatures", "Coolant")).toBe(83); // 0x7B = 123 − 40
    expect(value("Temperatures", "OilPressure")).toBeCloseTo(4.18, 9); // big-endian 0x1A2 = 418 × 0.01
    expect(value("Heartbeat", "Counter")).toBe(5);
  });

  it("reads big-endian signals across bytes and signed values", () => {
    const s = (o: Partial<DbcSignal>): DbcSignal => ({ name: "x", startBit: 0, length: 8, littleEndian: true, signed: false, factor: 1, offset: 0, min: 0, max: 0, unit: "", ...o });
    const data = Uint8Array.from([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0]);
    expect(rawValue(s({ startBit: 7, length: 16, littleEndian: false }), data)).toBe(0x1234);
    expect(rawValue(s({ startBit: 3, length: 8, littleEndian: false }), data)).toBe(0x23);
    expect(rawValue(s({ startBit: 4, length: 12, littleEndian: true }), data)).toBe(0x341);
    expect(rawValue(s({ startBit: 32, length: 8, signed: true }), data)).toBe(0x9a - 256);
    expect(rawValue(s({ startBit: 0, length: 64 }), data)).toBe(Number(0xf0debc9a78563412n));
    expect(rawValue(s({ startBit: 56, length: 16 }), data)).toBeNull();
  });

  it("names the line of a malformed DBC file", () => {
    const err = lineError(() => parseDbc(fixture("bad.dbc")));
    expect(err.line).toBe(11);
    expect(lineError(() => parseDbc('VERSION ""\n\nBO_ 1 A: 8 X\n SG_ S : 0|8@1+ (1,0) [0|1] "" X\nTHIS IS NOT DBC\n')).line).toBe(5);
    expect(lineError(() => parseDbc('VERSION ""\n\nBO_ 1 A: 1 X\n SG_ S : 60|8@1+ (1,0) [0|1] "" X\n')).message).toMatch(/^Line 4: signal S does not fit/);
  });

  it("describes the simulated bus in docs/can/simulated-bus.dbc", () => {
    const sim = parseDbc(readFileSync(join(import.meta.dirname, "../../../docs/can/simulated-bus.dbc"), "utf8"));
    expect(sim.messages.map((m) => m.id)).toEqual([0x0c0, 0x1a0, 0x2f0, 0x3e8, 0x18fef100]);
  });
});

describe("simulated bus", () => {
  const since = Date.UTC(2026, 0, 1);
  const now = since + 60_000;

  it("is deterministic for a seed and differs between seeds", () => {
    const a = scanSimulation(1, since, now);
    expect(scanSimulation(1, since, now)).toEqual(a);
    expect(scanSimulation(2, since, now).map((r) => [...r.last])).not.toEqual(a.map((r) => [...r.last]));
  });

  it("sends five IDs at 10, 20 and 100 ms with changing and constant bytes", () => {
    const rows = scanSimulation(1, since, now);
    expect(rows.map((r) => [r.id.toString(16), r.ext, r.dlc, r.count, Math.round(r.rateHz!)])).toEqual([
      ["c0", false, 8, 6001, 100],
      ["1a0", false, 8, 3001, 50],
      ["2f0", false, 4, 601, 10],
      ["3e8", false, 2, 601, 10],
      ["18fef100", true, 8, 601, 10],
    ]);
    const engine = rows[0]!;
    expect(engine.changed.slice(0, 2)).toEqual([true, true]);
    expect(engine.changed.slice(5)).toEqual([false, false, false]);
    expect(rows[3]!.changed[0]).toBe(true); // the counter
    expect(rows[4]!.changed.every((c) => !c)).toBe(true);
  });

  it("decodes to plausible engine values with the simulated-bus DBC", () => {
    const sim = parseDbc(readFileSync(join(import.meta.dirname, "../../../docs/can/simulated-bus.dbc"), "utf8"));
    const rows = scanSimulation(7, since, now);
    const rpm = decodeSignal(sim.messages[0]!.signals[0]!, rows[0]!.last)!;
    expect(rpm).toBeGreaterThan(1400);
    expect(rpm).toBeLessThan(3400);
    const wheel = decodeSignal(sim.messages[1]!.signals[0]!, rows[1]!.last)!;
    expect(wheel).toBeGreaterThan(40);
    expect(wheel).toBeLessThan(85);
  });
});

describe("CANAPI over HTTP", () => {
  let logger: TestLogger;
  let token: string;
  const dataDir = tempDir();
  beforeAll(async () => {
    logger = await start({ dataDir, adminPassword: ADMIN_PASSWORD, simulator: { seed: 3 } });
    token = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(async () => {
    await logger.stop();
  });

  it("scans the simulated bus, then an uploaded capture", async () => {
    // The slowest simulated frame comes once a second: wait until each has been seen once
    // (a loaded machine may start the bus late), then the scan must list exactly these.
    let sim = await rpc(logger.url, "CANAPI.GetScan", {}, token);
    for (let i = 0; i < 100 && sim.body.Scan?.length < 5; i++) {
      await sleep(100);
      sim = await rpc(logger.url, "CANAPI.GetScan", {}, token);
    }
    expect(sim.status).toBe(200);
    expect(sim.body.Source.Kind).toBe("simulation");
    expect(sim.body.Scan.map((r: { IDHex: string }) => r.IDHex)).toEqual(["0C0", "1A0", "2F0", "3E8", "18FEF100"]);

    const bad = await rpc(logger.url, "CANAPI.UploadCapture", { FileName: "bad.log", Content: fixture("bad-capture.candump") }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState).toMatchObject({ Value: -6, Description: expect.stringMatching(/^Line 3: /) });

    const up = await rpc(logger.url, "CANAPI.UploadCapture", { FileName: "test-capture.candump", Content: fixture("test-capture.candump") }, token);
    expect(up.status).toBe(200);
    expect(up.body.Source).toMatchObject({ Kind: "capture", FileName: "test-capture.candump", Format: "candump", Frames: 5 });
    const scan = await rpc(logger.url, "CANAPI.GetScan", {}, token);
    expect(scan.body.Scan[0]).toMatchObject({ IDHex: "100", DLC: 8, Count: 3, Payload: "28 23 C8 18 FC AA 00 00" });
  });

  it("refuses anonymous callers", async () => {
    expect((await rpc(logger.url, "CANAPI.GetScan", {})).status).toBe(401);
  });

  it("decodes with an uploaded DBC and adds a signal as a variable that survives a restart", async () => {
    const bad = await rpc(logger.url, "CANAPI.UploadDatabase", { FileName: "bad.dbc", Content: fixture("bad.dbc") }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toMatch(/^Line 11: /);

    const up = await rpc(logger.url, "CANAPI.UploadDatabase", { FileName: "test.dbc", Content: fixture("test.dbc") }, token);
    expect(up.body.Database).toMatchObject({ FileName: "test.dbc", Messages: 3, Signals: 6 });
    const signals = (await rpc(logger.url, "CANAPI.GetSignals", {}, token)).body.Signals as { Name: string; Value: number }[];
    expect(Object.fromEntries(signals.map((s) => [s.Name, s.Value]))).toEqual({
      EngineSpeed: 2250, Throttle: expect.closeTo(80, 6), Torque: expect.closeTo(-100, 6), Coolant: 83, OilPressure: expect.closeTo(4.18, 6), Counter: 5,
    });

    const missing = await rpc(logger.url, "CANAPI.AddVariable", { Message: "EngineData", Signal: "Nope" }, token);
    expect(missing.status).toBe(404);
    const added = await rpc(logger.url, "CANAPI.AddVariable", { Message: "EngineData", Signal: "EngineSpeed" }, token);
    expect(added.body).toMatchObject({ Created: true, Variable: { Name: "EngineData.EngineSpeed", Unit: "rpm" } });
    const id = added.body.Variable.Id as string;
    const again = await rpc(logger.url, "CANAPI.AddVariable", { Message: "EngineData", Signal: "EngineSpeed" }, token);
    expect(again.body).toMatchObject({ Created: false, Variable: { Id: id } });

    const vars = await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(vars.Data.find((v: { Id: string }) => v.Id === id)).toMatchObject({ Name: "EngineData.EngineSpeed", Unit: "rpm", Direction: "I", Precision: 2, RangeMin: 0, RangeMax: 16383.75 });
    const devices = await rpc(logger.url, "DeviceAPI.GetDevices", {}, token);
    const can = devices.body.Devices.find((d: { Name: string }) => d.Name === "CAN bus");
    expect(can.Modules[0].Variables).toEqual([id]);
    const read = await (await fetch(`${logger.url}/online/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Variables: [id] }) })).json();
    expect(read.Data.Values).toEqual([2250]);
    // It is stored like any other variable: the history lists its source and answers for it.
    const sources = await (await fetch(`${logger.url}/history/structure/sources`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const source = sources.Data.find((s: { Name: string }) => s.Name === "CAN bus");
    expect(source).toMatchObject({ SampleRateHz: 10, Variables: [id] });
    const history = await (await fetch(`${logger.url}/history/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Start: -60_000, End: 0, Variables: [{ SID: source.Id, VID: id }], Points: 10 }) })).json();
    const values = (history.Data[0].TimeSeries.Values[0] as (number | null)[]).filter((v) => v !== null);
    expect(values.length).toBeGreaterThan(0);
    expect(new Set(values)).toEqual(new Set([2250]));

    await logger.close();
    logger = await start({ dataDir, adminPassword: ADMIN_PASSWORD, simulator: { seed: 3 } });
    token = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
    const after = await rpc(logger.url, "CANAPI.GetSignals", {}, token);
    expect(after.body.Database).toMatchObject({ FileName: "test.dbc" });
    expect(after.body.Signals.find((s: { Name: string }) => s.Name === "EngineSpeed").VariableId).toBe(id);
    const vars2 = await (await fetch(`${logger.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(vars2.Data.some((v: { Id: string }) => v.Id === id)).toBe(true);
  });
});

describe("a signal of the simulated bus as a variable", () => {
  let logger: TestLogger;
  let token: string;
  beforeAll(async () => {
    logger = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5 } });
    token = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
  });
  afterAll(async () => {
    await logger.stop();
  });

  it("is fed with the value decoded from the frame at each sample time", async () => {
    const dbcText = readFileSync(join(import.meta.dirname, "../../../docs/can/simulated-bus.dbc"), "utf8");
    await rpc(logger.url, "CANAPI.UploadDatabase", { FileName: "simulated-bus.dbc", Content: dbcText }, token);
    const added = await rpc(logger.url, "CANAPI.AddVariable", { Message: "WheelSpeeds", Signal: "WheelSpeedFL" }, token);
    const id = added.body.Variable.Id as string;
    const signal = parseDbc(dbcText).messages[1]!.signals[0]!;
    const { SIM_MESSAGES, simFrameAt } = await import("../../../logger/can/simbus.ts");
    const wheels = SIM_MESSAGES.find((m) => m.name === "WheelSpeeds")!;
    const read = await (await fetch(`${logger.url}/online/data`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ Variables: [id] }) })).json();
    const [value] = read.Data.Values as number[];
    const [t] = read.Data.Timestamps as number[];
    expect(t % 100).toBe(0);
    expect(value).toBeCloseTo(decodeSignal(signal, simFrameAt(5, wheels, t!).data)!, 4);
    expect(value).toBeGreaterThan(40);
  });
});
