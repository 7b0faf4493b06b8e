// A small, independent client for the logger's data API, written from
// shared/design/LOGGER-API.md alone (sections Conventions, Auth, Data). It imports nothing
// from logger/ or app/: it talks HTTP and WebSocket exactly like the logger family's own
// data clients do (AdminAPI.Login with a ClientID, `Authorization: Bearer <token>` on every
// call, `Bearer None` when no login is required, `content-type: application/json` even on GET).
//
// The client never throws on an HTTP status: every call answers an `Answer` with the status,
// the raw text and the parsed JSON (when the body is JSON), so the suite can assert on them.
import WebSocket from "ws";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Answer {
  /** "POST /history/data" — used in every failure message. */
  label: string;
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body when it is JSON, else undefined. */
  json: any;
}

export interface LoginOptions {
  url: string;
  user: string;
  password: string;
  clientId: string;
  /** Milliseconds one HTTP call may take. */
  timeoutMs?: number;
}

export interface TokenSet {
  AccessToken: string;
  RefreshToken: string;
  ExpiresIn: number;
}

/** Every JSON answer the client saw, for checks that span all calls (ReturnState). */
export interface Recorded {
  label: string;
  status: number;
  json: any;
}

export class LoggerClient {
  readonly base: string;
  readonly clientId: string;
  /** The access token, or null when the logger does not require a login (then `Bearer None`). */
  token: string | null = null;
  refreshToken: string | null = null;
  loginRequired = true;
  readonly recorded: Recorded[] = [];
  private readonly timeoutMs: number;

