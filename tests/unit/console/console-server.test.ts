import { globalAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { bodyLimit, clientAddress, DEFAULT_BODY_LIMIT, originAllowed, refusal, requestOrigin, type OriginSettings } from "~/services/requestGate.server";
import { keepIdleConnections } from "../../../server/keepAlive.ts";
import { createConsoleHandler, type RequestGate } from "../../../server/request.ts";

// server/request.ts in front of a stand-in for React Router: what reaches the app, and what
// the client gets for refused, oversized and cross-site requests.

const LIMIT = DEFAULT_BODY_LIMIT;
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

type Seen = { url: string; headers: Headers; bodyBytes: number | "failed" };

async function start(settings: OriginSettings) {
  const seen: Seen[] = [];
  const gate: RequestGate = {
    refusal: (facts) => refusal(facts, settings),
    requestOrigin: (facts) => requestOrigin(facts, settings),
    originAllowed,
    bodyLimit,
    clientAddress: (headers, peer) => clientAddress(headers, peer, settings),
    trustProxy: settings.trustProxy,
  };
  const handle = async (request: Request) => {
    const entry: Seen = { url: request.url, headers: request.headers, bodyBytes: 0 };
    seen.push(entry);
    if (new URL(request.url).pathname === "/refused") return new Response(`<html>refused page ${new URL(request.url).search}</html>`, { headers: { "Content-Type": "text/html" } });
    if (request.body) {
      try {
        entry.bodyBytes = (await request.arrayBuffer()).byteLength;
      } catch {
        entry.bodyBytes = "failed";
        return new Response("the action failed", { status: 500 });
      }
    }
    return new Response("ok");
  };
  const app = express();
  // Mounted as server/main.ts mounts it (no route pattern, whose parameters Express would decode).
  app.use(createConsoleHandler({ handle, gate }));
  const server = app.listen(0, "127.0.0.1");
  keepIdleConnections(server);
  await new Promise((r) => server.once("listening", r));
  const port = (server.address() as AddressInfo).port;
  close = () => new Promise((r) => (server.closeAllConnections(), server.close(() => r())));
  return { port, seen, origin: `http://127.0.0.1:${port}` };
}

/** A raw request: headers, then `chunks` written one after the other (each awaited). */
function send(port: number, method: string, path: string, headers: Record<string, string>, chunks: Buffer[] = []): Promise<{ status: number; body: string; headers: IncomingMessage["headers"] }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on("error", reject);
    // A declared body that is never sent: only the headers go out.
    if (chunks.length === 0 && Number(headers["Content-Length"] ?? 0) > 0) return void req.flushHeaders();
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        await new Promise<void>((done) => req.write(chunk, () => done()));
      }
      if (!req.destroyed) req.end();
    })().catch(() => {});
  });
}

const form = { "Content-Type": "application/x-www-form-urlencoded" };

/**
 * A client that sends its whole body (`total` bytes of `chunk`, then `tail`) and reads the answer
 * only late, as a browser uploading a large form does. Resolves with what it read once the
 * server closed the connection.
 */
async function sendWithoutReading(port: number, head: string, chunk: Buffer, total: number, tail = ""): Promise<string> {
  const socket = connect({ host: "127.0.0.1", port });
  await new Promise((r) => socket.once("connect", r));
  socket.pause();
  socket.on("error", () => {});
  const closed = new Promise<void>((r) => socket.once("close", () => r()));
  socket.write(head);
  let sent = 0;
  const pump = () => {
    while (sent < total && !socket.destroyed) {
      sent += chunk.length;
      if (!socket.write(chunk)) return void socket.once("drain", pump);
    }
    if (!socket.destroyed) socket.write(tail);
  };
  pump();
  // Sending for a while without reading: the answer waits in the client's receive buffer.
  await new Promise((r) => setTimeout(r, 400));
  let received = "";
  socket.on("data", (d: Buffer) => (received += d.toString("latin1")));
  socket.resume();
  await closed;
  return received;
}

