import { createServer } from "node:net";
import type { Server, Socket } from "node:net";
import { Aedes } from "aedes";
import type { Client } from "aedes";
import mqtt from "mqtt";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, addUser, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";
import { variableIdOf } from "../../../logger/sources/config.ts";

// DataSourceAPI and the MQTT driver end to end inside one process: an aedes broker, a logger
// with the simulator off, a publisher and a subscriber.

const SECRET = "br0ker-Pa55word";
const PERIOD = 100;

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    last = v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function startBroker(): Promise<{ port: number; broker: Aedes; server: Server; clients: Map<string, Client>; close(): Promise<void> }> {
  const broker = await Aedes.createBroker();
  const clients = new Map<string, Client>();
  broker.on("client", (c) => clients.set(c.id, c));
  broker.on("clientDisconnect", (c) => clients.delete(c.id));
  broker.authenticate = (_client, username, password, done) => done(null, username === "logger" && password?.toString() === SECRET);
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    broker.handle(s);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    broker,
    server,
    clients,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => broker.close(() => r()));
    },
  };
}

describe("data sources over MQTT (aedes, simulator off)", () => {
  let lg: TestLogger;
  let admin: string;
  let viewer: string;
  let broker: Awaited<ReturnType<typeof startBroker>>;
  let pub: MqttClient;
  let sourceId = 0;
  const call = (method: string, params: unknown, token = admin) => rpc(lg.url, `DataSourceAPI.${method}`, params, token);
  async function rest(path: string, body: unknown, token = admin) {
    const res = await fetch(`${lg.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }
  const publish = (topic: string, payload: string, retain = false) =>
    new Promise<void>((resolve, reject) => pub.publish(topic, payload, { qos: 1, retain }, (err) => (err ? reject(err) : resolve())));
  const state = async () => (await call("GetState", {})).body.States.find((s: { ID: number }) => s.ID === sourceId);
  const liveOf = async (id: string) => (await rest("/online/data", { Variables: [id] })).body.Data as { Values: (number | null)[]; Timestamps: (number | null)[] };

  function source(extra: Record<string, unknown> = {}) {
    return {
      ID: -1,
      Name: "Cell broker",
      Protocol: "mqtt",
      Enabled: true,
      PeriodMs: PERIOD,
      Connection: { Url: `mqtt://127.0.0.1:${broker.port}`, Username: "logger", Password: SECRET, ClientId: "" },
      Variables: [
        { VariableId: "", Name: "Temperature", Unit: "°C", RangeMin: -20, RangeMax: 120, Precision: 1, Direction: "I", Address: { Topic: "cell/temp", JsonPath: "", TimestampPath: "", Qos: 1 } },
        { VariableId: "", Name: "Pressure", Unit: "bar", RangeMin: 0, RangeMax: 10, Precision: 2, Direction: "I", Address: { Topic: "cell/+/json", JsonPath: "data.values[1]", TimestampPath: "ts", Qos: 0 } },
        { VariableId: "", Name: "Setpoint", Unit: "°C", RangeMin: 0, RangeMax: 100, Precision: 1, Direction: "O", Address: { Topic: "cell/setpoint", JsonPath: "set.value", TimestampPath: "", Qos: 1 } },
      ],
      ...extra,
    };
  }

  beforeAll(async () => {
    broker = await startBroker();
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: false });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    viewer = (await addUser(lg.url, admin, "watcher", "Viewer")).token;
    pub = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { username: "logger", password: SECRET, reconnectPeriod: 100 });
    await new Promise<void>((r) => pub.once("connect", () => r()));
  });

  afterAll(async () => {
    pub?.end(true);
    await lg?.stop();
    await broker?.close();
  });

  it("refuses Start with nothing to acquire, then adds a source with its password write-only", async () => {
    const refusedStart = await rpc(lg.url, "ProjectAPI.Start", {}, admin);
    expect(refusedStart.status).toBe(400);
    expect(refusedStart.body.ReturnState.Description).toMatch(/no data source/);
    // A retained value is on the broker before the source exists: it is the first value.
    await publish("cell/temp", "19.5", true);

    const bad = await call("Set", { Source: source({ Connection: { Url: "http://nope", Username: "", ClientId: "" } }) });
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toBe("Invalid parameter Source.Connection.Url: Url must start with mqtt://, mqtts://, ws:// or wss:// and name a host");

    const added = await call("Set", { Source: source() });
    expect(added.status).toBe(200);
    const s = added.body.Source;
    sourceId = s.ID;
    expect(s).toMatchObject({ Name: "Cell broker", DeviceId: `ds${s.ID}`, Connection: { HasPassword: true, Username: "logger" } });
    expect(s.Variables.map((v: { VariableId: string }) => v.VariableId)).toEqual([variableIdOf(s.ID, 1), variableIdOf(s.ID, 2), variableIdOf(s.ID, 3)]);
    // The data contract's online variables carry a UUID Id, which clients parse as one.
    for (const v of s.Variables) expect(v.VariableId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(s.Variables.map((v: { VariableId: string }) => v.VariableId)).size).toBe(3);
    expect(JSON.stringify(added.body)).not.toContain(SECRET);
    expect(JSON.stringify((await call("List", {})).body)).not.toContain(SECRET);
    expect(JSON.stringify((await call("Get", { ID: s.ID })).body)).not.toContain(SECRET);

    // Viewers see the state, nothing else.
    for (const [m, p] of [["List", {}], ["Get", { ID: s.ID }], ["Set", { Source: source() }], ["Delete", { ID: s.ID }], ["Browse", { ID: s.ID }]] as const) {
      expect((await call(m, p, viewer)).status, m).toBe(403);
    }
    expect((await call("GetState", {}, viewer)).status).toBe(200);

    // The device is in the model and connects; the project runs.
    const devices = (await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body.Devices;
    expect(devices).toEqual([expect.objectContaining({ ID: `ds${s.ID}`, Name: "Cell broker", Type: "MQTT", IPAddress: "127.0.0.1", SourceId: `ds${s.ID}`, SampleRateHz: 10 })]);
    await until("connected", async () => (await state())?.State === "connected" && true);
    expect((await rpc(lg.url, "ProjectAPI.GetState", {}, admin)).body.State.Running).toBe(true);
    const dev = await until("device status", async () => (await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body.Devices[0].Connected && true);
    expect(dev).toBe(true);
  });

  it("takes the retained value first, then values on the grid into live and history", async () => {
    const temp = variableIdOf(sourceId, 1);
    const pressure = variableIdOf(sourceId, 2);
    const first = await until("retained value", async () => ((await liveOf(temp)).Values[0] === 19.5 ? true : undefined));
    expect(first).toBe(true);

    const t0 = Date.now();
    await publish("cell/temp", "21.25");
    const live = await until("live value", async () => {
      const l = await liveOf(temp);
      return l.Values[0] === 21.25 ? l : undefined;
    });
    // Live values carry the time of their slot.
    expect(live.Timestamps[0]! % PERIOD).toBe(0);
    expect(live.Timestamps[0]).toBeGreaterThanOrEqual(Math.floor(t0 / PERIOD) * PERIOD);

    // A payload timestamp places the value in its slot: 2 s ago (epoch seconds), ISO one slot later.
    const base = (Math.floor(Date.now() / PERIOD) - 20) * PERIOD;
    await publish("cell/a/json", JSON.stringify({ ts: base / 1000, data: { values: [0, 4.5] } }));
    await publish("cell/b/json", JSON.stringify({ ts: new Date(base + PERIOD + 30).toISOString(), data: { values: [0, 5.5] } }));
    // Same slot, later message: the last value within a slot wins.
    await publish("cell/b/json", JSON.stringify({ ts: new Date(base + PERIOD + 60).toISOString(), data: { values: [0, 6.5] } }));

    const hist = await until("history", async () => {
      const res = await rest("/history/data", { Start: base - 5 * PERIOD, End: base + 10 * PERIOD, Type: "absolute", Variables: [{ SID: `ds${sourceId}`, VID: pressure }] });
      const ts = res.body.Data?.[0]?.TimeSeries;
      return ts && (ts.Values[0] as (number | null)[]).filter((v) => v !== null).length === 2 ? ts : undefined;
    });
    const points = (hist.Timestamps as number[]).map((t, i) => [t, hist.Values[0][i]]).filter(([, v]) => v !== null);
    expect(points).toEqual([
      [base, 4.5],
      [base + PERIOD, 6.5],
    ]);
  });

  it("counts a bad payload and stores nothing for it", async () => {
    const before = await state();
    const temp = variableIdOf(sourceId, 1);
    await publish("cell/temp", "not a number");
    await publish("cell/a/json", "{broken");
    await until("errors counted", async () => ((await state()).Errors >= before.Errors + 2 ? true : undefined));
    expect((await liveOf(temp)).Values[0]).toBe(21.25);
    const trace = (await rpc(lg.url, "TraceAPI.GetEntries", { Level: "warn" }, admin)).body.Entries as { Component: string; Message: string }[];
    expect(trace.some((e) => e.Component === "datasource" && /bad values? not stored/.test(e.Message))).toBe(true);
  });

  it("publishes an output to the broker", async () => {
    const sub = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { username: "logger", password: SECRET });
    try {
      await new Promise<void>((r) => sub.once("connect", () => r()));
      await new Promise<void>((resolve, reject) => sub.subscribe("cell/setpoint", { qos: 1 }, (err) => (err ? reject(err) : resolve())));
      const got = new Promise<{ payload: string; retain: boolean }>((resolve) => sub.once("message", (_t, payload, packet) => resolve({ payload: payload.toString(), retain: packet.retain })));
      const w = await rest("/online/data", { Function: "write", Variables: [variableIdOf(sourceId, 3)], Values: [42.5] });
      expect(w.status).toBe(200);
      expect(await got).toEqual({ payload: JSON.stringify({ set: { value: 42.5 } }), retain: false });
      expect((await liveOf(variableIdOf(sourceId, 3))).Values[0]).toBe(42.5);
      // An input is not writable; an output out of range is refused before anything is sent.
      expect((await rest("/online/data", { Function: "write", Variables: [variableIdOf(sourceId, 1)], Values: [1] })).status).toBe(400);
      expect((await rest("/online/data", { Function: "write", Variables: [variableIdOf(sourceId, 3)], Values: [500] })).status).toBe(400);
    } finally {
      sub.end(true);
    }
  });

  it("stops storing while the project is stopped and starts again", async () => {
    const temp = variableIdOf(sourceId, 1);
    expect((await rpc(lg.url, "ProjectAPI.Stop", {}, admin)).body.State.Running).toBe(false);
    const stoppedAt = Date.now();
    await publish("cell/temp", "30");
    await until("value received while stopped", async () => ((await state()).LastValueTime >= stoppedAt ? true : undefined));
    expect((await liveOf(temp)).Values[0]).toBeNull();
    expect((await state()).State).toBe("connected");
    expect((await rpc(lg.url, "ProjectAPI.Start", {}, admin)).body.State.Running).toBe(true);
    const startedAt = Date.now();
    await publish("cell/temp", "31");
    await until("value after start", async () => ((await liveOf(temp)).Values[0] === 31 ? true : undefined));
    const res = await until("history after start", async () => {
      const r = await rest("/history/data", { Start: stoppedAt - PERIOD, End: Date.now() + PERIOD, Type: "absolute", Variables: [{ SID: `ds${sourceId}`, VID: temp }] });
      const vals = (r.body.Data[0].TimeSeries.Values[0] as (number | null)[]).filter((v) => v !== null);
      return vals.includes(31) ? r.body.Data[0].TimeSeries : undefined;
    });
    const stored = (res.Timestamps as number[]).map((t, i) => [t, res.Values[0][i]]).filter(([, v]) => v !== null);
    expect(stored.map(([, v]) => v)).not.toContain(30);
    expect(stored.every(([t]) => t >= Math.floor(startedAt / PERIOD) * PERIOD - PERIOD || t < stoppedAt)).toBe(true);
  });

  it("reconnects after the broker drops it and does not take the retained value again as new", async () => {
    const temp = variableIdOf(sourceId, 1);
    const resubscribed = new Promise<void>((resolve) =>
      broker.broker.on("subscribe", (_subs, client) => {
        if (client?.id.startsWith(`loggia-ds${sourceId}-`)) resolve();
      }),
    );
    const ours = [...broker.clients.values()].find((c) => c.id.startsWith(`loggia-ds${sourceId}-`));
    expect(ours).toBeDefined();
    const before = (await state()).Values;
    ours!.close();
    await resubscribed;
    // The broker sent the retained 19.5 on the new subscription, before this message.
    await publish("cell/temp", "32");
    await until("value after reconnect", async () => ((await liveOf(temp)).Values[0] === 32 ? true : undefined));
    // Only 32 was taken: the retained value resent on the new subscription was not counted as a value.
    expect((await state()).Values - before).toBe(1);
  });

  it("keeps the password on edits without one, audits without it, keeps variable ids and history on delete", async () => {
    const got = (await call("Get", { ID: sourceId })).body.Source;
    const edited = { ...got, Name: "Cell broker 2", Connection: { Url: got.Connection.Url, Username: "logger", ClientId: "" } };
    edited.Variables = [got.Variables[0], got.Variables[2], { ...got.Variables[1], VariableId: "", Name: "Pressure new" }];
    const res = await call("Set", { Source: edited });
    expect(res.status).toBe(200);
    expect(res.body.Source.Connection.HasPassword).toBe(true);
    expect(res.body.Source.Variables.map((v: { VariableId: string }) => v.VariableId)).toEqual([variableIdOf(sourceId, 1), variableIdOf(sourceId, 3), variableIdOf(sourceId, 4)]);
    await until("reconnected with the kept password", async () => (await state())?.State === "connected" && true);

    const foreign = await call("Set", { Source: { ...edited, Variables: [{ ...got.Variables[0], VariableId: "ds999v1" }] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.ReturnState.Description).toMatch(/^Invalid parameter Source\.Variables\.0\.VariableId: /);

    const cleared = await call("Set", { Source: { ...edited, Variables: res.body.Source.Variables, Connection: { ...edited.Connection, Password: "" } } });
    expect(cleared.body.Source.Connection.HasPassword).toBe(false);
    await until("refused without the password", async () => (await state())?.State === "error" && true);

    expect((await call("Delete", { ID: sourceId })).status).toBe(200);
    expect((await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body.Devices).toEqual([]);
    expect((await call("Get", { ID: sourceId })).status).toBe(404);
    // Its history stays readable by variable id.
    const hist = await rest("/history/data", { Start: Date.now() - 60_000, End: Date.now(), Type: "absolute", Variables: [{ SID: `ds${sourceId}`, VID: variableIdOf(sourceId, 1) }] });
    expect((hist.body.Data[0].TimeSeries.Values[0] as (number | null)[]).filter((v) => v !== null)).toContain(31);

    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" } }, admin);
    const texts = audit.body.Messages.map((m: { Text: string }) => m.Text) as string[];
    expect(texts).toContain("Added data source Cell broker (mqtt, 3 variables)");
    expect(texts.some((t) => t.startsWith("Changed data source Cell broker 2: renamed from Cell broker"))).toBe(true);
    expect(texts).toContain("Deleted data source Cell broker 2 (its history stays)");
    expect(JSON.stringify(audit.body)).not.toContain(SECRET);
    const trace = await rpc(lg.url, "TraceAPI.GetEntries", { Limit: 1000 }, admin);
    expect(JSON.stringify(trace.body)).not.toContain(SECRET);
  });
});