  constructor(url: string, clientId: string, timeoutMs = 15_000) {
    this.base = url.replace(/\/+$/, "");
    this.clientId = clientId;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Sign in as real clients do: ask `AdminAPI.LoginRequired` (with `Bearer None`, as they do
   * before they have a token); when it is true, `AdminAPI.Login {ClientID, Username, Password}`
   * → `{AccessToken, RefreshToken, ExpiresIn}`. Throws with the logger's answer when that fails.
   */
  static async connect(opts: LoginOptions): Promise<{ client: LoggerClient; loginRequiredAnswer: Answer; loginAnswer?: Answer }> {
    const client = new LoggerClient(opts.url, opts.clientId, opts.timeoutMs);
    const loginRequiredAnswer = await client.rpc("AdminAPI.LoginRequired", {});
    if (loginRequiredAnswer.status !== 200 || typeof loginRequiredAnswer.json?.LoginRequired !== "boolean") {
      throw new Error(`${loginRequiredAnswer.label} → HTTP ${loginRequiredAnswer.status}, LoginRequired: expected boolean, got ${show(loginRequiredAnswer.json?.LoginRequired)} (${clip(loginRequiredAnswer.text)})`);
    }
    client.loginRequired = loginRequiredAnswer.json.LoginRequired;
    if (!client.loginRequired) return { client, loginRequiredAnswer };
    const loginAnswer = await client.login(opts.user, opts.password);
    if (loginAnswer.status !== 200 || typeof loginAnswer.json?.AccessToken !== "string") {
      throw new Error(`${loginAnswer.label} (ClientID ${opts.clientId}, Username ${opts.user}) → HTTP ${loginAnswer.status}, AccessToken: expected str, got ${show(loginAnswer.json?.AccessToken)} (${clip(loginAnswer.text)})`);
    }
    return { client, loginRequiredAnswer, loginAnswer };
  }

  /** `AdminAPI.Login`; on success the client uses the new tokens. */
  async login(user: string, password: string): Promise<Answer> {
    const answer = await this.rpc("AdminAPI.Login", { ClientID: this.clientId, Username: user, Password: password });
    this.adopt(answer);
    return answer;
  }

  /** `AdminAPI.RefreshToken {ClientID, RefreshToken}`; on success the client uses the new tokens. */
  async refresh(refreshToken = this.refreshToken): Promise<Answer> {
    const answer = await this.rpc("AdminAPI.RefreshToken", { ClientID: this.clientId, RefreshToken: refreshToken });
    this.adopt(answer);
    return answer;
  }

  private adopt(answer: Answer) {
    if (answer.status === 200 && typeof answer.json?.AccessToken === "string") {
      this.token = answer.json.AccessToken;
      this.refreshToken = typeof answer.json.RefreshToken === "string" ? answer.json.RefreshToken : null;
    }
  }

  /** The Authorization header real clients send: `Bearer <token>`, or `Bearer None` without one. */
  authorization(): string {
    return `Bearer ${this.token ?? "None"}`;
  }

  async request(
    method: string,
    path: string,
    opts: { json?: unknown; body?: Uint8Array<ArrayBuffer> | string; contentType?: string; authorization?: string | null } = {},
  ): Promise<Answer> {
    const label = `${method} ${path}`;
    const headers: Record<string, string> = { "content-type": opts.contentType ?? "application/json" };
    const auth = opts.authorization === undefined ? this.authorization() : opts.authorization;
    if (auth !== null) headers.authorization = auth;
    const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.body;
    let res: Response;
    try {
      res = await fetch(this.base + path, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new Error(`${label} → no answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (json !== undefined) this.recorded.push({ label, status: res.status, json });
    return { label, status: res.status, headers: res.headers, text, json };
  }

  /** A POST whose answer is bytes (a UDBF file), not text. */
  async postForBytes(path: string, json: unknown): Promise<{ label: string; status: number; headers: Headers; bytes: Uint8Array; text: string }> {
    const label = `POST ${path}`;
    const res = await fetch(this.base + path, { method: "POST", headers: { "content-type": "application/json", authorization: this.authorization() }, body: JSON.stringify(json), signal: AbortSignal.timeout(this.timeoutMs) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { label, status: res.status, headers: res.headers, bytes, text: res.ok ? "" : new TextDecoder().decode(bytes.subarray(0, 500)) };
  }

  get(path: string, opts: { authorization?: string | null } = {}) {
    return this.request("GET", path, opts);
  }
  post(path: string, json: unknown, opts: { authorization?: string | null } = {}) {
    return this.request("POST", path, { json, ...opts });
  }
  postBytes(path: string, body: Uint8Array<ArrayBuffer> | string, contentType: string) {
    return this.request("POST", path, { body, contentType });
  }
  del(path: string) {
    return this.request("DELETE", path);
  }
  rpc(method: string, json: unknown = {}) {
    return this.post(`/rpc/${method}`, json);
  }

  /** `ws://host/ws?apitoken=<access token>` (real clients put `None` there without a token). */
  wsUrl(): string {
    const url = new URL(this.base);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/ws`;
    url.search = `?apitoken=${encodeURIComponent(this.token ?? "None")}`;
    return url.toString();
  }

  async openSocket(timeoutMs = 5000): Promise<GiSocket> {
    return GiSocket.open(this.wsUrl(), timeoutMs);
  }
}

// ---------------------------------------------------------------- WebSocket framing

/** Message types of the WebSocket header (`["", msgType, workerType, workerId, ""]`). */
export const MsgType = { Unspecified: 0, Subscribe: 1, Publish: 2, Stop: 3, Request: 7, Response: 8, Error: 10, Authentication: 13 } as const;
/** Worker types of the WebSocket header. */
export const WorkerType = { RpcCall: 1, OnlineData: 2, Authentication: 13, SystemState: 15, MessageEvents: 17 } as const;

export type FrameHeader = [string, number, number, number, string];

export interface Frame {
  header: unknown[];
  payload: any;
  /** When the frame arrived (Date.now()). */
  at: number;
  /** The raw bytes, for framing checks. */
  raw: Uint8Array;
}

/** byte 0x00, 2-byte little-endian header length, JSON header, JSON payload. */
export function encodeFrame(header: FrameHeader, payload: unknown): Uint8Array {
  const head = Buffer.from(JSON.stringify(header), "utf8");
  const body = Buffer.from(JSON.stringify(payload ?? {}), "utf8");
  if (head.length > 0xffff) throw new Error("WebSocket header too long");
  const out = Buffer.alloc(3 + head.length + body.length);
  out[0] = 0x00;
  out.writeUInt16LE(head.length, 1);
  head.copy(out, 3);
  body.copy(out, 3 + head.length);
  return out;
}

/** Decodes one frame; throws an Error that says what is wrong with it. */
export function decodeFrame(raw: Uint8Array): { header: unknown[]; payload: any } {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (buf.length < 3) throw new Error(`frame of ${buf.length} bytes: expected at least 3 (0x00, 2-byte header length)`);
  if (buf[0] !== 0x00) throw new Error(`frame byte 0: expected 0x00, got 0x${buf[0]!.toString(16).padStart(2, "0")}`);
  const headerLength = buf.readUInt16LE(1);
  if (3 + headerLength > buf.length) throw new Error(`frame header length ${headerLength} runs past the frame's ${buf.length} bytes`);
  const headerText = buf.subarray(3, 3 + headerLength).toString("utf8");
  const payloadText = buf.subarray(3 + headerLength).toString("utf8");
  let header: unknown;
  try {
    header = JSON.parse(headerText);
  } catch {
    throw new Error(`frame header: expected JSON, got ${clip(headerText)}`);
  }
  if (!Array.isArray(header)) throw new Error(`frame header: expected a JSON array, got ${clip(headerText)}`);
  let payload: any;
  try {
    payload = payloadText.length ? JSON.parse(payloadText) : undefined;
  } catch {
    throw new Error(`frame payload: expected JSON, got ${clip(payloadText)}`);
  }
  return { header, payload };
}

/** One WebSocket connection speaking the logger family's framing. */
export class GiSocket {
  readonly frames: Frame[] = [];
  /** Frames that could not be decoded, with the reason; text frames count as wrong too. */
  readonly bad: string[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  private readonly ws: WebSocket;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on("message", (data, isBinary) => {
      const raw = toBytes(data);
      if (!isBinary) this.bad.push(`text frame (expected binary): ${clip(Buffer.from(raw).toString("utf8"))}`);
      try {
        const { header, payload } = decodeFrame(raw);
        this.frames.push({ header, payload, at: Date.now(), raw });
      } catch (err) {
        this.bad.push((err as Error).message);
      }
      this.wake();
    });
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString("utf8") };
      this.wake();
    });
    ws.on("error", () => this.wake());
  }

  static open(url: string, timeoutMs: number): Promise<GiSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const socket = new GiSocket(ws);
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`WebSocket ${redact(url)}: not open after ${timeoutMs} ms`));
      }, timeoutMs);
      ws.once("open", () => {
        clearTimeout(timer);
        resolve(socket);
      });
      ws.once("unexpected-response", (_req, res) => {
        clearTimeout(timer);
        reject(new Error(`WebSocket ${redact(url)}: the upgrade was answered with HTTP ${res.statusCode}`));
        ws.terminate();
      });
      ws.once("error", (err) => {
        clearTimeout(timer);
        reject(new Error(`WebSocket ${redact(url)}: ${err.message}`));
      });
    });
  }

  send(header: FrameHeader, payload: unknown) {
    this.ws.send(encodeFrame(header, payload));
  }

  /** Waits until `done()` is true (checked on every frame), the socket closes, or the time is up. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (this.closed) return done();
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  close() {
    if (!this.closed) this.ws.close();
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function toBytes(data: WebSocket.RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return new Uint8Array(data as ArrayBuffer);
}

// ---------------------------------------------------------------- small helpers

/** A value as it appears in a failure message: `undefined`, `"text"`, `1.5`, `array(3)`, `object`. */
export function show(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  return "object";
}

export function clip(text: string, max = 300): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

function redact(url: string): string {
  return url.replace(/apitoken=[^&]+/, "apitoken=…");
}
