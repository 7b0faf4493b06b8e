import { describe, expect, it } from "vitest";
import { DataSourceInput, pathSteps, viewOf } from "../../../logger/sources/config.ts";
import type { DataSource } from "../../../logger/sources/config.ts";
import { numberAt, payloadFor, plainNumber, timeAt, topicMatches } from "../../../logger/sources/payload.ts";

describe("MQTT payloads", () => {
  it("reads plain numbers and refuses anything else", () => {
    expect(plainNumber(" 21.5\n")).toEqual({ ok: true, value: 21.5 });
    expect(plainNumber("-3e2")).toEqual({ ok: true, value: -300 });
    expect(plainNumber("true")).toEqual({ ok: true, value: 1 });
    expect(plainNumber("")).toMatchObject({ ok: false });
    expect(plainNumber("12 volts")).toMatchObject({ ok: false, reason: expect.stringContaining("not a number") });
    expect(plainNumber("0x10")).toMatchObject({ ok: false });
  });

  it("follows dotted JSON paths with array indices", () => {
    const doc = { data: { temp: 21.25, values: [1, 2, { x: "7.5" }] }, ok: true, s: "n/a", n: null };
    expect(pathSteps("data.values[2].x")).toEqual(["data", "values", 2, "x"]);
    expect(numberAt(doc, "data.temp")).toEqual({ ok: true, value: 21.25 });
    expect(numberAt(doc, "data.values[1]")).toEqual({ ok: true, value: 2 });
    expect(numberAt(doc, "data.values[2].x")).toEqual({ ok: true, value: 7.5 });
    expect(numberAt(doc, "ok")).toEqual({ ok: true, value: 1 });
    expect(numberAt([[0, 4]], "[0][1]")).toEqual({ ok: true, value: 4 });
    expect(numberAt(doc, "data.missing")).toMatchObject({ ok: false, reason: "JSON path data.missing not found in the payload" });
    expect(numberAt(doc, "data.values[9]")).toMatchObject({ ok: false });
    expect(numberAt(doc, "s")).toMatchObject({ ok: false });
    expect(numberAt(doc, "n")).toMatchObject({ ok: false, reason: expect.stringContaining("null") });
    expect(numberAt(doc, "data")).toMatchObject({ ok: false, reason: expect.stringContaining("object") });
    // Inherited properties are not paths into the payload.
    expect(numberAt({}, "constructor")).toMatchObject({ ok: false });
  });

  it("reads timestamps as epoch ms, epoch s or ISO-8601", () => {
    const ms = Date.UTC(2026, 10, 24, 1, 2, 3, 456);
    expect(timeAt({ t: ms }, "t")).toEqual({ ok: true, value: ms });
    expect(timeAt({ t: ms / 1000 }, "t")).toEqual({ ok: true, value: ms });
    expect(timeAt({ t: String(ms) }, "t")).toEqual({ ok: true, value: ms });
    expect(timeAt({ t: "2026-11-24T01:02:03.456Z" }, "t")).toEqual({ ok: true, value: ms });
    expect(timeAt({ t: "2026-11-24T02:02:03.456+01:00" }, "t")).toEqual({ ok: true, value: ms });
    expect(timeAt({ t: "March 7" }, "t")).toMatchObject({ ok: false });
    expect(timeAt({ t: -5 }, "t")).toMatchObject({ ok: false });
    expect(timeAt({}, "t")).toMatchObject({ ok: false, reason: "Timestamp path t not found in the payload" });
  });

  it("builds output payloads and matches topic filters", () => {
    expect(payloadFor(1.5, "")).toBe("1.5");
    expect(JSON.parse(payloadFor(2, "set.value"))).toEqual({ set: { value: 2 } });
    expect(JSON.parse(payloadFor(3, "a[1]"))).toEqual({ a: [null, 3] });
    expect(topicMatches("cell/+/temp", "cell/a/temp")).toBe(true);
    expect(topicMatches("cell/+/temp", "cell/a/b/temp")).toBe(false);
    expect(topicMatches("cell/#", "cell")).toBe(true);
    expect(topicMatches("cell/#", "cell/a/b")).toBe(true);
    expect(topicMatches("#", "$SYS/broker")).toBe(false);
    expect(topicMatches("cell/temp", "cell/temp2")).toBe(false);
  });
});

describe("stored config", () => {
  const mqtt = (extra: Record<string, unknown> = {}) => ({
    Name: "Broker",
    Protocol: "mqtt",
    PeriodMs: 100,
    Connection: { Url: "mqtt://127.0.0.1:1883" },
    Variables: [{ Name: "Temp", Address: { Topic: "cell/temp" } }],
    ...extra,
  });
  const issues = (x: unknown) => {
    const r = DataSourceInput.safeParse(x);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("fills defaults and names the field of every problem", () => {
    const ok = DataSourceInput.parse(mqtt());
    expect(ok).toMatchObject({ ID: -1, Enabled: true, Variables: [{ VariableId: "", Direction: "I", Address: { JsonPath: "", TimestampPath: "", Qos: 0 } }] });
    expect(issues(mqtt({ Connection: { Url: "http://x" } }))).toEqual(["Connection.Url: Url must start with mqtt://, mqtts://, ws:// or wss:// and name a host"]);
    expect(issues(mqtt({ PeriodMs: 5 }))).toEqual(["PeriodMs: PeriodMs must be at least 10"]);
    expect(issues(mqtt({ Protocol: "can" }))).toEqual(["Protocol: Protocol must be mqtt, modbus or opcua"]);
    expect(issues(mqtt({ Variables: [{ Name: "Set", Direction: "O", Address: { Topic: "cell/+/set" } }] }))).toEqual([
      "Variables.0.Address.Topic: Topic of an output must not contain the wildcards + or #",
    ]);
    expect(issues(mqtt({ Variables: [{ Name: "T", Address: { Topic: "cell/#/x" } }] }))).toEqual(["Variables.0.Address.Topic: Topic wildcard # must be the last level"]);
    expect(issues(mqtt({ Variables: [{ Name: "T", Address: { Topic: "a", JsonPath: "data..x" } }] }))[0]).toMatch(/^Variables\.0\.Address\.JsonPath: /);
    expect(issues(mqtt({ Variables: [{ Name: "T", RangeMin: 5, RangeMax: 5, Address: { Topic: "a" } }] }))).toEqual(["Variables.0.RangeMax: RangeMax must be greater than RangeMin"]);
    const modbus = { Name: "PLC", Protocol: "modbus", PeriodMs: 100, Connection: { Host: "plc" }, Variables: [{ Name: "In", Direction: "O", Address: { Register: "input", Address: 0 } }] };
    expect(issues(modbus)).toEqual(["Variables.0.Address.Register: Register input is read-only: an output needs holding or coil"]);
    const opcua = { Name: "M", Protocol: "opcua", PeriodMs: 100, Connection: { Endpoint: "opc.tcp://m:4840", SecurityMode: "Sign" }, Variables: [] };
    expect(issues(opcua)).toEqual(["Connection.SecurityPolicy: SecurityPolicy must be None exactly when SecurityMode is None"]);
  });

  it("answers HasPassword, never the password", () => {
    const s = { ...DataSourceInput.parse(mqtt({ Connection: { Url: "mqtt://h", Password: "s3cret" } })), ID: 4 } as DataSource;
    const view = viewOf(s);
    expect(JSON.stringify(view)).not.toContain("s3cret");
    expect(view).toMatchObject({ DeviceId: "ds4", Connection: { HasPassword: true } });
  });
});
