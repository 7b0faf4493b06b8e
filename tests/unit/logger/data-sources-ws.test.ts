import { createServer } from "node:http";
import { Aedes } from "aedes";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer, createWebSocketStream } from "ws";
import type { MqttDataSource } from "../../../logger/sources/config.ts";
import type { DriverEvents } from "../../../logger/sources/driver.ts";
import { mqttDriver } from "../../../logger/sources/mqtt.ts";

// The MQTT driver over WebSocket (ws://): an aedes broker behind a WebSocket server.

describe("MQTT driver over ws://", () => {
  let broker: Aedes;
  let http: ReturnType<typeof createServer>;
  let url = "";

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    http = createServer();
    const wss = new WebSocketServer({ server: http });
    wss.on("connection", (socket, req) => broker.handle(createWebSocketStream(socket), req));
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
    url = `ws://127.0.0.1:${(http.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
    await new Promise<void>((r) => broker.close(() => r()));
  });

  it("subscribes, reads JSON values with their timestamps and publishes an output", async () => {
    const values: [number, number, number][] = [];
    const states: string[] = [];
    let connected: () => void = () => {};
    const isConnected = new Promise<void>((r) => (connected = r));
    let gotValue: () => void = () => {};
    const hasValue = new Promise<void>((r) => (gotValue = r));
    const events: DriverEvents = {
      value: (i, v, t) => {
        values.push([i, v, t]);
        gotValue();
      },
      bad: () => {},
      state: (s) => {
        states.push(s);
        if (s === "connected") connected();
      },
    };
    const config: MqttDataSource = {
      ID: 1, Name: "WS", Protocol: "mqtt", Enabled: true, PeriodMs: 100,
      Connection: { Url: url, Username: "", ClientId: "ws-driver" },
      Variables: [
        { VariableId: "ds1v1", Name: "T", Unit: "", RangeMin: 0, RangeMax: 100, Precision: 1, Direction: "I", Address: { Topic: "plant/+/t", JsonPath: "v", TimestampPath: "at", Qos: 1 } },
        { VariableId: "ds1v2", Name: "S", Unit: "", RangeMin: 0, RangeMax: 100, Precision: 1, Direction: "O", Address: { Topic: "plant/set", JsonPath: "", TimestampPath: "", Qos: 1 } },
      ],
    };
    const driver = mqttDriver(config, events, { now: Date.now });
    const peer = mqtt.connect(url, { clientId: "ws-peer" });
    const peerConnected = new Promise<void>((r) => peer.once("connect", () => r()));
    try {
      driver.start();
      await isConnected;
      await peerConnected;
      const received = new Promise<string>((resolve) => peer.once("message", (_t, p) => resolve(p.toString())));
      await new Promise<void>((resolve, reject) => peer.subscribe("plant/set", { qos: 1 }, (err) => (err ? reject(err) : resolve())));
      // The driver's subscription is sent right after it connects; publish until it is taken.
      const t = Date.UTC(2026, 0, 2, 3, 4, 5);
      const again = setInterval(() => peer.publish("plant/7/t", JSON.stringify({ v: 12.5, at: new Date(t).toISOString() }), { qos: 1 }), 50);
      await hasValue;
      clearInterval(again);
      expect(values[0]).toEqual([0, 12.5, t]);
      await driver.write(1, 3);
      expect(await received).toBe("3");
      expect(states[0]).toBe("connecting");
    } finally {
      peer.end(true);
      await driver.stop();
    }
    // After stop() the driver reports nothing more.
    const n = states.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(states).toHaveLength(n);
  });
});
