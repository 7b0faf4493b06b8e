// The VNC view's WebSocket-to-TCP proxy: `GET /vncview/ws?target=<id>` (WebSocket upgrade).
// The upgrade is checked by `authorize` (the cookie session and the logger, see
// app/services/vnc-proxy.server.ts), which also returns the target's host, port and password as
// an administrator configured them: the browser never names an address.
//
// The proxy answers the VNC server's security handshake itself (VNC authentication with the
// stored password), and offers the browser only "None": the password never leaves the server.
// After the handshake bytes flow both ways through stream pipes (backpressure included).
// Plain TypeScript that Node runs directly (no app imports): server/main.ts wires it up.
import { createCipheriv } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createConnection, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createWebSocketStream, WebSocketServer, type WebSocket } from "ws";

export interface VncTarget {
  Host: string;
  Port: number;
  Password: string;
}

export type UpgradeCheck = { ok: true; target: VncTarget; setCookie?: string } | { ok: false; status: number; setCookie?: string };

export interface VncProxyOptions {
  /** Checks the upgrade request (session, permission, target id) and names the target. */
  authorize: (req: IncomingMessage) => Promise<UpgradeCheck>;
  path?: string;
  /** Open (and pending) proxied connections at most; more are refused with 503. */
  maxConnections?: number;
  /** Time for the TCP connect plus the VNC server's handshake. */
  handshakeTimeoutMs?: number;
  /** Whether the upgrade comes from the console's own pages (default: Origin's host is Host). */
  sameOrigin?: (req: IncomingMessage) => boolean;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export const VNC_WS_PATH = "/vncview/ws";

export function createVncProxy(options: VncProxyOptions) {
  const path = options.path ?? VNC_WS_PATH;
  const maxConnections = options.maxConnections ?? 16;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 15_000;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 4 * 1024 * 1024 });
  const cookies = new WeakMap<IncomingMessage, string>();
  wss.on("headers", (headers, req) => {
    const cookie = cookies.get(req);
    if (cookie) headers.push(`Set-Cookie: ${cookie}`);
  });
  let open = 0;

  /** Handles the upgrade when it is for the proxy's path (true); false leaves it to others. */
  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    } catch {
      return false;
    }
    if (pathname !== path) return false;
    socket.on("error", () => socket.destroy());
    if (!(options.sameOrigin ?? sameOrigin)(req)) {
      refuse(socket, 403);
      return true;
    }
    if (open >= maxConnections) {
      refuse(socket, 503);
      return true;
    }
    open++;
    let counted = true;
    const release = () => {
      if (counted) open--;
      counted = false;
    };
    options
      .authorize(req)
      .catch((): UpgradeCheck => ({ ok: false, status: 502 }))
      .then((check) => {
        if (!check.ok) {
          release();
          refuse(socket, check.status, check.setCookie);
          return;
        }
        if (socket.destroyed) {
          release();
          return;
        }
        if (check.setCookie) cookies.set(req, check.setCookie);
        wss.handleUpgrade(req, socket, head, (ws) => {
          ws.once("close", release);
          bridge(ws, check.target, handshakeTimeoutMs);
        });
      });
    return true;
  }

  return {
    handleUpgrade,
    /** Currently open proxied connections (for tests and diagnostics). */
    get openConnections() {
      return open;
    },
    close() {
      // "Going away" lets noVNC tell a shutdown from a broken line; stragglers are cut after 1 s.
      for (const client of wss.clients) {
        client.close(1001, "server shutting down");
        setTimeout(() => client.terminate(), 1000).unref();
      }
      wss.close();
    },
  };
}

/** The upgrade request as a fetch Request, so app code reads its cookie and URL as in a loader. */
export function upgradeRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, { headers });
}

/** Browsers send Origin on WebSocket upgrades: it must be this console (no cross-site use of the cookie). */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  const forwarded = (req.headers["x-forwarded-host"] as string | undefined)?.split(",")[0]?.trim();
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || (!!forwarded && host === forwarded);
  } catch {
    return false;
  }
}

