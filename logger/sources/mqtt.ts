import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import type { IClientOptions, MqttClient } from "mqtt";
import { pathSteps } from "./config.ts";
import type { MqttDataSource } from "./config.ts";
import { BACKOFF_MIN_MS, nextBackoff } from "./driver.ts";
import type { Driver, DriverEvents, DriverFactory } from "./driver.ts";
import { numberAt, payloadFor, plainNumber, timeAt, topicMatches } from "./payload.ts";
import { problemText } from "./problems.ts";

// The MQTT driver (npm `mqtt`): one client per source, a subscription per distinct topic filter
// of its inputs, values read from each message by the variable's JsonPath and TimestampPath.
// Reconnects itself with back-off (1 s doubling to 30 s): mqtt.js's own reconnect has a fixed period.

const CONNECT_TIMEOUT_MS = 10_000;
// A payload larger than this is not a measurement; parsing it would only stall the logger.
const MAX_PAYLOAD_BYTES = 256 * 1024;

type Reader = { index: number; steps: (string | number)[] | null; path: string; tsSteps: (string | number)[] | null; tsPath: string };

export const mqttDriver: DriverFactory = (config, events, opts) => new MqttDriver(config as MqttDataSource, events, opts.now);

class MqttDriver implements Driver {
  private readonly c: MqttDataSource;
  private readonly ev: DriverEvents;
  private readonly now: () => number;
  private client: MqttClient | null = null;
  private readonly exact = new Map<string, Reader[]>();
  private readonly wild: { filter: string; readers: Reader[] }[] = [];
  private readonly filters = new Map<string, 0 | 1 | 2>();
  private backoff = BACKOFF_MIN_MS;
  private retry: NodeJS.Timeout | null = null;
  private lastError = "";
  private stopped = false;
  /** Variables that have had a message since start (a retained one then no longer counts). */
  private readonly seen = new Set<number>();

