import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createServer as tcpServer, type AddressInfo, type Server as TcpServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
// noVNC's own DES (the browser side of VNC authentication), to check ours independently.
// @ts-expect-error plain JavaScript without declarations
import { DESECBCipher } from "../../../node_modules/@novnc/novnc/core/crypto/des.js";
import { createVncProxy, upgradeRequest, vncAuthResponse, type VncProxyOptions } from "../../../server/vnc-proxy.ts";
import { ADMIN_PASSWORD, API, CLIENT, addUser, login, rpc, start, type TestLogger } from "../logger/helpers";

// The VNC proxy end to end in one process: a real logger, the app's upgrade check
// (app/services/vnc-proxy.server.ts) with real cookie sessions, and a small RFB server that
// demands VNC authentication and then echoes every byte.

const VNC_PASSWORD = "s3cret!";

const novncDes = (password: string, challenge: Buffer) =>
  Buffer.from(DESECBCipher.importKey(password.split("").map((c) => c.charCodeAt(0))).encrypt(null, challenge) as Uint8Array);

/** RFB 3.8 server with VNC authentication; after the handshake it echoes (the "echo target"). */
function fakeVncServer(password: string): Promise<{ server: TcpServer; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = tcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buf = Buffer.alloc(0);
    let step = 0;
    const challenge = randomBytes(16);
    socket.write("RFB 003.008\n");
    socket.on("data", function onData(chunk: Buffer) {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (step === 0 && buf.length >= 12) {
          buf = buf.subarray(12);
          socket.write(Buffer.from([1, 2]));
          step = 1;
        } else if (step === 1 && buf.length >= 1) {
          buf = buf.subarray(1);
          socket.write(challenge);
          step = 2;
        } else if (step === 2 && buf.length >= 16) {
          const ok = buf.subarray(0, 16).equals(novncDes(password, challenge));
          buf = buf.subarray(16);
          if (!ok) {
            const reason = Buffer.from("Authentication failed");
            const len = Buffer.alloc(4);
            len.writeUInt32BE(reason.length);
            socket.end(Buffer.concat([Buffer.from([0, 0, 0, 1]), len, reason]));
            return;
          }
          socket.write(Buffer.from([0, 0, 0, 0]));
          step = 3;
        } else if (step === 3) {
          socket.off("data", onData);
          if (buf.length) socket.write(buf);
          socket.pipe(socket);
          return;
        } else return;
      }
    });
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done({ server, port: (server.address() as AddressInfo).port, sockets })));
}

let logger: TestLogger;
let vnc: Awaited<ReturnType<typeof fakeVncServer>>;
let adminCookie: string;
let userCookie: string;
let newcomerCookie: string;
let targetId: number;
let wrongPasswordId: number;
let unreachableId: number;
let authorize: VncProxyOptions["authorize"];
let openProxy: (options?: Partial<VncProxyOptions>) => Promise<{ url: string; close: () => Promise<void>; proxy: ReturnType<typeof createVncProxy> }>;