function refuse(socket: Duplex, status: number, setCookie?: string) {
  const text = STATUS_TEXT[status] ?? "Error";
  const body = `${status} ${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      (setCookie ? `Set-Cookie: ${setCookie}\r\n` : "") +
      `\r\n${body}`,
  );
}

/** Reads exact byte counts from a stream during a handshake; `release` hands back what is left over. */
class Reader {
  private buffer = Buffer.alloc(0);
  private waiting: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;
  private readonly stream: Duplex;
  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.pump();
  };
  private readonly onEnd = () => this.fail(new Error("connection closed during the handshake"));

  constructor(stream: Duplex) {
    this.stream = stream;
    stream.on("data", this.onData);
    stream.on("end", this.onEnd);
    stream.on("close", this.onEnd);
    stream.on("error", (e: Error) => this.fail(e));
  }

  read(n: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { n, resolve, reject };
      this.pump();
    });
  }

  fail(error: Error) {
    this.failure ??= error;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(error);
  }

  /** Stops reading (the stream is paused) and returns bytes that arrived beyond the handshake. */
  release(): Buffer {
    this.stream.off("data", this.onData);
    this.stream.off("end", this.onEnd);
    this.stream.off("close", this.onEnd);
    this.stream.pause();
    return this.buffer;
  }

  private pump() {
    const w = this.waiting;
    if (!w || this.buffer.length < w.n) return;
    this.waiting = null;
    const out = this.buffer.subarray(0, w.n);
    this.buffer = this.buffer.subarray(w.n);
    w.resolve(Buffer.from(out));
  }
}

class HandshakeError extends Error {}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** The RFB 3.8 server side towards the browser: version, security type None, then the result. */
async function browserHandshake(ws: Duplex, reader: Reader): Promise<void> {
  ws.write("RFB 003.008\n");
  const version = (await reader.read(12)).toString("latin1");
  if (!/^RFB 003\.00[378]\n$/.test(version)) throw new HandshakeError("unsupported RFB version from the browser");
  ws.write(Buffer.from([1, 1]));
  const chosen = await reader.read(1);
  if (chosen[0] !== 1) throw new HandshakeError("the browser chose an unknown security type");
}

/** The client side towards the VNC server: protocol 3.3–3.8, security None or VNC authentication. */
async function serverHandshake(tcp: Socket, reader: Reader, password: string): Promise<void> {
  const version = (await reader.read(12)).toString("latin1");
  const match = /^RFB (\d{3})\.(\d{3})\n$/.exec(version);
  if (!match || Number(match[1]) < 3) throw new HandshakeError("the target is not a VNC server");
  const minor = Number(match[1]) > 3 ? 8 : Number(match[2]) >= 8 ? 8 : Number(match[2]) >= 7 ? 7 : 3;
  tcp.write(`RFB 003.00${minor}\n`);
  const reason = async () => (await reader.read((await reader.read(4)).readUInt32BE())).toString("utf8");
  let type: number;
  if (minor === 3) {
    type = (await reader.read(4)).readUInt32BE();
    if (type === 0) throw new HandshakeError(await reason());
  } else {
    const count = (await reader.read(1))[0]!;
    if (count === 0) throw new HandshakeError(await reason());
    const types = [...(await reader.read(count))];
    if (password && types.includes(2)) type = 2;
    else if (types.includes(1)) type = 1;
    else if (types.includes(2)) throw new HandshakeError("the VNC server asks for a password, but none is configured");
    else throw new HandshakeError("the VNC server offers no supported security type");
    tcp.write(Buffer.from([type]));
  }
  if (type === 2) {
    const challenge = await reader.read(16);
    tcp.write(vncAuthResponse(challenge, password));
  } else if (type !== 1) {
    throw new HandshakeError("the VNC server offers no supported security type");
  }
  if (type === 2 || minor === 8) {
    const result = (await reader.read(4)).readUInt32BE();
    if (result !== 0) throw new HandshakeError(minor === 8 ? await reason().catch(() => "authentication failed") : "authentication failed");
  }
}

/**
 * VNC authentication (RFC 6143 §7.2.2): DES of the challenge with the password (8 bytes, each
 * byte's bits reversed) as key. Node's OpenSSL 3 has no single DES any more; triple DES with
 * K1 = K2 computes exactly DES(K), so des-ede-ecb with the key twice is used.
 */
export function vncAuthResponse(challenge: Buffer, password: string): Buffer {
  const key = Buffer.alloc(8);
  Buffer.from(password, "latin1").copy(key, 0, 0, 8);
  for (let i = 0; i < 8; i++) {
    let b = key[i]!;
    let r = 0;
    for (let bit = 0; bit < 8; bit++) {
      r = (r << 1) | (b & 1);
      b >>= 1;
    }
    key[i] = r;
  }
  const cipher = createCipheriv("des-ede-ecb", Buffer.concat([key, key]), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(challenge), cipher.final()]);
}

/** Connects the accepted WebSocket to the target: both handshakes, then pipes until either side ends. */
function bridge(ws: WebSocket, target: VncTarget, handshakeTimeoutMs: number) {
  const browser = createWebSocketStream(ws);
  const tcp = createConnection({ host: target.Host, port: target.Port });
  tcp.setNoDelay(true);
  const closeBoth = () => {
    tcp.destroy();
    browser.destroy();
  };
  // Until the handshakes are done a failing target is explained to the browser (below), not cut.
  let piping = false;
  browser.on("error", closeBoth);
  browser.on("close", () => tcp.destroy());
  tcp.on("error", () => (piping ? closeBoth() : tcp.destroy()));
  tcp.on("close", () => {
    if (piping) browser.destroy();
  });

  const browserReader = new Reader(browser);
  const tcpReader = new Reader(tcp);
  const timer = setTimeout(() => {
    tcpReader.fail(new HandshakeError("the VNC server did not answer in time"));
    browserReader.fail(new HandshakeError("the browser did not answer in time"));
  }, handshakeTimeoutMs);
  const server = serverHandshake(tcp, tcpReader, target.Password);
  server.catch(() => {});
  browserHandshake(browser, browserReader)
    .then(async () => {
      try {
        await server;
      } catch (error) {
        // RFB 3.8 lets the browser see why: noVNC reports it as a security failure.
        const text = error instanceof HandshakeError ? error.message : "the VNC server cannot be reached";
        const reason = Buffer.from(text, "utf8");
        browser.end(Buffer.concat([u32(1), u32(reason.length), reason]));
        tcp.destroy();
        return;
      }
      clearTimeout(timer);
      piping = true;
      if (tcp.destroyed) {
        closeBoth();
        return;
      }
      browser.write(u32(0));
      const fromBrowser = browserReader.release();
      const fromServer = tcpReader.release();
      if (fromBrowser.length) tcp.write(fromBrowser);
      if (fromServer.length) browser.write(fromServer);
      browser.pipe(tcp);
      tcp.pipe(browser);
    })
    .catch(() => {
      clearTimeout(timer);
      closeBoth();
    })
    .finally(() => clearTimeout(timer));
}