  constructor(c: MqttDataSource, ev: DriverEvents, now: () => number) {
    this.c = c;
    this.ev = ev;
    this.now = now;
    c.Variables.forEach((v, index) => {
      if (v.Direction === "O") return;
      const a = v.Address;
      const r: Reader = {
        index,
        path: a.JsonPath,
        steps: a.JsonPath === "" ? null : pathSteps(a.JsonPath),
        tsPath: a.TimestampPath,
        tsSteps: a.TimestampPath === "" ? null : pathSteps(a.TimestampPath),
      };
      this.filters.set(a.Topic, Math.max(this.filters.get(a.Topic) ?? 0, a.Qos) as 0 | 1 | 2);
      if (/[+#]/.test(a.Topic)) {
        const w = this.wild.find((x) => x.filter === a.Topic);
        if (w) w.readers.push(r);
        else this.wild.push({ filter: a.Topic, readers: [r] });
      } else {
        const list = this.exact.get(a.Topic);
        if (list) list.push(r);
        else this.exact.set(a.Topic, [r]);
      }
    });
  }

  /** The broker as error texts name it: scheme, host and port (never the URL's user or password). */
  private where(): string {
    try {
      const u = new URL(this.c.Connection.Url);
      return `${u.protocol}//${u.host}`;
    } catch {
      return "the broker";
    }
  }

  start(): void {
    const conn = this.c.Connection;
    const options: IClientOptions = {
      clientId: conn.ClientId || `loggia-ds${this.c.ID}-${randomBytes(4).toString("hex")}`,
      username: conn.Username || undefined,
      password: conn.Password || undefined,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      resubscribe: false,
    };
    this.ev.state("connecting");
    try {
      const client = mqtt.connect(conn.Url, options);
      this.client = client;
      client.on("connect", () => this.onConnect());
      client.on("message", (topic, payload, packet) => this.onMessage(topic, payload, packet.retain));
      client.on("error", (err) => {
        this.lastError = describe(err, this.where());
      });
      client.on("close", () => this.onClose());
    } catch (err) {
      this.lastError = describe(err as Error, this.where());
      this.onClose();
    }
  }

  private onConnect(): void {
    if (this.stopped || !this.client) return;
    this.backoff = BACKOFF_MIN_MS;
    this.lastError = "";
    this.ev.state("connected");
    if (this.filters.size === 0) return;
    const subs: Record<string, { qos: 0 | 1 | 2 }> = {};
    for (const [f, qos] of this.filters) subs[f] = { qos };
    this.client.subscribe(subs, (err, granted) => {
      if (err) return this.ev.bad(null, `Subscribing failed: ${describe(err, this.where())}`);
      for (const g of granted ?? []) if (g.qos === 128) this.ev.bad(null, `The broker refused the subscription to ${g.topic}`);
    });
  }

  private onClose(): void {
    if (this.stopped) return;
    this.ev.state("error", this.lastError || problemText("closed", { where: this.where() }));
    if (this.retry) return;
    const delay = this.backoff;
    this.backoff = nextBackoff(this.backoff);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      try {
        if (this.client) this.client.reconnect();
        else this.start();
      } catch (err) {
        this.lastError = describe(err as Error, this.where());
        this.onClose();
      }
    }, delay);
  }

  private onMessage(topic: string, payload: Buffer, retained: boolean): void {
    const now = this.now();
    let readers = this.exact.get(topic);
    if (this.wild.length) {
      for (const w of this.wild) if (topicMatches(w.filter, topic)) readers = readers ? [...readers, ...w.readers] : w.readers;
    }
    if (!readers) return;
    // A retained message is the first value; sent again after a reconnect it is old news, and
    // taking it as a new value would make a silent device look alive.
    if (retained) {
      readers = readers.filter((r) => !this.seen.has(r.index));
      if (readers.length === 0) return;
    }
    for (const r of readers) this.seen.add(r.index);
    if (payload.length > MAX_PAYLOAD_BYTES) {
      for (const r of readers) this.ev.bad(r.index, `payload of ${payload.length} bytes on ${topic} is too large`);
      return;
    }
    const text = payload.toString("utf8");
    let doc: unknown;
    let docError: string | null = null;
    for (const r of readers) {
      if (r.steps === null && r.tsSteps === null) {
        const v = plainNumber(text);
        if (v.ok) this.ev.value(r.index, v.value, now);
        else this.ev.bad(r.index, `${v.reason} (topic ${topic})`);
        continue;
      }
      if (doc === undefined && docError === null) {
        try {
          doc = JSON.parse(text);
        } catch {
          docError = `payload on ${topic} is not JSON`;
        }
      }
      if (docError !== null) {
        this.ev.bad(r.index, docError);
        continue;
      }
      const v = r.steps === null ? plainNumber(typeof doc === "number" ? String(doc) : text) : numberAt(doc, r.path, r.steps);
      if (!v.ok) {
        this.ev.bad(r.index, `${v.reason} (topic ${topic})`);
        continue;
      }
      let t = now;
      if (r.tsSteps !== null) {
        const ts = timeAt(doc, r.tsPath, r.tsSteps);
        if (!ts.ok) {
          this.ev.bad(r.index, `${ts.reason} (topic ${topic})`);
          continue;
        }
        t = ts.value;
      }
      this.ev.value(r.index, v.value, t);
    }
  }

  write(index: number, value: number): Promise<void> {
    const v = this.c.Variables[index];
    if (!v) return Promise.reject(new Error(`No variable ${index}`));
    const client = this.client;
    if (!client || !client.connected) return Promise.reject(new Error(`not connected to the broker${this.lastError ? ` (${this.lastError})` : ""}`));
    return new Promise((resolve, reject) => {
      client.publish(v.Address.Topic, payloadFor(value, v.Address.JsonPath), { qos: v.Address.Qos, retain: false }, (err) => {
        if (err) reject(new Error(`publishing to ${v.Address.Topic} failed: ${describe(err, this.where())}`));
        else resolve();
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    if (!client) return;
    await new Promise<void>((resolve) => {
      // force: an unreachable broker must not hold a configuration change or the shutdown.
      client.end(true, {}, () => resolve());
    });
  }
}

// TLS verification failures of an mqtts:// or wss:// broker (Node's codes).
const CERTIFICATE_CODES = /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/** A readable text for a connection error, built with the problem catalog where it is a known one. */
function describe(err: Error, where: string): string {
  const code = (err as { code?: unknown }).code;
  const msg = err.message || String(err);
  if (code === "ECONNREFUSED") return problemText("refused", { where });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return problemText("hostNotFound", { where });
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return problemText("unreachable", { where });
  if (code === "ECONNRESET" || code === "EPIPE") return problemText("reset", { where });
  if (code === "ETIMEDOUT" || /connack timeout|timed out/i.test(msg)) return problemText("timeout", { where });
  // CONNACK 4 (bad user name or password) and 5 (not authorized)
  if ((code === 4 || code === 5) || /Bad username or password|Not authorized/i.test(msg)) return problemText("auth", { where });
  if (typeof code === "string" && CERTIFICATE_CODES.test(code)) return problemText("certificateNotTrusted", { where, detail: msg });
  return typeof code === "string" && !msg.includes(code) ? `${code}: ${msg}` : msg;
}
