import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, login, sleep, start, type TestLogger } from "./helpers.ts";

// The logger answers 413 for bodies beyond a limit — from Content-Length before reading, and
// while counting a streamed body — and closes the connection after the answer.

let logger: TestLogger;
let token: string;
beforeAll(async () => {
  logger = await start({ adminPassword: ADMIN_PASSWORD });
  token = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
});
afterAll(() => logger.stop());

type Reply = { status: number; headers: IncomingHttpHeaders; body: string; sentBytes: number };

/**
 * A raw request whose body is `total` bytes in 64 KB chunks, written as long as the server
 * takes them — or, with `declareOnly`, only the headers (the body is never sent).
 */
function send(path: string, opts: { headers: Record<string, string>; total: number; declareOnly?: boolean }): Promise<Reply> {
  const url = new URL(logger.url);
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = httpRequest({ host: url.hostname, port: url.port, method: "POST", path, headers: opts.headers }, (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body, sentBytes }));
    });
    // Writing on after the server closed may fail; the answer is what counts.
    req.on("error", (e) => answered || reject(e));
    if (opts.declareOnly) return void req.flushHeaders();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sentBytes < opts.total && !req.destroyed && !answered) {
        sentBytes += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!req.destroyed && !answered) req.end();
    };
    pump();
  });
}

const auth = () => ({ Authorization: `Bearer ${token}` });

describe("request body limits", () => {
  it("answers 413 from Content-Length without reading the body", async () => {
    const res = await send("/rpc/AdminAPI.LoginRequired", { headers: { "Content-Type": "application/json", "Content-Length": String(500 * 1024 * 1024) }, total: 0, declareOnly: true });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe("close");
    expect(JSON.parse(res.body).ReturnState.Description).toMatch(/larger than/);
  });

  it("answers 413 for a streamed body as soon as it passes the limit, long before it ends", async () => {
    const total = 200 * 1024 * 1024;
    const res = await send("/rpc/AdminAPI.LoginRequired", { headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }, total });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe("close");
    // Refused after about 1 MB (plus what the sockets buffer), not after reading 200 MB.
    expect(res.sentBytes).toBeLessThan(32 * 1024 * 1024);
  });

  it("does the same for a REST body", async () => {
    const res = await send("/history/data", { headers: { ...auth(), "Content-Type": "application/json", "Transfer-Encoding": "chunked" }, total: 64 * 1024 * 1024 });
    expect(res.status).toBe(413);
  });

  it("answers 413 for a streamed file upload past 20 MB, and keeps no partial file", async () => {
    const res = await send("/files/upload?Path=&Name=big.bin", { headers: { ...auth(), "Content-Type": "application/octet-stream", "Transfer-Encoding": "chunked" }, total: 64 * 1024 * 1024 });
    expect(res.status).toBe(413);
    const list = await fetch(`${logger.url}/files/list?Path=`, { headers: auth() }).then((r) => r.json());
    expect(JSON.stringify(list)).not.toContain("big.bin");
    expect(JSON.stringify(list)).not.toContain(".upload-");
  });

  it("delivers the 413 to a client that is still sending and reads its answer late (lingering close)", async () => {
    // Cutting the connection while the client's bytes keep arriving makes the kernel reset it,
    // and a reset can throw away the answer the client has not read yet.
    const url = new URL(logger.url);
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    await new Promise((r) => socket.once("connect", r));
    socket.pause();
    socket.write("POST /rpc/AdminAPI.LoginRequired HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x20), Buffer.from("\r\n")]);
    let writing = true;
    const pump = () => {
      while (writing && !socket.destroyed) if (!socket.write(chunk)) return void socket.once("drain", pump);
    };
    socket.on("error", () => {});
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    pump();
    // Keep sending for a while without reading: the 413 waits in the client's receive buffer.
    await sleep(400);
    let received = "";
    socket.on("data", (d: Buffer) => {
      received += d.toString("latin1");
      if (!writing || !received.includes("larger than")) return;
      writing = false;
      socket.end();
    });
    socket.resume();
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/larger than/);
  });

  it("still reads bodies within the limit", async () => {
    const res = await fetch(`${logger.url}/rpc/AdminAPI.LoginRequired`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pad: "x".repeat(512 * 1024) }) });
    expect(res.status).toBe(200);
  });
});
