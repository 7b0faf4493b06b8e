import WebSocket from "ws";
import { z } from "zod";
import { countEntries } from "../diagnostics.server";

// The console's client of the logger family's live-value WebSocket (docs/logger-api.md, "Live
// values over WebSocket"). Browser streams of one access token share one logger socket, each
// its own subscription (worker id); the /live route turns their frames into the SSE events the
// browser already reads.

const MSG = { Subscribe: 1, Publish: 2, Stop: 3, Response: 8, Error: 10 } as const;
const ONLINE_DATA = 2;
/** Subscriptions one socket carries before another is opened (the logger bounds them per connection). */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 32;
/** Frames from the logger: 256 variables with every sample of a second at 100 Hz is well below this. */
const MAX_FRAME = 8 * 1024 * 1024;

export const CLOSE_AUTH = 4001;
/** The logger is pinged this often; every frame or pong from it counts as a sign of life. */
const PING_MS = 1_000;
/** Nothing heard for this long: the logger is silent (paused, hung), and the pages are told at once (issue 26 §2). */
export const SILENT_MS = 2_500;
/** Nothing heard for this long: the connection is given up (a reconnect finds out whether the logger is back). */
const GIVE_UP_MS = 30_000;

const Header = z.tuple([z.string(), z.number().int(), z.number().int(), z.union([z.number(), z.string()]), z.string()]);
const num = z.number().nullable();
// Values is "the current value, or the values since the last frame": a number or a list of them.
const PublishItem = z.looseObject({
  Id: z.string(),
  _id: z.string().optional(),
  State: z.string(),
  Values: z.union([num, z.array(num)]),
  Timestamps: z.array(num).optional(),
  New: z.number().optional(),
});
const Publish = z.array(PublishItem);
const ErrorPayload = z.looseObject({
  Text: z.string().optional(),
  Status: z.number().optional(),
  ReturnState: z.object({ Value: z.number(), Description: z.string() }).optional(),
});

/** `times`: each value's own newest sample time (issue 15 §1: a frozen value turns stale by itself). */
export type LiveSample = { t: number; values: Record<string, number | null>; times?: Record<string, number | null> };

export type LiveEnd = { code: number; reason: string; auth: boolean };

/** Why a subscription could not start. */
export class LiveSocketError extends Error {
  readonly kind: "auth" | "busy" | "refused" | "unreachable" | "closed";
  readonly status: number;
  readonly value: number | undefined;
  constructor(kind: LiveSocketError["kind"], message: string, status: number, value?: number) {
    super(message);
    this.name = "LiveSocketError";
    this.kind = kind;
    this.status = status;
    this.value = value;
  }
}

export type LiveSubscription = {
  first: LiveSample;
  close(): void;
  /** The logger has not been heard from for SILENT_MS (paused or hung): values are not current. */
  silent(): boolean;
};

type Subscriber = {
  workerId: number;
  ids: string[];
  values: Record<string, number | null>;
  times: Record<string, number | null>;
  started: boolean;
  onSample: (s: LiveSample) => void;
  onEnd: (end: LiveEnd) => void;
  resolve: (s: LiveSample) => void;
  reject: (e: LiveSocketError) => void;
};

function encode(msgType: number, workerId: number, payload: unknown): Buffer {
  const header = Buffer.from(JSON.stringify(["", msgType, ONLINE_DATA, workerId, ""]));
  const head = Buffer.alloc(3);
  head.writeUInt16LE(header.length, 1);
  return Buffer.concat([head, header, Buffer.from(payload === undefined ? "" : JSON.stringify(payload))]);
}

function decode(raw: Buffer): { msgType: number; workerId: number | string; payload: unknown } | null {
  if (raw.length < 3 || raw[0] !== 0) return null;
  const hl = raw.readUInt16LE(1);
  if (3 + hl > raw.length) return null;
  try {
    const header = Header.safeParse(JSON.parse(raw.toString("utf8", 3, 3 + hl)));
    if (!header.success) return null;
    const body = raw.toString("utf8", 3 + hl).trim();
    return { msgType: header.data[1], workerId: header.data[3], payload: body ? JSON.parse(body) : null };
  } catch {
    return null;
  }
}

/** One socket to the logger for one access token. */
class LoggerSocket {
  readonly ws: WebSocket;
  readonly subs = new Map<number, Subscriber>();
  private nextId = 1;
  /** Resolves "open", or "no-ws" when the logger answers the upgrade with 404 (no /ws there). */
  readonly opened: Promise<"open" | "no-ws">;
  private readonly onGone: () => void;
  /** Set once the socket closed: a subscription that comes after that fails with it. */
  closedWith: LiveEnd | null = null;
  /** When the logger was last heard from (a frame or a pong). */
  private lastHeard = Date.now();
  private pinger: NodeJS.Timeout | null = null;

