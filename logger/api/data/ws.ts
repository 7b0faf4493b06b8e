import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { z } from "zod";
import type { Caller, LoggerContext } from "../registry.ts";
import { authenticateToken } from "../../auth/caller.ts";
import type { Authentication } from "../../auth/caller.ts";
import { bearerToken } from "../../auth/clients.ts";
import { signInCaller, signInOf } from "../../auth/signin.ts";
import type { SignIn } from "../../auth/signin.ts";
import { PERMISSION_NAMES } from "../../auth/permissions.ts";
import { RpcError, RS, describeZodError, invalidParam, notFound } from "../../http/errors.ts";
import { findVariable } from "../../model/context.ts";
import { LiveValues } from "../../model/live.ts";
import type { Variable } from "../../model/types.ts";
import { loginRequired } from "../../store/global-settings.ts";
import { auditAs } from "../../store/messages.ts";
import { f32 } from "../../store/series/query.ts";
import { OutputValue, OutputVariables, writeOutputs } from "./outputs.ts";
import { LIVE_LIMITS, LiveCaps, fromConsole, liveKey } from "./live-caps.ts";
import { MSG_NAMES, MsgType, WORKER_NAMES, WorkerType, decodeFrame, encodeFrame, encodeJsonFrame } from "./wsframe.ts";
import type { WorkerId } from "./wsframe.ts";

// `ws://host/ws?apitoken=…`: the logger family's live-value WebSocket (docs/logger-api.md,
// "Live values over WebSocket"). One hub per logger; every subscription keeps the samples
// acquired since its last Publish frame, so a client sees each sample once (or a Dropped count).

/** Connections that are not the console relay's (live-caps.ts: per user, and the console's reserve). */
export const MAX_SOCKETS = LIVE_LIMITS.publicMax;
/** Largest frame a client may send (a write of 1000 outputs is ~50 KB); ws closes with 1009 above it. */
export const MAX_PAYLOAD = 256 * 1024;
export const MAX_SUBSCRIPTIONS = 64;
export const MAX_VARIABLES = 4096;
/** Values one connection may hold between frames, over all its subscriptions (~1 MB). */
export const PENDING_BUDGET = 65_536;
/** Bytes queued on a socket above which frames are coalesced instead of sent. */
export const HIGH_WATER = 512 * 1024;
const AUTH_CHECK_MS = 1000;
/** Frames a subscription may send ahead of its interval (see Subscription.tokens). */
const BURST = 1.25;
const PING_MS = 30_000;
const CLOSE_GRACE_MS = 1000;

export const CLOSE_AUTH = 4001;
/** Over the per-user cap (policy violation): the reason names the cap. */
export const CLOSE_USER_CAP = 1008;

// Without login the logger lets everyone do everything (as authenticateRpc does) and ignores the token.
const ANONYMOUS: Caller = { userId: null, username: "anonymous", permissions: new Set(PERMISSION_NAMES) };

/** LiveValues that tells the hub when a batch is committed (values of sources without a sample feed, state changes). */
export class ObservedLiveValues extends LiveValues {
  onCommit: ((t: number) => void) | null = null;
  override commit(t: number): void {
    super.commit(t);
    this.onCommit?.(t);
  }
}

/** The smallest interval served: the family's client asks for 1 ms by default and gets this, never a refusal. */
export const MIN_INTERVAL_MS = 10;

const Subscribe = z.object({
  IntervalMs: z
    .number()
    .max(3_600_000)
    .default(1000)
    .transform((ms) => Math.max(MIN_INTERVAL_MS, Math.round(ms))),
  VIDs: z.array(z.string().min(1).max(100)).min(1).max(1000),
  ExtendedAnswer: z.boolean().default(false),
  OnValueChanged: z.boolean().default(false),
  Precision: z.number().int().min(-1).max(15).default(-1),
});
const WritePublish = z.object({ Function: z.literal("write"), Variables: OutputVariables, Values: z.array(OutputValue).optional() });
const OnlineRequest = z.object({ Function: z.enum(["read", "write"]).default("read"), Variables: OutputVariables, Values: z.array(OutputValue).optional() });
const AuthPayload = z.union([z.string().max(4096), z.object({ Token: z.string().max(4096) }), z.object({ apitoken: z.string().max(4096) })]);

