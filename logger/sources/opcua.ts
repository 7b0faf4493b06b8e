import { AttributeIds, DataType, resolveNodeId, TimestampsToReturn, Variant, VariantArrayType } from "node-opcua-client";
import type { ClientMonitoredItemGroup, ClientSession, ClientSubscription, DataValue, NodeId, OPCUAClient } from "node-opcua-client";
import type { OpcuaDataSource } from "./config.ts";
import { BACKOFF_MIN_MS, nextBackoff, within } from "./driver.ts";
import type { Driver, DriverEvents, DriverFactory } from "./driver.ts";
import { describeOpcuaError, makeClient, openSession, serverFingerprint } from "./opcua-connect.ts";
import { problemText } from "./problems.ts";

export { browseOpcua } from "./opcua-browse.ts";
export { setOpcuaPkiFolder } from "./opcua-pki.ts";

// The OPC UA driver (decision 0010): one subscription with one monitored item per input variable,
// sampled at PeriodMs. "connected" is reported only once the session, the subscription and its
// monitored items exist, and only while the subscription's keep-alives (or notifications) keep
// arriving. Any loss — the socket, the session, the subscription, silence — is reported as an
// error, the client is dropped, and a fresh client, session and subscription are made after the
// back-off (1 s doubling to 30 s). node-opcua's own reconnection is off (see opcua-connect.ts).

const CONNECT_TIMEOUT_MS = 10_000;
const CALL_TIMEOUT_MS = 10_000;
/** Publishing intervals (plus a second) after which a monitored node that sent nothing is read. */
const SILENT_CHECK_INTERVALS = 2;

/** Publishing every period (at least 100 ms, at most 1 s); each item's queue holds several publishing intervals of samples. */
export function subscriptionParameters(periodMs: number) {
  const publishingInterval = Math.min(1000, Math.max(100, periodMs));
  const maxKeepAliveCount = Math.max(1, Math.ceil(1000 / publishingInterval)); // a keep-alive about every second
  return {
    publishingInterval,
    maxKeepAliveCount,
    lifetimeCount: Math.max(3, Math.ceil(30_000 / (publishingInterval * maxKeepAliveCount))) * maxKeepAliveCount,
    queueSize: Math.min(1000, Math.max(10, Math.ceil((4 * publishingInterval) / periodMs))),
  };
}

const INTEGER_RANGES: Partial<Record<DataType, [number, number]>> = {
  [DataType.SByte]: [-128, 127],
  [DataType.Byte]: [0, 255],
  [DataType.Int16]: [-0x8000, 0x7fff],
  [DataType.UInt16]: [0, 0xffff],
  [DataType.Int32]: [-0x80000000, 0x7fffffff],
  [DataType.UInt32]: [0, 0xffffffff],
  [DataType.Int64]: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  [DataType.UInt64]: [0, Number.MAX_SAFE_INTEGER],
};

/** A scalar numeric or boolean Variant as a number; null for anything else (strings, arrays, …). */
export function numberOf(v: Variant | null | undefined): number | null {
  if (!v || v.arrayType !== VariantArrayType.Scalar) return null;
  const x: unknown = v.value;
  if (typeof x === "number") return x;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "bigint") return Number(x);
  // node-opcua holds Int64/UInt64 as [high, low] 32-bit halves
  if ((v.dataType === DataType.Int64 || v.dataType === DataType.UInt64) && Array.isArray(x) && x.length === 2) return x[0] * 2 ** 32 + x[1];
  return null;
}

/** The Variant that writes `value` to a node of built-in type `type`; throws a readable Error when it cannot. */
export function variantFor(type: DataType, value: number, what: string): Variant {
  if (!Number.isFinite(value)) throw new Error(`${what}: ${value} is not a finite number`);
  if (type === DataType.Boolean) return new Variant({ dataType: type, value: value !== 0 });
  if (type === DataType.Float || type === DataType.Double) return new Variant({ dataType: type, value });
  const range = INTEGER_RANGES[type];
  if (!range) throw new Error(`${what}: the node's data type ${DataType[type]} is not a number`);
  const n = Math.round(value);
  if (n < range[0] || n > range[1]) throw new Error(`${what}: ${value} is outside the ${DataType[type]} range ${range[0]}..${range[1]}`);
  if (type === DataType.Int64 || type === DataType.UInt64) {
    const high = Math.floor(n / 2 ** 32);
    return new Variant({ dataType: type, value: [high, n - high * 2 ** 32] });
  }
  return new Variant({ dataType: type, value: n });
}

type Live = { client: OPCUAClient; session: ClientSession | null; subscription: ClientSubscription | null; group: ClientMonitoredItemGroup | null };

export class OpcuaDriver implements Driver {
  private stopped = true;
  private live: Live | null = null;
  /** Bumped on every connection attempt and teardown: callbacks of an older client are ignored. */
  private generation = 0;
  private connected = false;
  private backoff = BACKOFF_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private silentCheck: NodeJS.Timeout | null = null;
  private lastAlive = 0;
  private aliveLimitMs = 10_000;
  private lastState = "";
  /** The server certificate's fingerprint at the first connection (trust on first use). */
  private firstFingerprint: string | null = null;
  private readonly types = new Map<number, DataType>();
  private readonly params: ReturnType<typeof subscriptionParameters>;