  constructor(baseUrl: string, token: string, timeoutMs: number, clientAuth: string | undefined, onGone: () => void) {
    this.onGone = onGone;
    const url = `${baseUrl.replace(/^http/, "ws")}/ws?apitoken=${encodeURIComponent(token)}`;
    // The console's client credentials: the logger keeps places for its relay that no token holder
    // can take (docs/logger-api.md, "Live connections"); a logger that does not know the header ignores it.
    const headers = clientAuth ? { "X-Client-Authorization": clientAuth } : undefined;
    this.ws = new WebSocket(url, { maxPayload: MAX_FRAME, perMessageDeflate: false, handshakeTimeout: timeoutMs, headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => {
        this.lastHeard = Date.now();
        this.pinger = setInterval(() => this.ping(), PING_MS);
        this.pinger.unref();
        resolve("open");
      });
      this.ws.on("unexpected-response", (_req, res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        this.ws.terminate();
        if (status === 404) resolve("no-ws");
        else reject(new LiveSocketError(status === 401 || status === 403 ? "auth" : status === 503 ? "busy" : "unreachable", `Logger answered the WebSocket upgrade with ${status}`, status === 401 || status === 403 ? 401 : 503));
      });
      this.ws.on("error", (err) => reject(new LiveSocketError("unreachable", `Logger WebSocket: ${err.message}`, 503)));
    });
    // The rejection is also reported to each subscriber; this one only keeps Node from calling it unhandled.
    this.opened.catch(() => {});
    this.ws.on("message", (data, isBinary) => {
      this.lastHeard = Date.now();
      if (isBinary) this.onFrame(data as Buffer);
    });
    this.ws.on("pong", () => {
      this.lastHeard = Date.now();
    });
    this.ws.on("close", (code, reason) => this.onClose(code, reason.toString()));
  }

  get full(): boolean {
    return this.subs.size >= MAX_SUBSCRIPTIONS_PER_SOCKET;
  }

  /** No frame or pong from the logger for SILENT_MS: it is paused or hung, though the connection stands. */
  get silent(): boolean {
    return this.ws.readyState === WebSocket.OPEN && Date.now() - this.lastHeard > SILENT_MS;
  }

  /**
   * A heartbeat: a frame of ours the logger answers even when no values move (acquisition
   * stopped). A logger silent for GIVE_UP_MS is given up: its streams end and reconnect.
   */
  private ping(): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > GIVE_UP_MS) {
      this.ws.terminate();
      return;
    }
    this.ws.ping();
  }

  add(ids: string[], intervalMs: number, onSample: Subscriber["onSample"], onEnd: Subscriber["onEnd"]): { workerId: number; first: Promise<LiveSample> } {
    const workerId = this.nextId++;
    if (this.closedWith) return { workerId, first: Promise.reject(startError(this.closedWith)) };
    const first = new Promise<LiveSample>((resolve, reject) => {
      const values = Object.fromEntries(ids.map((id) => [id, null]));
      this.subs.set(workerId, { workerId, ids, values, times: { ...values }, started: false, onSample, onEnd, resolve, reject });
    });
    // Closing already (a refused token is closed right after the handshake): the close event rejects it with its reason.
    if (this.ws.readyState !== WebSocket.OPEN) return { workerId, first };
    this.ws.send(encode(MSG.Subscribe, workerId, { IntervalMs: intervalMs, VIDs: ids, ExtendedAnswer: true, OnValueChanged: false, Precision: -1 }));
    return { workerId, first };
  }

  remove(workerId: number): void {
    if (!this.subs.delete(workerId)) return;
    if (this.subs.size === 0) {
      this.onGone();
      this.ws.close(1000, "No more live streams");
    } else if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(encode(MSG.Stop, workerId, null));
    }
  }

  private onFrame(raw: Buffer): void {
    const frame = decode(raw);
    if (!frame || typeof frame.workerId !== "number") return;
    const sub = this.subs.get(frame.workerId);
    if (!sub) return;
    if (frame.msgType === MSG.Error) {
      const p = ErrorPayload.safeParse(frame.payload);
      const text = (p.success && (p.data.ReturnState?.Description ?? p.data.Text)) || "The logger refused the live subscription";
      const status = (p.success && p.data.Status) || (p.success && p.data.ReturnState?.Value === -4 ? 404 : 400);
      const err = new LiveSocketError("refused", text, status, p.success ? p.data.ReturnState?.Value : undefined);
      if (!sub.started) {
        this.remove(sub.workerId);
        sub.reject(err);
      } else console.error(`logger live subscription: ${text}`);
      return;
    }
    if (frame.msgType !== MSG.Publish) return;
    const items = Publish.safeParse(frame.payload);
    if (!items.success) {
      console.error("unexpected logger live frame:", items.error.issues.slice(0, 3));
      return;
    }
    const sample = this.apply(sub, items.data);
    if (!sub.started) {
      sub.started = true;
      sub.resolve(sample ?? { t: Date.now(), values: { ...sub.values }, times: { ...sub.times } });
    } else if (sample) sub.onSample(sample);
  }

  // The SSE relay sent every variable's current value with the logger's time; so does this. A
  // variable without a current value ("NoValue": acquisition stopped, device away) keeps its last
  // value and that value's time: it ages into "stale" on the page instead of turning blank.
  private apply(sub: Subscriber, items: z.infer<typeof Publish>): LiveSample | null {
    let t = 0;
    let changed = false;
    let fresh = false;
    for (const item of items) {
      if (!(item.Id in sub.values)) continue;
      const list = Array.isArray(item.Values) ? item.Values : [item.Values];
      const last = list.length ? list[list.length - 1]! : null;
      if (item.State !== "OK" || last === null) continue;
      const value = last;
      if (sub.values[item.Id] !== value) changed = true;
      sub.values[item.Id] = value;
      if ((item.New ?? 0) > 0) fresh = true;
      for (const ts of item.Timestamps ?? []) {
        if (ts === null) continue;
        if (ts > t) t = ts;
        if (ts > (sub.times[item.Id] ?? -Infinity)) sub.times[item.Id] = ts;
      }
    }
    // A frame that only repeats what the browser has is not worth an event (the SSE stream sent none either).
    if (sub.started && !changed && !fresh) return null;
    return { t: t || Date.now(), values: { ...sub.values }, times: { ...sub.times } };
  }

  private onClose(code: number, reason: string): void {
    if (this.pinger) clearInterval(this.pinger);
    this.onGone();
    this.closedWith = { code, reason, auth: code === CLOSE_AUTH };
    const subs = [...this.subs.values()];
    this.subs.clear();
    for (const sub of subs) {
      if (sub.started) sub.onEnd(this.closedWith);
      else sub.reject(startError(this.closedWith));
    }
  }
}