type Entry = {
  v: Variable;
  sub: Subscription;
  /** `{"_id":…,"Id":…,"State":"` and `,"Name":…,"Unit":…`, escaped once: frames are assembled as text. */
  head: string;
  names: string;
  /** Samples acquired since the last frame (values as acquired, epoch-ms timestamps). */
  vals: number[];
  ts: number[];
  /** Samples acquired since the last frame that are not in vals (coalesced). */
  dropped: number;
  /** When the oldest pending sample reached the logger (epoch ms). */
  firstAt: number;
  /** Timestamp of the newest sample taken in, so no sample is taken twice. */
  lastT: number;
  /** Last value sent (rounded), null after NoValue, undefined before the first frame. */
  sent: number | null | undefined;
};

type Subscription = {
  conn: Connection;
  workerId: WorkerId;
  intervalMs: number;
  extended: boolean;
  onChange: boolean;
  scale: number | null;
  entries: Entry[];
  /** Samples kept per variable before the oldest are coalesced away. */
  cap: number;
  /**
   * Frames with new values are paced by a token bucket: one token per IntervalMs, at most BURST
   * of them. The average rate is the interval's, yet a batch that comes a little early or late
   * (acquisition jitter, a busy event loop) goes out at once instead of shifting every later one.
   */
  tokens: number;
  tokensAt: number;
  /** When the last frame of any kind went out (repeats of unchanged values are timed from it). */
  lastFrame: number;
  fresh: boolean;
  timer: NodeJS.Timeout | null;
};

type Connection = {
  ws: WebSocket;
  ctx: LoggerContext;
  token: string | null;
  /** The sign-in the token came from (login required): the connection lives as long as it does, not as its token. */
  signIn: SignIn | null;
  caller: Caller;
  subs: Map<string, Subscription>;
  alive: boolean;
};

export type LiveSocketStats = {
  connections: number;
  subscriptions: number;
  /** Values held for the next frames, over all connections. */
  pendingValues: number;
  /** Largest number of bytes queued on one socket. */
  maxBufferedBytes: number;
  /** Samples coalesced away since the logger started (slow clients, full buffers). */
  dropped: number;
};

type CachedItem = { t0: number; t1: number; fresh: number; firstAt: number; ok: boolean; dropped: number; scale: number; extended: boolean; text: string };

const keyOf = (id: WorkerId) => `${typeof id}:${id}`;