  private readonly config: OpcuaDataSource;
  private readonly events: DriverEvents;
  private readonly opts: { now(): number };

  constructor(config: OpcuaDataSource, events: DriverEvents, opts: { now(): number }) {
    this.config = config;
    this.events = events;
    this.opts = opts;
    this.params = subscriptionParameters(config.PeriodMs);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.backoff = BACKOFF_MIN_MS;
    this.report("connecting");
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.teardown();
  }

  async write(index: number, value: number): Promise<void> {
    const v = this.config.Variables[index];
    if (!v) throw new Error(`No variable ${index} in ${this.config.Name}`);
    if (v.Direction === "I") throw new Error(`${v.Name} is an input, not an output`);
    const session = this.live?.session;
    if (!session || !this.connected) throw new Error(`Not connected to ${this.config.Connection.Endpoint}`);
    let nodeId: NodeId;
    try {
      nodeId = resolveNodeId(v.Address.NodeId);
    } catch {
      throw new Error(`${v.Name}: ${v.Address.NodeId} is not a valid NodeId`);
    }
    let type = this.types.get(index);
    if (type === undefined) {
      type = await within(session.getBuiltInDataType(nodeId), CALL_TIMEOUT_MS, `${v.Name}: no answer reading the node's data type`).catch((e: unknown) => {
        throw new Error(`${v.Name}: cannot read the data type of ${v.Address.NodeId} (${(e as Error).message})`);
      });
      this.types.set(index, type);
    }
    const variant = variantFor(type, value, v.Name);
    const status = await within(session.write({ nodeId, attributeId: AttributeIds.Value, value: { value: variant } }), CALL_TIMEOUT_MS, `Writing ${v.Name}: no answer from ${this.config.Connection.Endpoint}`);
    if (!status.isGood()) throw new Error(`Writing ${v.Name}: the server answered ${status.name}`);
  }

