import { rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect as tcpConnect, type AddressInfo } from "node:net";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLogger, type RunningLogger } from "../../../logger/server.ts";
import { ADMIN_PASSWORD, CLIENT, login, rpc, sleep, tempDir } from "../logger/helpers";

// The /live route end to end in one process: real cookie sessions, the real guard and the real
// logger behind a pass-through proxy. The proxy can act as a logger of the family without /ws
// (404 on the upgrade) and can switch between two loggers (one with 3-second access tokens).

type Sample = { t: number; values: Record<string, number | null>; times?: Record<string, number | null> };
type Lg = RunningLogger & { dir: string; lines: string[] };

let normal: Lg;
let shortTokens: Lg;
let target: Lg;
let noWs = false;
let proxy: Server;
let get: (path: string, cookie?: string, signal?: AbortSignal) => Promise<Response>;
let cookieFor: (lg: Lg) => Promise<string>;
let liveSocketCount: () => { sockets: number; subscriptions: number };
let oil: string;
let horn: string;

async function logger(opts: { accessTtlSec?: number } = {}): Promise<Lg> {
  const dir = tempDir();
  const lines: string[] = [];
  const lg = await startLogger({ port: 0, dataDir: dir, log: (l) => lines.push(l), adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 }, ...opts });
  return Object.assign(lg, { dir, lines });
}

/** Reads SSE events from a /live answer until `n` have come (or the stream ends). */
async function events(res: Response, n: number, timeoutMs = 5000): Promise<{ samples: Sample[]; text: string; ended: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let rest = "";
  const samples: Sample[] = [];
  const until = Date.now() + timeoutMs;
  while (samples.length < n) {
    const left = until - Date.now();
    if (left <= 0) throw new Error(`only ${samples.length} events within ${timeoutMs} ms: ${text.slice(0, 300)}`);
    const chunk = await Promise.race([reader.read(), sleep(left).then(() => null)]);
    if (chunk === null) continue;
    if (chunk.done) return { samples, text, ended: true, reader };
    const got = decoder.decode(chunk.value, { stream: true });
    text += got;
    const blocks = (rest + got).split("\n\n");
    rest = blocks.pop()!;
    for (const block of blocks) {
      // Named events (the relay's `renew`) are not samples; they stay in `text`.
      if (block.startsWith("event: ")) continue;
      const data = block.split("\n").find((l) => l.startsWith("data: "));
      if (data) samples.push(JSON.parse(data.slice(6)));
    }
  }
  return { samples, text, ended: false, reader };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await sleep(20);
  }
}