describe("the console's request handler", () => {
  it("refuses a declared Content-Length over the limit before reading the body", async () => {
    const { port, origin, seen } = await start({ publicOrigin: null, trustProxy: false });
    // The body is never sent: the answer can only come from the header.
    const res = await send(port, "POST", "/settings", { ...form, Origin: origin, "Content-Length": String(LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(seen).toHaveLength(0);
  });

  it("counts a streamed body: past the limit the client gets 413 and the app's read fails", async () => {
    const { port, origin, seen } = await start({ publicOrigin: null, trustProxy: false });
    const chunks = Array.from({ length: LIMIT / (16 * 1024) + 8 }, () => Buffer.alloc(16 * 1024, 97));
    const res = await send(port, "POST", "/settings", { ...form, Origin: origin, "Transfer-Encoding": "chunked" }, chunks);
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe("close");
    expect(seen[0]?.bodyBytes).toBe("failed");
  });

  it("delivers its 413 to a client that is still sending (lingering close), by Content-Length or counted", async () => {
    // Closing while the client's bytes keep arriving makes the kernel reset the connection, and a
    // reset can discard the answer the client has not read yet: it sees ECONNRESET, not the 413.
    const { port, origin } = await start({ publicOrigin: null, trustProxy: false });
    const headers = `POST /settings HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nContent-Type: application/x-www-form-urlencoded\r\n`;
    const total = 24 * 1024 * 1024;
    const declared = await sendWithoutReading(port, `${headers}Content-Length: ${total}\r\n\r\n`, Buffer.alloc(64 * 1024, 97), total);
    expect(declared).toMatch(/^HTTP\/1\.1 413 /);
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 97), Buffer.from("\r\n")]);
    const streamed = await sendWithoutReading(port, `${headers}Transfer-Encoding: chunked\r\n\r\n`, chunk, total, "0\r\n\r\n");
    expect(streamed).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("passes a body within the limit through whole", async () => {
    const { port, origin, seen } = await start({ publicOrigin: null, trustProxy: false });
    const chunks = Array.from({ length: 3 }, () => Buffer.alloc(16 * 1024, 97));
    const res = await send(port, "POST", "/settings", { ...form, Origin: origin, "Transfer-Encoding": "chunked" }, chunks);
    expect(res.status).toBe(200);
    expect(seen[0]?.bodyBytes).toBe(48 * 1024);
  });

  it("shows a browser the app's refusal page, and tells a script in plain text", async () => {
    const { port, seen } = await start({ publicOrigin: null, trustProxy: false });
    const page = await send(port, "POST", "/fileBrowser/upload", { ...form, Origin: "https://evil.example", Accept: "text/html,application/xhtml+xml", "Content-Length": "0" });
    expect(page.status).toBe(403);
    expect(page.body).toContain("refused page ?status=403&reason=cross-origin");
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(["/refused"]);
    const script = await send(port, "POST", "/signin/token", { ...form, Origin: "https://evil.example", "Content-Length": "0" });
    expect(script).toMatchObject({ status: 403, body: "403 cross-origin\n" });
    const put = await send(port, "PUT", "/settings", { Origin: `http://127.0.0.1:${port}` });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, HEAD, POST");
    expect(seen).toHaveLength(1);
  });

  it("answers a path that does not decode with the refusal page (400), before the app sees it", async () => {
    const { port, seen } = await start({ publicOrigin: null, trustProxy: false });
    for (const path of ["/%ff", "/a%", "/dashboard/%E0%A4%A"]) {
      const page = await send(port, "GET", path, { Accept: "text/html" });
      expect(page.status, path).toBe(400);
      expect(page.body, path).toContain("refused page ?status=400&reason=bad-request");
      expect(await send(port, "GET", path, {}), path).toMatchObject({ status: 400, body: "400 bad-request\n" });
    }
    expect(seen.every((s) => new URL(s.url).pathname === "/refused")).toBe(true);
    // Encoded characters that do decode are the app's to judge.
    expect((await send(port, "GET", "/log%20x?text=100%25", {})).status).toBe(200);
  });

  it("gives the app the public origin's URL, and forwarded headers only from a trusted proxy", async () => {
    const direct = await start({ publicOrigin: null, trustProxy: false });
    await send(direct.port, "GET", "/x?y=1", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example", "X-Forwarded-For": "6.6.6.6", "X-Loggia-Client-Address": "1.2.3.4" });
    expect(direct.seen[0]!.url).toBe(`http://127.0.0.1:${direct.port}/x?y=1`);
    expect(direct.seen[0]!.headers.get("x-forwarded-host")).toBeNull();
    expect(direct.seen[0]!.headers.get("x-forwarded-for")).toBeNull();
    expect(direct.seen[0]!.headers.get("x-forwarded-proto")).toBe("http");
    expect(direct.seen[0]!.headers.get("x-loggia-client-address")).toBe("127.0.0.1");
    await close!();

    const proxied = await start({ publicOrigin: null, trustProxy: true });
    await send(proxied.port, "GET", "/x", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "loggia.example", "X-Forwarded-For": "6.6.6.6, 203.0.113.7" });
    expect(proxied.seen[0]!.url).toBe("https://loggia.example/x");
    expect(proxied.seen[0]!.headers.get("x-loggia-client-address")).toBe("203.0.113.7");
    await close!();

    const configured = await start({ publicOrigin: "https://loggia.example", trustProxy: false });
    const res = await send(configured.port, "POST", "/signin", { ...form, Origin: "https://loggia.example", "Content-Length": "0" });
    expect(res.status).toBe(200);
    expect(configured.seen[0]!.url).toBe("https://loggia.example/signin");
    expect(configured.seen[0]!.headers.get("x-forwarded-proto")).toBe("https");
  });
});

it("keeps an idle keep-alive connection open longer than a client's pool does", async () => {
  // Node's global agent (Playwright's requests, scripts) drops an idle connection after 5 s: a
  // server closing at the same moment made a request sent then fail with ECONNRESET.
  const clientIdleMs = (globalAgent as unknown as { options: { timeout?: number } }).options.timeout ?? 5000;
  const { port } = await start({ publicOrigin: null, trustProxy: false });
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let closed = false;
  socket.setEncoding("utf8");
  socket.on("data", (c: string) => (received += c));
  socket.on("end", () => (closed = true));
  socket.on("close", () => (closed = true));
  const get = async () => {
    const before = received.length;
    socket.write("GET /kept HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await expect.poll(() => received.slice(before)).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n(ok|2\r\nok\r\n0\r\n\r\n)$/);
  };
  try {
    await get();
    await new Promise((r) => setTimeout(r, clientIdleMs + 1000));
    expect(closed, "the console closed the idle connection").toBe(false);
    await get();
  } finally {
    socket.destroy();
  }
}, 20_000);