  // ---- connection ----

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    const c = this.config.Connection;
    const current = () => gen === this.generation && !this.stopped;
    let client: OPCUAClient;
    try {
      client = makeClient(c);
    } catch (e) {
      return this.lost(describeOpcuaError(e, c));
    }
    const live: Live = { client, session: null, subscription: null, group: null };
    this.live = live;
    client.on("connection_lost", () => current() && this.lost(problemText("closed", { where: c.Endpoint })));
    client.on("close", () => current() && this.lost(problemText("closed", { where: c.Endpoint })));
    try {
      live.session = await openSession(client, c, CONNECT_TIMEOUT_MS, this.firstFingerprint);
      if (!current()) return;
      const fingerprint = serverFingerprint(client);
      this.firstFingerprint ??= fingerprint;
      if (fingerprint) this.events.certificate?.(fingerprint);
      live.session.on("session_closed", () => current() && this.lost(`Session on ${c.Endpoint} closed`));
      const p = this.params;
      live.subscription = await within(
        live.session.createSubscription2({
          requestedPublishingInterval: p.publishingInterval,
          requestedMaxKeepAliveCount: p.maxKeepAliveCount,
          requestedLifetimeCount: p.lifetimeCount,
          maxNotificationsPerPublish: 0,
          publishingEnabled: true,
          priority: 1,
        }),
        CALL_TIMEOUT_MS,
        `No answer from ${c.Endpoint} creating the subscription`,
      );
      if (!current()) return;
      const sub = live.subscription;
      const alive = () => {
        if (current()) this.lastAlive = this.opts.now();
      };
      sub.on("keepalive", alive);
      sub.on("received_notifications", alive);
      sub.on("terminated", () => current() && this.lost(`Subscription on ${c.Endpoint} ended`));
      sub.on("status_changed", (status) => current() && status.isBad() && this.lost(`Subscription on ${c.Endpoint}: ${status.name}`));
      sub.on("error", (e: Error) => current() && this.lost(describeOpcuaError(e, c)));
      sub.on("internal_error", (e: Error) => current() && this.lost(describeOpcuaError(e, c)));
      await this.monitor(live, current);
      if (!current()) return;
      // keep-alives are due every publishingInterval × maxKeepAliveCount (as revised by the server)
      this.aliveLimitMs = 3 * sub.publishingInterval * sub.maxKeepAliveCount + 2000;
      this.lastAlive = this.opts.now();
      this.watchdog = setInterval(() => {
        if (current() && this.connected && this.opts.now() - this.lastAlive > this.aliveLimitMs) {
          this.lost(problemText("noKeepAlive", { where: c.Endpoint, seconds: Math.round((this.opts.now() - this.lastAlive) / 1000) }));
        }
      }, 1000);
      this.watchdog.unref?.();
      this.connected = true;
      this.backoff = BACKOFF_MIN_MS;
      this.report("connected");
    } catch (e) {
      if (current()) this.lost(describeOpcuaError(e, c));
    }
  }

  /** One monitored item per input variable; a NodeId the server refuses is a bad value, not a failed connection. */
  private async monitor(live: Live, current: () => boolean): Promise<void> {
    const indices: number[] = [];
    const nodes: NodeId[] = [];
    this.config.Variables.forEach((v, i) => {
      if (v.Direction === "O") return;
      try {
        nodes.push(resolveNodeId(v.Address.NodeId));
        indices.push(i);
      } catch {
        this.events.bad(i, `${v.Name}: ${v.Address.NodeId} is not a valid NodeId`);
      }
    });
    if (nodes.length === 0) return;
    const group = await within(
      live.subscription!.monitorItems(
        nodes.map((nodeId) => ({ nodeId, attributeId: AttributeIds.Value })),
        { samplingInterval: this.config.PeriodMs, queueSize: this.params.queueSize, discardOldest: true },
        TimestampsToReturn.Both,
      ),
      CALL_TIMEOUT_MS * 3,
      `No answer from ${this.config.Connection.Endpoint} creating the monitored items`,
    );
    live.group = group;
    const heard = new Set<number>();
    group.on("changed", (_item: unknown, dv: DataValue, k: number) => {
      heard.add(k);
      if (current()) this.onValue(indices[k]!, dv);
    });
    const created: number[] = [];
    group.monitoredItems.forEach((item, k) => {
      if (item.statusCode && item.statusCode.isBad()) {
        const v = this.config.Variables[indices[k]!]!;
        this.events.bad(indices[k]!, `${v.Name}: ${v.Address.NodeId}: ${item.statusCode.name}`);
      } else created.push(k);
    });
    // A subscription sends a node's value again only when it changes, and node-opcua recovers a
    // lost publish answer only on reconnection: a node whose first notification went missing
    // (seen once in CI on a loaded machine) and whose value never changes — a set-point, a
    // faulty sensor's bad status — would show nothing for as long as the link lasts. The nodes
    // still unheard after the first publishing intervals are read once.
    this.silentCheck = setTimeout(() => {
      this.silentCheck = null;
      const silent = created.filter((k) => !heard.has(k));
      if (silent.length === 0 || !current() || !live.session) return;
      const read = live.session.read(silent.map((k) => ({ nodeId: nodes[k]!, attributeId: AttributeIds.Value })));
      void within(read, CALL_TIMEOUT_MS, "read")
        .then((values) => values.forEach((dv, j) => current() && !heard.has(silent[j]!) && this.onValue(indices[silent[j]!]!, dv)))
        .catch(() => {}); // a failing link is the watchdog's to report
    }, SILENT_CHECK_INTERVALS * this.params.publishingInterval + 1000);
    this.silentCheck.unref?.();
  }

  private onValue(index: number, dv: DataValue): void {
    const now = this.opts.now();
    this.lastAlive = now;
    const v = this.config.Variables[index]!;
    if (dv.statusCode && dv.statusCode.isBad()) return this.events.bad(index, `${v.Name}: ${dv.statusCode.name}`);
    const n = numberOf(dv.value);
    if (n === null || !Number.isFinite(n)) return this.events.bad(index, `${v.Name}: ${dv.value ? DataType[dv.value.dataType] : "no"} value is not a number`);
    // The value's own time (source, else server); the SourceManager files it on the grid
    // (never in the future, never behind the held slots: decision 0010, "Samples on the grid").
    const t = (dv.sourceTimestamp ?? dv.serverTimestamp)?.getTime();
    this.events.value(index, n, t === undefined || Number.isNaN(t) ? now : t);
  }

  /** The link failed: report, drop the client and try again after the back-off. */
  private lost(message: string): void {
    if (this.stopped) return;
    this.report("error", message);
    void this.teardown();
    if (this.retryTimer) return;
    const wait = this.backoff;
    this.backoff = nextBackoff(this.backoff);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.attempt();
    }, wait);
  }

  private async teardown(): Promise<void> {
    this.generation++;
    this.connected = false;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    if (this.silentCheck) clearTimeout(this.silentCheck);
    this.silentCheck = null;
    this.types.clear();
    const live = this.live;
    this.live = null;
    if (!live) return;
    // a dead link would make a polite close wait for timeouts: bound it
    await within(
      (async () => {
        if (live.subscription) await live.subscription.terminate().catch(() => {});
        if (live.session) await live.session.close().catch(() => {});
      })(),
      2000,
      "close",
    ).catch(() => {});
    await within(live.client.disconnect(), 3000, "disconnect").catch(() => {});
  }

  private report(state: "connecting" | "connected" | "error", error?: string): void {
    const key = `${state}\n${error ?? ""}`;
    if (key === this.lastState) return;
    this.lastState = key;
    this.events.state(state, error);
  }
}

export const createOpcuaDriver: DriverFactory = (config, events, opts) => {
  if (config.Protocol !== "opcua") throw new Error(`OPC UA driver given a ${config.Protocol} source`);
  return new OpcuaDriver(config, events, opts);
};