function startError(end: LiveEnd): LiveSocketError {
  if (end.auth) return new LiveSocketError("auth", end.reason || "Token refused", 401);
  if (end.code === 1013) return new LiveSocketError("busy", end.reason || "The logger has too many live connections", 503, -12);
  return new LiveSocketError("closed", end.reason || `Logger closed the live connection (${end.code})`, 503);
}

const pool = new Map<string, LoggerSocket[]>();
countEntries("liveSockets", () => liveSocketCount().sockets);
countEntries("liveSubscriptions", () => liveSocketCount().subscriptions);

/**
 * Subscribes to `ids` over the logger's WebSocket, sharing a socket with other streams of the
 * same token. Resolves with the first values once the logger answered; null when the logger
 * has no /ws (the caller falls back to its SSE stream). Rejects with LiveSocketError.
 */
export async function subscribeLive(
  o: { baseUrl: string; token: string; ids: string[]; intervalMs: number; timeoutMs: number; signal?: AbortSignal; clientAuth?: string },
  onSample: (s: LiveSample) => void,
  onEnd: (end: LiveEnd) => void,
): Promise<LiveSubscription | null> {
  const key = `${o.baseUrl}\u0000${o.token}`;
  let socket = pool.get(key)?.find((s) => !s.full && s.ws.readyState !== WebSocket.CLOSING && s.ws.readyState !== WebSocket.CLOSED);
  if (!socket) {
    const created: LoggerSocket = new LoggerSocket(o.baseUrl, o.token, o.timeoutMs, o.clientAuth, () => {
      const list = pool.get(key)?.filter((s) => s !== created) ?? [];
      if (list.length) pool.set(key, list);
      else pool.delete(key);
    });
    socket = created;
    pool.set(key, [...(pool.get(key) ?? []), socket]);
  }
  const s = socket;
  if ((await s.opened) === "no-ws") return null;
  if (o.signal?.aborted) throw new LiveSocketError("closed", "The browser went away", 499);
  const { workerId, first } = s.add(o.ids, o.intervalMs, onSample, onEnd);
  const close = () => s.remove(workerId);
  o.signal?.addEventListener("abort", close, { once: true });
  const silent = () => s.silent;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LiveSocketError("unreachable", `No answer to the live subscription within ${o.timeoutMs} ms`, 503)), o.timeoutMs);
  });
  try {
    return { first: await Promise.race([first, timeout]), close, silent };
  } catch (err) {
    close();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Open logger sockets and their subscriptions (tests, diagnostics). */
export function liveSocketCount(): { sockets: number; subscriptions: number } {
  let sockets = 0;
  let subscriptions = 0;
  for (const list of pool.values()) for (const s of list) {
    sockets++;
    subscriptions += s.subs.size;
  }
  return { sockets, subscriptions };
}