export class LiveSocketHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD, perMessageDeflate: false, clientTracking: false });
  private readonly conns = new Set<Connection>();
  /** Sockets upgraded whose token is still being checked (asynchronous: real time on PostgreSQL). */
  private readonly checking = new Set<WebSocket>();
  private readonly byVar = new Map<string, Set<Entry>>();
  /** Variables the simulator feeds sample by sample; the others are read from the live table at each commit. */
  private readonly sampled = new Set<string>();
  /** Publish items already built for this acquisition batch, per variable (see defaultItem()). */
  private readonly itemCache = new Map<string, CachedItem[]>();
  private readonly live: ObservedLiveValues;
  private readonly now: () => number;
  private flushQueued = false;
  private authTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private droppedTotal = 0;

  private readonly caps: LiveCaps;

  constructor(live: ObservedLiveValues, now: () => number = Date.now, caps = new LiveCaps()) {
    this.live = live;
    this.now = now;
    this.caps = caps;
    live.onCommit = () => this.queueFlush();
  }

  // ---- connections ----

  upgrade(ctx: LoggerContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => socket.destroy());
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://logger");
    } catch {
      return refuseUpgrade(socket, 400, -6, "Bad request URL");
    }
    if (url.pathname !== "/ws") return refuseUpgrade(socket, 404, -4, `Not found: ${url.pathname}`);
    if (this.closed) return refuseUpgrade(socket, 503, -12, "The logger is shutting down");
    const token = url.searchParams.get("apitoken") ?? bearerToken(req.headers.authorization);
    // The console's relay shows its client credentials: it has places of its own (live-caps.ts).
    const relay = fromConsole(req, ctx.clients);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ctx, ws, token, relay, req));
  }

  private accept(ctx: LoggerContext, ws: WebSocket, token: string | null, relay: boolean, req: IncomingMessage): void {
    ws.on("error", () => {});
    // Taken before the token is checked, or a burst would get past the limit while checks run.
    const place = this.caps.place("ws", relay);
    if (!place) {
      ws.close(1013, `Too many live connections (${this.caps.maxOf(relay)}); try again later`);
      return;
    }
    ws.on("close", () => place.release());
    this.checking.add(ws);
    ws.on("close", () => this.checking.delete(ws));
    // Frames that arrive while the token is being checked wait for the check.
    const early: [Buffer, boolean][] = [];
    let conn: Connection | null = null;
    ws.on("message", (data, isBinary) => (conn ? this.onMessage(conn, data as Buffer, isBinary) : early.push([data as Buffer, isBinary])));
    authenticateWithSignIn(ctx, token).then(
      ({ auth, signIn }) => {
        // Not in `checking` any more: closed meanwhile (by the client or by closeAll()).
        if (!this.checking.delete(ws)) return;
        if (auth.state !== "ok") return ws.close(CLOSE_AUTH, authReason(auth.state));
        if (ws.readyState !== ws.OPEN) return;
        if (!place.user(liveKey(auth.caller.userId, req))) {
          return ws.close(CLOSE_USER_CAP, `Too many live connections for one user (${this.caps.perUserOf(relay)}); close one first`);
        }
        const c: Connection = { ws, ctx, token, signIn, caller: auth.caller, subs: new Map(), alive: true };
        conn = c;
        this.conns.add(c);
        ws.on("pong", () => (c.alive = true));
        ws.on("close", () => this.drop(c));
        this.authTimer ??= setInterval(() => void this.recheckAuth(), AUTH_CHECK_MS).unref();
        this.pingTimer ??= setInterval(() => this.ping(), PING_MS).unref();
        for (const [data, isBinary] of early.splice(0)) this.onMessage(c, data, isBinary);
      },
      (err: unknown) => {
        if (!this.checking.delete(ws)) return;
        ctx.trace.add("error", "ws", `Token check failed: ${(err as Error).message}`);
        ws.close(1011, "The token could not be checked; try again");
      },
    );
  }

  private drop(conn: Connection): void {
    if (!this.conns.delete(conn)) return;
    for (const sub of conn.subs.values()) this.removeSub(sub);
    conn.subs.clear();
    if (this.conns.size === 0) this.stopTimers();
  }

  // A sign-in that ends (sign-out, a refresh token reused, its user removed or given a new
  // password) ends the connection within AUTH_CHECK_MS; an access token that merely expires
  // does not, while its sign-in goes on (the family's clients never send a new one).
  private async recheckAuth(): Promise<void> {
    for (const conn of [...this.conns]) {
      const auth = await liveAuth(conn).catch(() => null);
      // Not checkable now (the store is unreachable): checked again next time.
      if (auth === null || !this.conns.has(conn)) continue;
      if (auth.state === "ok") conn.caller = auth.caller;
      else {
        this.drop(conn);
        conn.ws.close(CLOSE_AUTH, conn.signIn ? SIGN_IN_ENDED : authReason(auth.state));
      }
    }
  }

  private ping(): void {
    for (const conn of this.conns) {
      if (!conn.alive) {
        this.drop(conn);
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
  }

  private stopTimers(): void {
    if (this.authTimer) clearInterval(this.authTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.authTimer = this.pingTimer = null;
  }

  closeAll(): void {
    this.closed = true;
    const sockets = [...this.conns].map((c) => c.ws).concat([...this.checking]);
    this.checking.clear();
    for (const conn of [...this.conns]) this.drop(conn);
    for (const ws of sockets) ws.close(1001, "Logger shutting down");
    // A client that does not answer the close handshake would keep the HTTP server from closing.
    if (sockets.length) setTimeout(() => sockets.forEach((ws) => ws.terminate()), CLOSE_GRACE_MS);
    this.stopTimers();
    this.live.onCommit = null;
  }

  stats(): LiveSocketStats {
    let subscriptions = 0;
    let pendingValues = 0;
    let maxBufferedBytes = 0;
    for (const conn of this.conns) {
      subscriptions += conn.subs.size;
      maxBufferedBytes = Math.max(maxBufferedBytes, conn.ws.bufferedAmount);
      for (const sub of conn.subs.values()) for (const e of sub.entries) pendingValues += e.vals.length;
    }
    return { connections: this.conns.size, subscriptions, pendingValues, maxBufferedBytes, dropped: this.droppedTotal };
  }

  // ---- frames from clients ----

  private onMessage(conn: Connection, data: Buffer, isBinary: boolean): void {
    if (!isBinary) {
      return this.sendError(conn, 0, 0, invalidParam("Text frames are not understood: send binary frames (0x00, 2-byte header length, JSON header, JSON payload)"));
    }
    const decoded = decodeFrame(data);
    if (!decoded.ok) return this.sendError(conn, decoded.header?.workerType ?? 0, decoded.header?.workerId ?? 0, invalidParam(decoded.error));
    const { msgType, workerType, workerId, payload } = decoded.frame;
    try {
      if (msgType === MsgType.Authentication || workerType === WorkerType.Authentication) {
        this.onAuthenticate(conn, workerType, workerId, msgType, payload).catch((err: unknown) => this.frameFailed(conn, workerType, workerId, msgType, err));
        return;
      }
      if (workerType !== WorkerType.OnlineData) {
        const name = WORKER_NAMES[workerType];
        throw invalidParam(`Worker type ${workerType}${name ? ` (${name})` : ""} is not offered here: live values are worker type 2, RPC is POST /rpc/…`);
      }
      switch (msgType) {
        case MsgType.Subscribe:
          return this.subscribe(conn, workerId, parse(Subscribe, payload, "Subscribe"));
        case MsgType.Publish:
          return this.respond(conn, workerId, this.write(conn, parse(WritePublish, payload, "Publish")));
        case MsgType.Request: {
          const p = parse(OnlineRequest, payload, "Request");
          return this.respond(conn, workerId, p.Function === "write" ? this.write(conn, p) : this.read(conn, p.Variables));
        }
        case MsgType.Stop: {
          const sub = conn.subs.get(keyOf(workerId));
          if (!sub) throw notFound(`No subscription with worker id ${JSON.stringify(workerId)}`);
          this.removeSub(sub);
          conn.subs.delete(keyOf(workerId));
          return this.respond(conn, workerId, null);
        }
        default: {
          const name = MSG_NAMES[msgType];
          throw invalidParam(`Message type ${msgType}${name ? ` (${name})` : ""} is not something a client sends: use 1 Subscribe, 2 Publish (write), 3 Stop, 7 Request or 13 Authentication`);
        }
      }
    } catch (err) {
      this.frameFailed(conn, workerType, workerId, msgType, err);
    }
  }

  private frameFailed(conn: Connection, workerType: number, workerId: WorkerId, msgType: number, err: unknown): void {
    if (err instanceof RpcError) return this.sendError(conn, workerType, workerId, err);
    conn.ctx.trace.add("error", "ws", `${MSG_NAMES[msgType] ?? msgType} frame: ${err instanceof Error ? err.message : String(err)}`);
    this.sendError(conn, workerType, workerId, new RpcError(500, RS.Internal, "Internal error; see the logger's trace log"));
  }

  // A long-lived socket outlives its access token: the client hands over the refreshed one.
  private async onAuthenticate(conn: Connection, workerType: number, workerId: WorkerId, msgType: number, payload: unknown): Promise<void> {
    if (msgType !== MsgType.Authentication) throw invalidParam("Worker type 13 takes Authentication frames (message type 13) only");
    const p = parse(AuthPayload, payload, "Authentication");
    const token = typeof p === "string" ? p : "Token" in p ? p.Token : p.apitoken;
    const { auth, signIn } = await authenticateWithSignIn(conn.ctx, token);
    if (auth.state !== "ok") {
      this.drop(conn);
      conn.ws.close(CLOSE_AUTH, authReason(auth.state));
      return;
    }
    conn.token = token;
    conn.signIn = signIn;
    conn.caller = auth.caller;
    this.send(conn, encodeFrame(MsgType.Response, workerType, workerId, ok(null)));
  }

  private async write(conn: Connection, p: { Variables: string[]; Values?: (number | boolean)[] }) {
    // Permissions as of now, not as of the connection's start (a role may have changed).
    const auth = await liveAuth(conn);
    if (auth.state !== "ok") throw new RpcError(401, RS.InvalidOperation, authReason(auth.state));
    const caller = auth.caller;
    return writeOutputs(conn.ctx.data, caller, p.Variables, p.Values, (text) => auditAs(conn.ctx.db, caller.username, text, conn.ctx.trace));
  }

  private read(conn: Connection, ids: string[]) {
    const data = conn.ctx.data;
    const values: (number | null)[] = [];
    const times: (number | null)[] = [];
    for (const id of ids) {
      if (!findVariable(data, id)) throw notFound(`Unknown variable ${id}`);
      const e = data.live.get(id);
      values.push(e && e.v !== null ? f32(e.v) : null);
      times.push(e?.t ?? null);
    }
    return { Values: values, Timestamps: times };
  }

  private respond(conn: Connection, workerId: WorkerId, data: unknown): void {
    if (data instanceof Promise) {
      // A data source's output answers once its device has taken the value (logger/api/data/outputs.ts).
      data.then(
        (d: unknown) => this.respond(conn, workerId, d),
        (err: unknown) => this.sendError(conn, WorkerType.OnlineData, workerId, err instanceof RpcError ? err : new RpcError(500, RS.Internal, String(err))),
      );
      return;
    }
    this.send(conn, encodeFrame(MsgType.Response, WorkerType.OnlineData, workerId, ok(data)));
  }

  private sendError(conn: Connection, workerType: number, workerId: WorkerId, err: RpcError): void {
    const payload = { Success: false, Text: err.message, Status: err.status, ReturnState: { Value: err.value, Description: err.message } };
    this.send(conn, encodeFrame(MsgType.Error, workerType, workerId, payload));
  }

  private send(conn: Connection, frame: Buffer): void {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(frame);
  }

  // ---- subscriptions ----

  private subscribe(conn: Connection, workerId: WorkerId, p: z.output<typeof Subscribe>): void {
    const key = keyOf(workerId);
    const old = conn.subs.get(key);
    const ids = [...new Set(p.VIDs)];
    const vars = ids.map((id) => {
      const v = findVariable(conn.ctx.data, id);
      if (!v) throw notFound(`Unknown variable ${id}`);
      return v;
    });
    if (!old && conn.subs.size >= MAX_SUBSCRIPTIONS) throw new RpcError(400, RS.Busy, `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`);
    let total = vars.length;
    for (const s of conn.subs.values()) if (s !== old) total += s.entries.length;
    if (total > MAX_VARIABLES) throw new RpcError(400, RS.Busy, `At most ${MAX_VARIABLES} subscribed variables per connection`);
    if (old) this.removeSub(old);

    const sub: Subscription = {
      conn,
      workerId,
      intervalMs: p.IntervalMs,
      extended: p.ExtendedAnswer,
      onChange: p.OnValueChanged,
      scale: p.Precision >= 0 ? 10 ** p.Precision : null,
      entries: [],
      cap: 1,
      tokens: BURST,
      tokensAt: this.now(),
      lastFrame: 0,
      fresh: false,
      timer: null,
    };
    for (const v of vars) {
      const cur = this.live.get(v.Id);
      const id = JSON.stringify(v.Id);
      const e: Entry = {
        v,
        sub,
        head: `{"_id":${id},"Id":${id},"State":"`,
        names: `,"Name":${JSON.stringify(v.Name)},"Unit":${JSON.stringify(v.Unit)}`,
        vals: [],
        ts: [],
        dropped: 0,
        firstAt: 0,
        lastT: cur?.t ?? Number.NEGATIVE_INFINITY,
        sent: undefined,
      };
      sub.entries.push(e);
      let set = this.byVar.get(v.Id);
      if (!set) this.byVar.set(v.Id, (set = new Set()));
      set.add(e);
    }
    conn.subs.set(key, sub);
    this.resizeCaps(conn);
    // The first frame, at once, carries the current values: it is also the subscription's acknowledgement.
    this.publish(sub, this.now());
  }

  private removeSub(sub: Subscription): void {
    if (sub.timer) clearTimeout(sub.timer);
    sub.timer = null;
    for (const e of sub.entries) {
      const set = this.byVar.get(e.v.Id);
      set?.delete(e);
      if (set?.size === 0) this.byVar.delete(e.v.Id);
    }
    sub.entries = [];
    this.resizeCaps(sub.conn);
  }

  // The budget is per connection; vals may grow to twice the cap before it is cut back.
  private resizeCaps(conn: Connection): void {
    let vars = 0;
    for (const s of conn.subs.values()) vars += s.entries.length;
    const cap = Math.max(1, Math.floor(PENDING_BUDGET / (2 * Math.max(1, vars))));
    for (const s of conn.subs.values()) s.cap = cap;
  }

  // ---- samples in ----

  /** Every sample the simulator acquires (the buffer is reused by the caller: read it now). */
  onSamples(id: string, first: number, periodUs: number, values: Float32Array): void {
    this.sampled.add(id);
    const set = this.byVar.get(id);
    if (!set) return;
    const at = this.now();
    // Shortest decimals once per sample, not once per subscriber.
    const xs = Array.from(values, (v) => (Number.isFinite(v) ? f32(v) : Number.NaN));
    for (const e of set) {
      for (let i = 0; i < xs.length; i++) {
        const t = ((first + i) * periodUs) / 1000;
        if (t <= e.lastT) continue;
        const x = xs[i]!;
        // NaN is no value (a gap): not a sample to publish; State says NoValue while it lasts.
        if (Number.isNaN(x)) e.lastT = t;
        else this.take(e, x, t, at);
      }
    }
  }

  private take(e: Entry, v: number, t: number, at: number): void {
    if (e.vals.length === 0) e.firstAt = at;
    e.vals.push(v);
    e.ts.push(t);
    e.lastT = t;
    e.sub.fresh = true;
    const cap = e.sub.cap;
    if (e.vals.length >= 2 * cap) {
      const n = e.vals.length - cap;
      e.vals.splice(0, n);
      e.ts.splice(0, n);
      e.dropped += n;
      this.droppedTotal += n;
    }
  }

  private queueFlush(): void {
    if (this.flushQueued || this.conns.size === 0) return;
    this.flushQueued = true;
    // After the acquisition tick has finished (the alarm engine and the store come first).
    setImmediate(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private flush(): void {
    const now = this.now();
    this.itemCache.clear();
    for (const [id, set] of this.byVar) {
      if (this.sampled.has(id)) continue;
      const cur = this.live.get(id);
      if (!cur || cur.v === null || !Number.isFinite(cur.v)) continue;
      for (const e of set) if (cur.t > e.lastT) this.take(e, f32(cur.v), cur.t, now);
    }
    for (const conn of this.conns) {
      for (const sub of conn.subs.values()) {
        // A default subscription with nothing new waits for its own timer (it repeats the values).
        if (!sub.fresh && !sub.onChange) continue;
        const wait = this.waitFor(sub, now);
        if (wait <= 0) this.publish(sub, now);
        else if (sub.fresh) this.arm(sub, wait);
      }
    }
  }

  /** Milliseconds until the subscription may send new values (0: now). */
  private waitFor(sub: Subscription, now: number): number {
    sub.tokens = Math.min(BURST, sub.tokens + (now - sub.tokensAt) / sub.intervalMs);
    sub.tokensAt = now;
    return sub.tokens >= 1 ? 0 : Math.ceil((1 - sub.tokens) * sub.intervalMs);
  }

  private arm(sub: Subscription, ms: number): void {
    if (sub.timer) clearTimeout(sub.timer);
    sub.timer = setTimeout(() => this.onTimer(sub), Math.max(0, ms));
    sub.timer.unref();
  }

  private onTimer(sub: Subscription): void {
    sub.timer = null;
    if (!sub.conn.subs.has(keyOf(sub.workerId)) || sub.entries.length === 0) return;
    const now = this.now();
    if (sub.fresh) {
      const wait = this.waitFor(sub, now);
      return wait <= 0 ? this.publish(sub, now) : this.arm(sub, wait);
    }
    if (sub.onChange) return;
    // Nothing new for a while (acquisition stopped, a slow source): the values again, later than
    // the interval so that a commit landing about when it ends goes out as new values instead.
    const late = sub.lastFrame + sub.intervalMs * 1.5;
    if (now < late) return this.arm(sub, late - now);
    this.publish(sub, now);
  }

  // ---- frames out ----

  private publish(sub: Subscription, now: number): void {
    const ws = sub.conn.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > HIGH_WATER) {
      // The client reads slower than we publish: keep only each variable's latest sample.
      for (const e of sub.entries) {
        const n = e.vals.length - 1;
        if (n <= 0) continue;
        e.vals.splice(0, n);
        e.ts.splice(0, n);
        e.dropped += n;
        this.droppedTotal += n;
      }
      this.arm(sub, sub.intervalMs);
      return;
    }
    const items: string[] = [];
    for (const e of sub.entries) {
      const item = this.item(sub, e);
      if (item) items.push(item);
    }
    const hadNew = sub.fresh;
    sub.fresh = false;
    if (items.length > 0) {
      ws.send(encodeJsonFrame(MsgType.Publish, WorkerType.OnlineData, sub.workerId, `[${items.join(",")}]`));
      sub.lastFrame = now;
      // The first frame and repeats of unchanged values do not hold back the next new ones.
      if (hadNew) sub.tokens -= 1;
    }
    if (!sub.onChange) this.arm(sub, sub.intervalMs * 1.5);
    else if (sub.timer) {
      clearTimeout(sub.timer);
      sub.timer = null;
    }
  }

  /** Values are kept as shortest float32 decimals already (f32); this applies Precision. */
  private round(sub: Subscription, x: number): number {
    return sub.scale === null ? x : Math.round(x * sub.scale) / sub.scale;
  }

  /** One Publish item as JSON text, or null when OnValueChanged leaves the variable out (unchanged). */
  private item(sub: Subscription, e: Entry): string | null {
    const cur = this.live.get(e.v.Id);
    const has = cur !== undefined && cur.v !== null && Number.isFinite(cur.v);
    if (!sub.onChange) return this.defaultItem(sub, e, has ? cur : undefined);
    const current = has ? f32(cur.v!) : null;
    let values: number[] = [];
    let times: number[] = [];
    let fresh = 0;
    let acquired: number | null = e.vals.length ? e.firstAt : null;
    let prev = e.sent;
    for (let i = 0; i < e.vals.length; i++) {
      const r = this.round(sub, e.vals[i]!);
      if (r === prev) continue;
      values.push(r);
      times.push(e.ts[i]!);
      prev = r;
    }
    fresh = values.length;
    if (fresh === 0) {
      const first = e.sent === undefined;
      const lost = current === null && e.sent !== null;
      const back = current !== null && e.sent === null;
      if (!first && !lost && !back) {
        // Unchanged: the variable is left out, what was coalesced is reported with its next change.
        e.vals.length = 0;
        e.ts.length = 0;
        return null;
      }
      if (current !== null) {
        values = [this.round(sub, current)];
        times = [cur!.t];
        fresh = first ? 1 : 0;
        acquired = null;
      }
    }
    e.sent = current === null ? null : values.length ? values[values.length - 1]! : e.sent;
    return this.itemText(sub, e, current, values, times, fresh, acquired);
  }

  /**
   * An item of a subscription without OnValueChanged. Clients that subscribe the same variables
   * the same way get the same items, so each is built once per batch: what the text depends on is
   * compared field by field (the samples are those of the variable at those timestamps, the same
   * for every subscriber).
   */
  private defaultItem(sub: Subscription, e: Entry, cur: { v: number | null; t: number } | undefined): string {
    const n = e.vals.length;
    const t0 = n ? e.ts[0]! : cur ? cur.t : -1;
    const t1 = n ? e.ts[n - 1]! : t0;
    const fresh = n ? n : cur && e.sent === undefined ? 1 : 0;
    const firstAt = n ? e.firstAt : 0;
    const ok = cur !== undefined;
    const scale = sub.scale ?? -1;
    let list = this.itemCache.get(e.v.Id);
    if (list) {
      for (const c of list) {
        if (c.t0 === t0 && c.t1 === t1 && c.fresh === fresh && c.firstAt === firstAt && c.ok === ok && c.dropped === e.dropped && c.scale === scale && c.extended === sub.extended) {
          e.sent = ok ? 0 : null;
          e.vals.length = 0;
          e.ts.length = 0;
          e.dropped = 0;
          return c.text;
        }
      }
    } else this.itemCache.set(e.v.Id, (list = []));
    let values: number[] = [];
    let times: number[] = [];
    if (n) {
      values = sub.scale === null ? e.vals : e.vals.map((v) => this.round(sub, v));
      times = e.ts;
    } else if (cur) {
      values = [this.round(sub, f32(cur.v!))];
      times = [cur.t];
    }
    const dropped = e.dropped;
    // Only "sent before or not" matters without OnValueChanged (the first frame's New).
    e.sent = ok ? 0 : null;
    const text = this.itemText(sub, e, ok ? 0 : null, values, times, fresh, n ? firstAt : null);
    if (list.length < 8) list.push({ t0, t1, fresh, firstAt, ok, dropped, scale, extended: sub.extended, text });
    return text;
  }

  private itemText(sub: Subscription, e: Entry, current: number | null, values: number[], times: number[], fresh: number, acquired: number | null): string {
    // Finite numbers only (NaN never gets in), so String(n) is valid JSON.
    let text = `${e.head}${current === null ? "NoValue" : "OK"}","Values":[${values.join(",")}],"New":${fresh},"Dropped":${e.dropped}`;
    if (sub.extended) text += `${e.names},"Timestamps":[${times.join(",")}],"Acquired":${acquired}`;
    e.vals.length = 0;
    e.ts.length = 0;
    e.dropped = 0;
    return `${text}}`;
  }
}

async function authenticate(ctx: LoggerContext, token: string | null): Promise<Authentication> {
  if (!(await loginRequired(ctx.db))) return { state: "ok", caller: ANONYMOUS };
  // No token holds a NUL (apitoken=%00…), and PostgreSQL could not even look one up: invalid, not "try again".
  if (token?.includes("\0")) return { state: "invalid", caller: null };
  return authenticateToken(ctx.db, token && token !== "None" ? token : null);
}

/** A token's authentication and, with login required, the sign-in it belongs to. */
async function authenticateWithSignIn(ctx: LoggerContext, token: string | null): Promise<{ auth: Authentication; signIn: SignIn | null }> {
  const auth = await authenticate(ctx, token);
  const signIn = auth.state === "ok" && auth.caller.userId !== null && token ? await signInOf(ctx.db, token) : null;
  return { auth, signIn };
}

/** A connection's caller as of now: by its sign-in once known (an expired access token of a live sign-in still counts), else by its token. */
async function liveAuth(conn: Connection): Promise<Authentication> {
  if (conn.signIn && (await loginRequired(conn.ctx.db))) return signInCaller(conn.ctx.db, conn.signIn);
  return authenticate(conn.ctx, conn.token);
}

const SIGN_IN_ENDED = "Sign-in ended";

function authReason(state: "missing" | "invalid" | "expired"): string {
  return state === "expired" ? "Token expired" : state === "invalid" ? "Invalid token" : "Authentication required";
}

function parse<S extends z.ZodType>(schema: S, payload: unknown, what: string): z.output<S> {
  const r = schema.safeParse(payload);
  if (!r.success) throw invalidParam(`${what} payload: ${describeZodError(r.error)}`);
  return r.data;
}

const ok = (data: unknown) => ({ Success: true, Data: data, ReturnState: { Value: 0, Description: "OK" } });

function refuseUpgrade(socket: Duplex, status: number, value: number, description: string): void {
  const body = JSON.stringify({ Success: false, ReturnState: { Value: value, Description: description } });
  const text = { 400: "Bad Request", 404: "Not Found", 503: "Service Unavailable" }[status] ?? "Error";
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
