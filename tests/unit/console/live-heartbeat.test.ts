import { rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect as tcpConnect, type AddressInfo, type Socket } from "node:net";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLogger, type RunningLogger } from "../../../logger/server.ts";
import { ADMIN_PASSWORD, CLIENT, login, sleep, tempDir } from "../logger/helpers";

// Issue 26 §2: the live relay says, every second, whether the logger is heard from, so a page
// tells a silent logger (paused, hung) within 5 s — before, a paused logger left the stream open
// and quiet, and a wall display took 15–30 s to say Offline. The logger sits behind a TCP proxy
// that can freeze its connections as SIGSTOP does (nothing passes, nothing is closed).

type Lg = RunningLogger & { dir: string };
let lg: Lg;
let proxy: Server;
let frozen = false;
const pairs = new Set<{ a: Socket; b: Socket }>();
let get: (path: string, cookie: string, signal?: AbortSignal) => Promise<Response>;
let cookie: string;
let oil: string;

/** Stops or resumes every byte between the console and the logger, both ways, without closing anything. */
function freeze(on: boolean) {
  frozen = on;
  for (const { a, b } of pairs) {
    if (on) {
      a.pause();
      b.pause();
    } else {
      a.resume();
      b.resume();
    }
  }
}

beforeAll(async () => {
  const dir = tempDir();
  lg = Object.assign(await startLogger({ port: 0, dataDir: dir, log: () => {}, adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 } }), { dir });
  // HTTP through a plain relay (a frozen logger answers no HTTP either), WebSockets spliced at TCP level.
  proxy = createServer((req, res) => {
    const up = httpRequest(`${lg.url}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    // A frozen logger accepts the connection and answers nothing.
    if (frozen) return;
    req.pipe(up);
  });
  proxy.on("upgrade", (req, socket, head) => {
    socket.on("error", () => {});
    const up = tcpConnect(lg.port, "127.0.0.1", () => {
      let raw = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) raw += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      up.write(`${raw}\r\n`);
      if (head.length) up.write(head);
      socket.pipe(up).pipe(socket);
      const pair = { a: socket as Socket, b: up };
      pairs.add(pair);
      if (frozen) freeze(true);
      up.on("close", () => pairs.delete(pair));
    });
    up.on("error", () => socket.destroy());
    up.on("end", () => socket.end());
    socket.on("end", () => up.end());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));

  process.env.LOGGER_URL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  process.env.SESSION_SECRET = "unit-test-session-secret-0123456789";
  process.env.LOGGER_CLIENT_ID = CLIENT.id;
  process.env.LOGGER_CLIENT_SECRET = CLIENT.secret;
  process.env.LOGGER_PAGE_DEADLINE_MS = "1000";
  const { loader } = await import("~/routes/live");
  const { sessionMiddleware } = await import("~/services/context.server");
  const { sessionStorageFor } = await import("~/services/session.server");
  get = async (path, c, signal) => {
    const request = new Request(`http://localhost${path}`, { headers: { Cookie: c }, signal });
    const context = new RouterContextProvider();
    const args = { request, context, params: {}, url: new URL(request.url), unstable_pattern: "/live" } as unknown as Parameters<typeof loader>[0];
    return (await sessionMiddleware(args as never, () => loader(args) as Promise<Response>)) as Response;
  };
  const { access, refresh } = await login(lg.url, "admin", ADMIN_PASSWORD);
  const storage = sessionStorageFor(new Request("http://localhost/"));
  const session = await storage.getSession();
  session.set("accessToken", access);
  session.set("refreshToken", refresh);
  session.set("sid", "heartbeat-test");
  cookie = (await storage.commitSession(session)).split(";")[0]!;
  const vars: { Id: string; Name: string }[] = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${access}` } })).json()).Data;
  oil = vars.find((v) => v.Name === "Oil temperature")!.Id;
});

afterAll(async () => {
  freeze(false);
  await new Promise<void>((r) => {
    proxy.closeAllConnections();
    proxy.close(() => r());
  });
  await lg.close();
  rmSync(lg.dir, { recursive: true, force: true });
});

/** The stream's named `beat` events and data samples, as they come. */
function reader(res: Response) {
  const r = res.body!.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  const seen: { at: number; beat?: string; sample?: boolean; text: string }[] = [];
  let ended = false;
  void (async () => {
    for (;;) {
      const chunk = await r.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return void (ended = true);
      const blocks = (rest + decoder.decode(chunk.value, { stream: true })).split("\n\n");
      rest = blocks.pop()!;
      for (const text of blocks) {
        const data = text.split("\n").find((l) => l.startsWith("data: "))?.slice(6);
        if (text.startsWith("event: beat")) seen.push({ at: Date.now(), beat: (JSON.parse(data!) as { logger: string }).logger, text });
        else if (data && !text.startsWith("event:")) seen.push({ at: Date.now(), sample: true, text });
      }
    }
  })();
  return {
    seen,
    ended: () => ended,
    cancel: () => r.cancel().catch(() => undefined),
    async until(test: (e: (typeof seen)[number]) => boolean, ms: number) {
      const from = seen.length;
      const end = Date.now() + ms;
      for (;;) {
        const hit = seen.slice(from).find(test);
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`not within ${ms} ms; last: ${JSON.stringify(seen.slice(-3))}`);
        await sleep(25);
      }
    },
  };
}

describe("the live relay's heartbeat", () => {
  it("beats every second, says within 5 s that a paused logger is silent, and carries on when it resumes", async () => {
    const abort = new AbortController();
    const res = await get(`/live?variables=${oil}`, cookie, abort.signal);
    expect(res.status).toBe(200);
    const stream = reader(res);
    try {
      await stream.until((e) => e.sample === true, 5_000);
      const a = await stream.until((e) => e.beat === "ok", 3_000);
      const b = await stream.until((e) => e.beat === "ok", 3_000);
      expect(b.at - a.at).toBeLessThan(2_000);

      freeze(true);
      const paused = Date.now();
      const silent = await stream.until((e) => e.beat === "silent", 6_000);
      expect(silent.at - paused).toBeLessThan(5_000);
      expect(stream.ended()).toBe(false);

      freeze(false);
      const resumed = Date.now();
      await stream.until((e) => e.beat === "ok", 5_000);
      await stream.until((e) => e.sample === true, 5_000);
      expect(Date.now() - resumed).toBeLessThan(5_000);
    } finally {
      freeze(false);
      abort.abort();
      await stream.cancel();
    }
  });

  it("answers a stream opened while the logger is silent within the page's deadline, saying the logger is away", async () => {
    freeze(true);
    try {
      const started = Date.now();
      const res = await get(`/live?variables=${oil}`, cookie);
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toMatch(/^retry: \d+\nevent: beat\ndata: \{"logger":"away"\}\n\n$/);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      freeze(false);
    }
  });
});