beforeAll(async () => {
  logger = await start({ adminPassword: ADMIN_PASSWORD });
  vnc = await fakeVncServer(VNC_PASSWORD);
  // The app's env is read on import: point it at this logger first.
  process.env.LOGGER_URL = logger.url;
  process.env.SESSION_SECRET = "unit-test-session-secret-0123456789";
  process.env.LOGGER_CLIENT_ID = CLIENT.id;
  process.env.LOGGER_CLIENT_SECRET = CLIENT.secret;
  const { authorizeVncUpgrade } = await import("~/services/vnc-proxy.server");
  const { sessionStorageFor } = await import("~/services/session.server");
  authorize = (req) => authorizeVncUpgrade(upgradeRequest(req));

  const storage = sessionStorageFor(new Request("http://localhost/"));
  const cookieOf = async (username: string, password: string) => {
    const { access, refresh } = await login(logger.url, username, password);
    const session = await storage.getSession();
    session.set("accessToken", access);
    session.set("refreshToken", refresh);
    return (await storage.commitSession(session)).split(";")[0]!;
  };
  adminCookie = await cookieOf("admin", ADMIN_PASSWORD);
  const admin = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
  // A new user must change the password first (refused until then); this one need not.
  const newcomer = await addUser(logger.url, admin, "newcomer", "Viewer", "Newcomer-pass-1");
  await rpc(logger.url, `${API}.SetUser`, { User: { ID: newcomer.id, MustChangePassword: true } }, admin);
  newcomerCookie = await cookieOf("newcomer", "Newcomer-pass-1");
  const roles = await rpc(logger.url, `${API}.GetRoles`, {}, admin);
  const viewerRole = roles.body.Roles.find((r: { Name: string }) => r.Name === "Viewer").ID;
  await rpc(logger.url, `${API}.AddUser`, { User: { Username: "operator", Role: viewerRole, MustChangePassword: false }, Password: "Operator-pass-1" }, admin);
  userCookie = await cookieOf("operator", "Operator-pass-1");

  const set = (params: object) => rpc(logger.url, "VncAPI.Set", params, admin).then((r) => r.body.ID as number);
  targetId = await set({ Name: "echo", Host: "127.0.0.1", Port: vnc.port, Password: VNC_PASSWORD });
  wrongPasswordId = await set({ Name: "wrong", Host: "127.0.0.1", Port: vnc.port, Password: "nope" });
  // A port nobody listens on.
  const closed = tcpServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  unreachableId = await set({ Name: "gone", Host: "127.0.0.1", Port: closedPort });

  openProxy = async (options = {}) => {
    const proxy = createVncProxy({ authorize, ...options });
    const server: Server = createServer((_req, res) => res.writeHead(404).end());
    server.on("upgrade", (req, socket, head) => {
      if (!proxy.handleUpgrade(req, socket, head)) socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      proxy,
      close: () =>
        new Promise<void>((r) => {
          proxy.close();
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
  };
});

afterAll(async () => {
  await new Promise<void>((r) => {
    for (const s of vnc.sockets) s.destroy();
    vnc.server.close(() => r());
  });
  await logger.stop();
});

/** A WebSocket client that collects bytes and can wait for a count of them. */
function client(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  let buf = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  ws.on("message", (m) => {
    buf = Buffer.concat([buf, Buffer.from(m as Buffer)]);
    wake?.();
  });
  const closed = new Promise<number>((r) => ws.on("close", (code) => r(code)));
  const refused = new Promise<number>((r) => ws.on("unexpected-response", (_q, res) => r(res.statusCode ?? 0)));
  ws.on("error", () => {});
  return {
    ws,
    closed,
    refused,
    async take(n: number, ms = 5000): Promise<Buffer> {
      const end = Date.now() + ms;
      while (buf.length < n) {
        if (Date.now() > end) throw new Error(`only ${buf.length} of ${n} bytes`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      const out = buf.subarray(0, n);
      buf = buf.subarray(n);
      return Buffer.from(out);
    },
  };
}

/** The browser's side of the handshake the proxy offers: RFB 3.8, security type None. */
async function browserHandshake(c: ReturnType<typeof client>) {
  expect((await c.take(12)).toString()).toBe("RFB 003.008\n");
  c.ws.send(Buffer.from("RFB 003.008\n"));
  expect([...(await c.take(2))]).toEqual([1, 1]);
  c.ws.send(Buffer.from([1]));
  return (await c.take(4)).readUInt32BE();
}

describe("VNC authentication", () => {
  it("answers the challenge like noVNC does", () => {
    for (const password of ["secret", "s3cret!", "", "longer than eight"]) {
      const challenge = randomBytes(16);
      expect(vncAuthResponse(challenge, password).equals(novncDes(password.slice(0, 8).padEnd(8, "\0"), challenge))).toBe(true);
    }
  });
});

describe("VNC WebSocket proxy", () => {
  it("authenticates at the target itself and pipes bytes both ways, with backpressure", async () => {
    const p = await openProxy();
    try {
      const c = client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: adminCookie });
      expect(await browserHandshake(c)).toBe(0);
      c.ws.send(Buffer.from("ping"));
      expect((await c.take(4)).toString()).toBe("ping");
      // 4 MB in 64 kB messages through the echo target and back.
      const big = randomBytes(4 * 1024 * 1024);
      for (let i = 0; i < big.length; i += 65536) c.ws.send(big.subarray(i, i + 65536));
      expect((await c.take(big.length, 20_000)).equals(big)).toBe(true);
      expect(p.proxy.openConnections).toBe(1);
      // The browser going away closes the target connection too.
      c.ws.close();
      await c.closed;
      await expect.poll(() => vnc.sockets.size).toBe(0);
      await expect.poll(() => p.proxy.openConnections).toBe(0);
    } finally {
      await p.close();
    }
  });

  it("lets any signed-in user view (no permission needed), once the password is changed", async () => {
    const p = await openProxy();
    try {
      expect(await client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: newcomerCookie }).refused).toBe(403);
      const c = client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: userCookie });
      expect(await browserHandshake(c)).toBe(0);
      c.ws.close();
    } finally {
      await p.close();
    }
  });

  it("closes the browser side when the target goes away", async () => {
    const p = await openProxy();
    try {
      const c = client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: adminCookie });
      expect(await browserHandshake(c)).toBe(0);
      await expect.poll(() => vnc.sockets.size).toBe(1);
      for (const s of vnc.sockets) s.destroy();
      expect(await c.closed).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  });

  it("tells the browser why when the target refuses the password or cannot be reached", async () => {
    const p = await openProxy();
    try {
      for (const [id, reason] of [
        [wrongPasswordId, "Authentication failed"],
        [unreachableId, "the VNC server cannot be reached"],
      ] as const) {
        const c = client(`${p.url}/vncview/ws?target=${id}`, { Cookie: adminCookie });
        expect(await browserHandshake(c)).toBe(1);
        const length = (await c.take(4)).readUInt32BE();
        expect((await c.take(length)).toString()).toBe(reason);
        await c.closed;
      }
    } finally {
      await p.close();
    }
  });

  it("refuses without a session, unknown or malformed targets, other origins, and beyond the limit", async () => {
    const p = await openProxy({ maxConnections: 1 });
    try {
      expect(await client(`${p.url}/vncview/ws?target=${targetId}`).refused).toBe(401);
      expect(await client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: "loggia_session=forged" }).refused).toBe(401);
      expect(await client(`${p.url}/vncview/ws?target=424242`, { Cookie: adminCookie }).refused).toBe(404);
      expect(await client(`${p.url}/vncview/ws?target=127.0.0.1:5900`, { Cookie: adminCookie }).refused).toBe(400);
      expect(await client(`${p.url}/vncview/ws`, { Cookie: adminCookie }).refused).toBe(400);
      expect(await client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: adminCookie, Origin: "http://evil.example" }).refused).toBe(403);
      // Other paths are not the proxy's: the upgrade is dropped.
      const other = client(`${p.url}/elsewhere`, { Cookie: adminCookie });
      await other.closed;

      const first = client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: adminCookie });
      expect(await browserHandshake(first)).toBe(0);
      expect(await client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: adminCookie }).refused).toBe(503);
      first.ws.close();
      await first.closed;
      await expect.poll(() => p.proxy.openConnections).toBe(0);
      const again = client(`${p.url}/vncview/ws?target=${targetId}`, { Cookie: adminCookie });
      expect(await browserHandshake(again)).toBe(0);
      again.ws.close();
    } finally {
      await p.close();
    }
  });

  it("a removed target is refused", async () => {
    const admin = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
    const id = (await rpc(logger.url, "VncAPI.Set", { Name: "temp", Host: "127.0.0.1", Port: vnc.port, Password: VNC_PASSWORD }, admin)).body.ID;
    expect((await rpc(logger.url, "VncAPI.Remove", { ID: id }, admin)).status).toBe(200);
    const p = await openProxy();
    try {
      expect(await client(`${p.url}/vncview/ws?target=${id}`, { Cookie: adminCookie }).refused).toBe(404);
    } finally {
      await p.close();
    }
  });

  it("without login, needs no session when the Features list offers the VNC view (spec §6, issue 15 §9)", async () => {
    const admin = (await login(logger.url, "admin", ADMIN_PASSWORD)).access;
    const p = await openProxy();
    try {
      expect((await rpc(logger.url, "ConfigAPI.SetGlobalSettings", { Config: { LoginRequired: false, Features: ["vncview"] } }, admin)).status).toBe(200);
      const c = client(`${p.url}/vncview/ws?target=${targetId}`);
      expect(await browserHandshake(c)).toBe(0);
      c.ws.close();
    } finally {
      await rpc(logger.url, "ConfigAPI.SetGlobalSettings", { Config: { LoginRequired: true } });
      await p.close();
    }
  });
});