beforeAll(async () => {
  normal = await logger();
  shortTokens = await logger({ accessTtlSec: 3 });
  target = normal;
  proxy = createServer((req, res) => {
    const up = httpRequest(`${target.url}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  proxy.on("upgrade", (req, socket, head) => {
    socket.on("error", () => {});
    if (noWs) {
      socket.end("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
      return;
    }
    const up = tcpConnect(target.port, "127.0.0.1", () => {
      let raw = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) raw += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      up.write(`${raw}\r\n`);
      if (head.length) up.write(head);
      socket.pipe(up).pipe(socket);
    });
    // Ending (not destroying) lets a close frame still in flight reach the other side.
    up.on("error", () => socket.destroy());
    up.on("end", () => socket.end());
    socket.on("end", () => up.end());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));

  // The app's env is read on import: point it at the proxy first.
  process.env.LOGGER_URL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  process.env.SESSION_SECRET = "unit-test-session-secret-0123456789";
  process.env.LOGGER_CLIENT_ID = CLIENT.id;
  process.env.LOGGER_CLIENT_SECRET = CLIENT.secret;
  const { loader } = await import("~/routes/live");
  const { sessionMiddleware } = await import("~/services/context.server");
  const { sessionStorageFor } = await import("~/services/session.server");
  ({ liveSocketCount } = await import("~/services/logger/liveSocket.server"));

  get = async (path, cookie, signal) => {
    const request = new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {}, signal });
    const context = new RouterContextProvider();
    const args = { request, context, params: {}, url: new URL(request.url), unstable_pattern: "/live" } as unknown as Parameters<typeof loader>[0];
    return (await sessionMiddleware(args as never, async () => {
      try {
        return await loader(args);
      } catch (err) {
        if (err instanceof Response) return err;
        const e = err as { status?: number; init?: { status?: number }; data?: unknown };
        return new Response(JSON.stringify(e.data ?? String(err)), { status: e.init?.status ?? e.status ?? 500 });
      }
    })) as Response;
  };
  const storage = sessionStorageFor(new Request("http://localhost/"));
  cookieFor = async (lg) => {
    const { access, refresh } = await login(lg.url, "admin", ADMIN_PASSWORD);
    const session = await storage.getSession();
    session.set("accessToken", access);
    session.set("refreshToken", refresh);
    return (await storage.commitSession(session)).split(";")[0]!;
  };
  const admin = (await login(normal.url, "admin", ADMIN_PASSWORD)).access;
  const vars: { Id: string; Name: string }[] = (await (await fetch(`${normal.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()).Data;
  oil = vars.find((v) => v.Name === "Oil temperature")!.Id;
  horn = vars.find((v) => v.Name === "Horn")!.Id;
});

afterAll(async () => {
  await new Promise<void>((r) => {
    proxy.closeAllConnections();
    proxy.close(() => r());
  });
  for (const lg of [normal, shortTokens]) {
    await lg.close();
    rmSync(lg.dir, { recursive: true, force: true });
  }
});

describe("/live relay over the logger's WebSocket", () => {
  it("relays live values in the SSE format the browser reads, one shared logger socket per token", async () => {
    target = normal;
    const cookie = await cookieFor(normal);
    const first = new AbortController();
    const res = await get(`/live?variables=${oil},${horn}`, cookie, first.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { samples, text } = await events(res, 4);
    expect(text.slice(0, 300)).toMatch(/^retry: 2000\n\n/);
    for (const s of samples) {
      expect(Object.keys(s).sort()).toEqual(["t", "times", "values"]);
      expect(Object.keys(s.values)).toEqual([oil, horn]);
      // Each value's own sample time (issue 15 §1), never after the event's.
      expect(Object.keys(s.times!)).toEqual([oil, horn]);
      for (const id of [oil, horn]) expect(s.times![id]).toBeLessThanOrEqual(s.t);
      expect(s.values[oil]).toBeGreaterThan(50);
      expect(s.values[horn]).toBe(0);
      expect(Math.abs(Date.now() - s.t)).toBeLessThan(2000);
    }
    for (let i = 1; i < samples.length; i++) expect(samples[i]!.t).toBeGreaterThanOrEqual(samples[i - 1]!.t);
    // Upstream is the WebSocket, not the logger's own SSE stream.
    expect(normal.liveSocketStats()).toMatchObject({ connections: 1, subscriptions: 1 });
    expect(normal.lines.some((l) => l.includes("/online/stream"))).toBe(false);

    // A second stream of the same sign-in rides on the same logger socket.
    const second = new AbortController();
    const res2 = await get(`/live?variables=${horn}`, cookie, second.signal);
    expect(res2.status).toBe(200);
    const more = await events(res2, 1);
    expect(Object.keys(more.samples[0]!.values)).toEqual([horn]);
    expect(normal.liveSocketStats()).toMatchObject({ connections: 1, subscriptions: 2 });
    expect(liveSocketCount()).toEqual({ sockets: 1, subscriptions: 2 });

    // A written output shows in the relayed values.
    const admin = (await login(normal.url, "admin", ADMIN_PASSWORD)).access;
    const wrote = await fetch(`${normal.url}/online/data`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ Variables: [horn], Values: [1], Function: "write" }),
    });
    expect(wrote.status).toBe(200);
    const reader = more.reader;
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes(`"${horn}":1`)) {
      const chunk = await Promise.race([reader.read(), sleep(3000).then(() => null)]);
      if (!chunk || chunk.done) throw new Error(`no event with the written value: ${seen}`);
      seen += decoder.decode(chunk.value, { stream: true });
    }

    // The browser going away closes its subscription, the last one the socket.
    first.abort();
    await until(() => normal.liveSocketStats().subscriptions === 1);
    second.abort();
    await until(() => normal.liveSocketStats().connections === 0);
    expect(liveSocketCount()).toEqual({ sockets: 0, subscriptions: 0 });
  });

  it("answers an unknown variable as the SSE path did (404)", async () => {
    target = normal;
    const cookie = await cookieFor(normal);
    const res = await get("/live?variables=no-such-variable", cookie).catch((err: { status?: number }) => new Response(null, { status: err.status ?? 500 }));
    expect(res.status).toBe(404);
    await until(() => normal.liveSocketStats().connections === 0);
  });

  it("falls back to the logger's SSE stream when it has no /ws", async () => {
    target = normal;
    noWs = true;
    try {
      const cookie = await cookieFor(normal);
      const abort = new AbortController();
      const res = await get(`/live?variables=${oil},${horn}`, cookie, abort.signal);
      expect(res.status).toBe(200);
      const { samples } = await events(res, 2);
      expect(Object.keys(samples[0]!.values)).toEqual([oil, horn]);
      expect(samples[0]!.values[oil]).toBeGreaterThan(50);
      expect(normal.lines.some((l) => l.includes("GET /online/stream 200"))).toBe(true);
      expect(normal.liveSocketStats().connections).toBe(0);
      abort.abort();
    } finally {
      noWs = false;
    }
  });

  it("keeps streaming past the access token's expiry: the logger holds the socket while the sign-in lives", async () => {
    target = shortTokens;
    const cookie = await cookieFor(shortTokens);
    const res = await get(`/live?variables=${oil}`, cookie);
    expect(res.status).toBe(200);
    // Twice the 3 s token lifetime: the old logger closed the socket (4001) at the expiry and the relay ended the stream.
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const started = Date.now();
    let late = 0;
    let text = "";
    while (Date.now() - started < 6500) {
      const chunk = await Promise.race([reader.read(), sleep(500).then(() => null)]);
      if (chunk === null) continue;
      expect(chunk.done, `the stream ended after ${Date.now() - started} ms: ${text.slice(-300)}`).toBe(false);
      const got = decoder.decode(chunk.value, { stream: true });
      text += got;
      if (Date.now() - started > 4000) late += (got.match(/^data: /gm) ?? []).length;
    }
    expect(late).toBeGreaterThan(0);
    expect(text).not.toMatch(/event: renew/);
    expect(shortTokens.liveSocketStats().connections).toBe(1);
    // The browser closing the stream closes the upstream socket.
    await reader.cancel();
    await until(() => shortTokens.liveSocketStats().connections === 0);
  });

  it("sends None as the token when login is not required", async () => {
    target = normal;
    const admin = (await login(normal.url, "admin", ADMIN_PASSWORD)).access;
    expect((await rpc(normal.url, "AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, admin)).status).toBe(200);
    const abort = new AbortController();
    const res = await get(`/live?variables=${oil}`, undefined, abort.signal);
    expect(res.status).toBe(200);
    const { samples } = await events(res, 2);
    expect(samples[0]!.values[oil]).toBeGreaterThan(50);
    expect(normal.liveSocketStats().connections).toBe(1);
    abort.abort();
    await until(() => normal.liveSocketStats().connections === 0);
  });
});
