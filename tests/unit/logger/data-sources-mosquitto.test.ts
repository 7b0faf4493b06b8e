import mqtt from "mqtt";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mosquittoMissing, startMosquitto } from "../../support/mosquitto.ts";
import type { Mosquitto } from "../../support/mosquitto.ts";
import { ADMIN_PASSWORD, login, rpc, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";
import { variableIdOf } from "../../../logger/sources/config.ts";

// Against Debian's mosquitto (a real broker, with a password file): the broker goes away and
// comes back; the source shows the error, its live value goes stale, and values flow again
// without restarting anything.

const missing = mosquittoMissing();
if (missing) console.warn(`Skipping the mosquitto data-source test: ${missing}`);

const PERIOD = 50;
const STALE_PERIODS = 3;

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(missing !== null)("data source against mosquitto", () => {
  let broker: Mosquitto;
  let lg: TestLogger;
  let admin: string;
  let pub: MqttClient;
  let id = 0;
  let stop = false;
  let ticker: Promise<void> = Promise.resolve();
  const state = async () => (await rpc(lg.url, "DataSourceAPI.GetState", {}, admin)).body.States[0];
  async function live(vid: string): Promise<{ v: number | null; t: number | null }> {
    const res = await fetch(`${lg.url}/online/data`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: JSON.stringify({ Variables: [vid] }) });
    const d = ((await res.json()) as any).Data;
    return { v: d.Values[0], t: d.Timestamps[0] };
  }

  beforeAll(async () => {
    broker = await startMosquitto({ users: { cell: "m0squitto-Pass" } });
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: false });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    pub = mqtt.connect(broker.url, { username: "cell", password: "m0squitto-Pass", reconnectPeriod: 200 });
    await new Promise<void>((r) => pub.once("connect", () => r()));
    // A device publishing every period, through the outage (mqtt.js queues nothing while offline at QoS 0).
    let n = 0;
    ticker = (async () => {
      while (!stop) {
        if (pub.connected) pub.publish("line/speed", String(++n % 1000));
        await new Promise((r) => setTimeout(r, PERIOD));
      }
    })();
  });

  afterAll(async () => {
    stop = true;
    await ticker;
    pub?.end(true);
    await lg?.stop();
    await broker?.close();
  });

  it("connects with credentials, reports a broker outage and recovers without a restart", async () => {
    const set = await rpc(lg.url, "DataSourceAPI.Set", {
      Source: {
        Name: "Line broker", Protocol: "mqtt", PeriodMs: PERIOD,
        Connection: { Url: broker.url, Username: "cell", Password: "m0squitto-Pass" },
        Variables: [{ Name: "Speed", Unit: "rpm", RangeMin: 0, RangeMax: 1000, Address: { Topic: "line/speed" } }],
      },
    }, admin);
    expect(set.status).toBe(200);
    id = set.body.Source.ID;
    const vid = variableIdOf(id, 1);
    await until("values flowing", async () => (await state()).State === "connected" && (await state()).Values > 5);
    await until("a live value", async () => (await live(vid)).v !== null);

    await broker.stop();
    const failed = await until("state error", async () => {
      const s = await state();
      return s.State === "error" ? s : undefined;
    });
    expect(failed.LastError).not.toBe("");
    expect(failed.LastError).not.toContain("m0squitto-Pass");
    // The error as a stable code too (the console translates it): the broker closed, then refused.
    expect(["closed", "refused"]).toContain(failed.Problem.Code);
    expect(failed.Problem.Args.where).toBe(broker.url.replace(/\/$/, ""));
    // Silent source: its live value stops at its last slot, older than the stale rule's 3 periods.
    const staleAt = await until("stale live value", async () => {
      const l = await live(vid);
      return l.t !== null && Date.now() - l.t > STALE_PERIODS * PERIOD ? l : undefined;
    });
    expect(staleAt.v).not.toBeNull();
    const devices = (await rpc(lg.url, "DeviceAPI.GetDevices", {}, admin)).body.Devices;
    expect(devices[0]).toMatchObject({ ID: `ds${id}`, Connected: false });

    const countBefore = (await state()).Values;
    await broker.start();
    // Back-off starts at 1 s: values flow again well within the test's wait, with no restart.
    await until("reconnected", async () => (await state()).State === "connected");
    await until("values again", async () => (await state()).Values > countBefore + 5);
    const fresh = await until("fresh live value", async () => {
      const l = await live(vid);
      return l.t !== null && Date.now() - l.t <= STALE_PERIODS * PERIOD + 100 ? l : undefined;
    });
    expect(fresh.v).not.toBeNull();

    const trace = (await rpc(lg.url, "TraceAPI.GetEntries", { Limit: 1000 }, admin)).body.Entries as { Component: string; Message: string }[];
    const mine = trace.filter((e) => e.Component === "datasource").map((e) => e.Message);
    expect(mine).toContain("Line broker: connected");
    expect(mine.some((m) => m.startsWith("Line broker: connection error: "))).toBe(true);
    expect(JSON.stringify(trace)).not.toContain("m0squitto-Pass");
  });

  it("a wrong password is the 'auth' problem, in words and as a code", async () => {
    const set = await rpc(lg.url, "DataSourceAPI.Set", {
      Source: { Name: "Wrong password", Protocol: "mqtt", PeriodMs: PERIOD, Connection: { Url: broker.url, Username: "cell", Password: "not-the-Pass" }, Variables: [] },
    }, admin);
    expect(set.status).toBe(200);
    const wrongId = set.body.Source.ID;
    const failed = await until("auth error", async () => {
      const s = ((await rpc(lg.url, "DataSourceAPI.GetState", {}, admin)).body.States as { ID: number; State: string }[]).find((x) => x.ID === wrongId) as any;
      return s?.State === "error" ? s : undefined;
    });
    const where = broker.url.replace(/\/$/, "");
    expect(failed.LastError).toBe(`${where} refused the sign-in (user name or password)`);
    expect(failed.Problem).toEqual({ Code: "auth", Args: { where } });
  });
});
