import { randomBytes } from "node:crypto";
import { connect as tcpConnect } from "node:net";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { HIGH_WATER, PENDING_BUDGET } from "../../../logger/api/data/ws.ts";
import { startLogger } from "../../../logger/server.ts";
import { ADMIN_PASSWORD, CLIENT, addUser, coreWaitMeter, login, rpc, sleep, start, tempDir, verify } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// The logger's live WebSocket as a client of the logger family sees it. Frames are built and
// read here by hand, from the contract's words, so a framing mistake in the logger shows.

type Var = { Id: string; Name: string; Direction: string; SampleRateHz: number; DataFormat: string };
type Item = { _id: string; Id: string; State: string; Values: number[]; New: number; Dropped: number; Timestamps?: number[]; Acquired?: number | null; Name?: string };
type Frame = { header: unknown[]; msgType: number; workerType: number; workerId: unknown; payload: any; raw: Buffer };

function frame(msgType: number, workerType: number, workerId: number | string, payload: unknown): Buffer {
  const header = Buffer.from(JSON.stringify(["", msgType, workerType, workerId, ""]));
  const len = Buffer.alloc(2);
  len.writeUInt16LE(header.length);
  return Buffer.concat([Buffer.from([0]), len, header, Buffer.from(payload === undefined ? "" : JSON.stringify(payload))]);
}

function parseFrame(raw: Buffer): Frame {
  expect(raw[0]).toBe(0);
  const hl = raw[1]! | (raw[2]! << 8);
  const header = JSON.parse(raw.subarray(3, 3 + hl).toString("utf8")) as unknown[];
  expect(header).toHaveLength(5);
  expect(header[0]).toBe("");
  expect(header[4]).toBe("");
  const body = raw.subarray(3 + hl).toString("utf8");
  return { header, msgType: header[1] as number, workerType: header[2] as number, workerId: header[3], payload: body ? JSON.parse(body) : null, raw };
}

class Client {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  closedWith = "";

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
    this.closed = new Promise((resolve) =>
      this.ws.once("close", (code, reason) => {
        this.closedWith = `${code} ${reason.toString()}`;
        resolve({ code, reason: reason.toString() });
      }),
    );
    this.ws.on("message", (data, isBinary) => {
      expect(isBinary).toBe(true);
      this.frames.push(parseFrame(data as Buffer));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  send(f: Buffer | string): void {
    this.ws.send(f);
  }

  /** Waits for the next frame after `from` that matches; returns it and its index. */
  async next(match: (f: Frame) => boolean, from = 0, timeoutMs = 5000): Promise<{ f: Frame; i: number }> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const i = this.frames.findIndex((f, k) => k >= from && match(f));
      if (i >= 0) return { f: this.frames[i]!, i };
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms (${this.frames.length} frames in all${this.closedWith ? `, closed ${this.closedWith}` : ""}); got ${this.frames.slice(from).map((f) => JSON.stringify(f.header)).join(" ")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async publishes(workerId: unknown, n: number, from = 0, timeoutMs = 5000): Promise<Frame[]> {
    const out: Frame[] = [];
    let at = from;
    while (out.length < n) {
      const { f, i } = await this.next((x) => x.msgType === 2 && x.workerId === workerId, at, timeoutMs);
      out.push(f);
      at = i + 1;
    }
    return out;
  }
}

const wsUrl = (base: string, token: string | null) => `${base.replace(/^http/, "ws")}/ws${token === null ? "" : `?apitoken=${encodeURIComponent(token)}`}`;

async function variables(base: string, token: string): Promise<Var[]> {
  const res = await fetch(`${base}/online/structure/variables`, { headers: { Authorization: `Bearer ${token}` } });
  return (await res.json()).Data;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(100);
  }
}

async function open(base: string, token: string | null): Promise<Client> {
  const c = new Client(wsUrl(base, token));
  await c.opened;
  return c;
}

describe("live values over WebSocket (simulator on, login required)", () => {
  let lg: TestLogger;
  let admin: string;
  let viewer: string;
  let vars: Var[];
  const clients: Client[] = [];
  const byName = (n: string) => vars.find((v) => v.Name === n)!;
  const client = async (token: string | null = admin) => {
    const c = await open(lg.url, token);
    clients.push(c);
    return c;
  };
  const readBack = async (ids: string[]) => {
    const res = await fetch(`${lg.url}/online/data`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ Variables: ids, Function: "read" }),
    });
    return (await res.json()).Data.Values as (number | null)[];
  };

  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    viewer = (await addUser(lg.url, admin, "watcher", "Viewer")).token;
    const res = await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } });
    vars = (await res.json()).Data;
  });
  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    await lg.stop();
  });

  it("publishes every sample once, in order, in the family's framing", async () => {
    const waited = coreWaitMeter();
    const c = await client();
    const oil = byName("Oil temperature");
    const horn = byName("Horn");
    c.send(frame(1, 2, 7, { IntervalMs: 100, VIDs: [oil.Id, horn.Id], ExtendedAnswer: true, OnValueChanged: false, Precision: -1 }));
    const frames = await c.publishes(7, 12);
    // The header is exactly ["", 2, 2, workerId, ""] with its length as 2 bytes little-endian.
    const expected = Buffer.from(JSON.stringify(["", 2, 2, 7, ""]));
    expect(frames[0]!.raw.subarray(0, 3 + expected.length)).toEqual(Buffer.concat([Buffer.from([0, expected.length, 0]), expected]));

    const seen: number[] = [];
    for (const f of frames) {
      expect(Array.isArray(f.payload)).toBe(true);
      const items = f.payload as Item[];
      expect(items.map((x) => x.Id)).toEqual([oil.Id, horn.Id]);
      const o = items[0]!;
      expect(o).toMatchObject({ _id: oil.Id, Id: oil.Id, State: "OK", Name: "Oil temperature", Dropped: 0 });
      expect(o.Values.length).toBe(o.Timestamps!.length);
      // The samples since the last frame; a frame with none (an acquisition tick late on a busy
      // machine) carries the current value once, as the contract says, and New 0.
      if (o.New === 0) expect(o.Values.length).toBe(1);
      else expect(o.New).toBe(o.Values.length);
      for (const v of o.Values) expect(v).toBeGreaterThan(50);
      if (o.New > 0) seen.push(...o.Timestamps!);
      expect(items[1]!.Values.at(-1)).toBe(0);
    }
    // 100 Hz: consecutive samples 10 ms apart, none missing, none twice, and fresh.
    for (let i = 1; i < seen.length; i++) expect(seen[i]! - seen[i - 1]!).toBe(10);
    expect(seen.length).toBeGreaterThan(60);
    // Fresh: under a second old, plus the time this process (test and logger) waited for a core.
    expect(Date.now() - seen.at(-1)!).toBeLessThan(1000 + waited());
    // Frames are paced by the interval, not by every acquisition tick (50 ms).
    expect(seen.length / frames.length).toBeGreaterThan(6);

    c.send(frame(3, 2, 7, null));
    const { i } = await c.next((f) => f.msgType === 8 && f.workerId === 7);
    await sleep(300);
    expect(c.frames.slice(i + 1).filter((f) => f.msgType === 2)).toHaveLength(0);
  });

  it("rounds to Precision and, with OnValueChanged, publishes only what changed", async () => {
    const c = await client();
    // Vibration is noise around 0: at one decimal it changes with nearly every sample (a slow
    // temperature may stay the same for seconds).
    const vib = byName("Vibration");
    const horn = byName("Horn");
    const lamp = byName("Lamp red");
    c.send(frame(1, 2, "chg", { IntervalMs: 50, VIDs: [vib.Id, horn.Id, lamp.Id], ExtendedAnswer: false, OnValueChanged: true, Precision: 1 }));
    const [first, ...rest] = await c.publishes("chg", 6);
    // The first frame brings every variable's current value.
    expect((first!.payload as Item[]).map((x) => x.Id)).toEqual([vib.Id, horn.Id, lamp.Id]);
    for (const f of rest) {
      const items = f.payload as Item[];
      expect(items.map((x) => x.Id)).toEqual([vib.Id]);
      const values = items[0]!.Values;
      for (const v of values) expect(Math.abs(v * 10 - Math.round(v * 10))).toBeLessThan(1e-9);
      for (let k = 1; k < values.length; k++) expect(values[k]).not.toBe(values[k - 1]);
    }
    const [was] = await readBack([lamp.Id]);
    const now = c.frames.length;
    const res = await fetch(`${lg.url}/online/data`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ Variables: [lamp.Id], Values: [1 - was!], Function: "write" }),
    });
    expect(res.status).toBe(200);
    const { f } = await c.next((x) => x.msgType === 2 && (x.payload as Item[]).some((it) => it.Id === lamp.Id), now);
    expect((f.payload as Item[]).find((it) => it.Id === lamp.Id)).toMatchObject({ State: "OK", Values: [1 - was!] });
    c.send(frame(3, 2, "chg", null));
  });

  it("writes outputs with the REST write's permission and checks", async () => {
    const horn = byName("Horn");
    const oil = byName("Oil temperature");
    const c = await client();
    c.send(frame(2, 2, 1, { Variables: [horn.Id], Values: [true], Function: "write" }));
    const { f } = await c.next((x) => x.workerId === 1 && (x.msgType === 8 || x.msgType === 10));
    expect(f.msgType).toBe(8);
    expect(f.payload).toMatchObject({ Success: true, Data: { Values: [1] } });
    expect(await readBack([horn.Id])).toEqual([1]);
    const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 1 }, admin);
    expect(audit.body.Messages[0]).toMatchObject({ Sender: "admin", Text: "Set output Horn = 1" });

    const cases: [unknown, number, RegExp][] = [
      [{ Variables: [oil.Id], Values: [1], Function: "write" }, -6, /input/],
      [{ Variables: [horn.Id], Values: [2], Function: "write" }, -6, /BOOL/],
      [{ Variables: [horn.Id], Function: "write" }, -6, /one value per variable/],
      [{ Variables: ["nope"], Values: [1], Function: "write" }, -4, /Unknown variable/],
      [{ Variables: [horn.Id], Values: [0] }, -6, /Function/],
    ];
    for (const [payload, value, text] of cases) {
      const at = c.frames.length;
      c.send(frame(2, 2, 2, payload));
      const err = (await c.next((x) => x.workerId === 2, at)).f;
      expect(err.msgType).toBe(10);
      expect(err.workerType).toBe(2);
      expect(err.payload.ReturnState.Value).toBe(value);
      expect(err.payload.Text).toMatch(text);
    }
    expect(await readBack([horn.Id])).toEqual([1]);

    const v = await client(viewer);
    v.send(frame(2, 2, 3, { Variables: [horn.Id], Values: [0], Function: "write" }));
    const denied = (await v.next((x) => x.workerId === 3)).f;
    expect(denied.msgType).toBe(10);
    expect(denied.payload).toMatchObject({ Success: false, Status: 403, ReturnState: { Value: -3 } });
    expect(denied.payload.Text).toMatch(/ManageProject/);
    expect(await readBack([horn.Id])).toEqual([1]);
    // The viewer may still read.
    v.send(frame(1, 2, 4, { IntervalMs: 100, VIDs: [horn.Id] }));
    expect(((await v.publishes(4, 1))[0]!.payload as Item[])[0]!.Values).toEqual([1]);

    // Request (7) reads and writes like POST /online/data, answered by a Response (8).
    c.send(frame(7, 2, "rq", { Function: "write", Variables: [horn.Id], Values: [false] }));
    expect((await c.next((x) => x.workerId === "rq" && x.msgType === 8)).f.payload.Data.Values).toEqual([0]);
    c.send(frame(7, 2, "rd", { Function: "read", Variables: [horn.Id] }));
    expect((await c.next((x) => x.workerId === "rd" && x.msgType === 8)).f.payload.Data.Values).toEqual([0]);
  });

  it("serves the family client's default IntervalMs 1 (and 0) at 10 ms instead of refusing it", async () => {
    const c = await client();
    const oil = byName("Oil temperature");
    for (const [worker, interval] of [["one", 1], ["zero", 0]] as const) {
      c.send(frame(1, 2, worker, { IntervalMs: interval, VIDs: [oil.Id], ExtendedAnswer: true }));
      const frames = await c.publishes(worker, 4);
      for (const f of frames) expect((f.payload as Item[])[0]!.State).toBe("OK");
    }
    expect(c.frames.some((f) => f.msgType === 10), JSON.stringify(c.frames.find((f) => f.msgType === 10)?.payload)).toBe(false);
  });

  it("answers malformed frames with an Error frame and keeps the connection", async () => {
    const c = await client();
    const oil = byName("Oil temperature");
    c.send(frame(1, 2, 9, { IntervalMs: 100, VIDs: [oil.Id] }));
    await c.publishes(9, 1);
    const header = Buffer.from(JSON.stringify(["", 1, 2, 5, ""]));
    const bad: [Buffer | string, RegExp][] = [
      ["hello", /binary/],
      [Buffer.from([1, 2, 0, 0x5b, 0x5d]), /0x00/],
      [Buffer.from([0, 200, 0, 0x5b]), /runs past/],
      [Buffer.from([0]), /too short/],
      [Buffer.concat([Buffer.from([0, 3, 0]), Buffer.from("{x]")]), /not JSON/],
      [Buffer.concat([Buffer.from([0, 7, 0]), Buffer.from("[1,2,3]")]), /Header must be/],
      [Buffer.concat([Buffer.from([0, header.length, 0]), header, Buffer.from("{IntervalMs")]), /Payload of a Subscribe frame is not JSON/],
      [frame(1, 2, 5, { IntervalMs: "fast", VIDs: [oil.Id] }), /IntervalMs/],
      [frame(1, 2, 5, { IntervalMs: 100, VIDs: [] }), /VIDs/],
      [frame(1, 2, 5, { IntervalMs: 100, VIDs: ["no-such-variable"] }), /Unknown variable no-such-variable/],
      [frame(5, 2, 5, {}), /Message type 5/],
      [frame(10, 2, 5, {}), /not something a client sends/],
      [frame(1, 1, 5, {}), /Worker type 1 \(Rpc\)/],
      [frame(3, 2, 99, null), /No subscription/],
    ];
    for (const [payload, text] of bad) {
      const at = c.frames.length;
      c.send(payload);
      const { f } = await c.next((x) => x.msgType === 10, at);
      expect(f.payload.Success).toBe(false);
      expect(f.payload.Text).toMatch(text);
    }
    // Still open, and the subscription still publishes.
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    const at = c.frames.length;
    const [after] = await c.publishes(9, 1, at);
    expect((after!.payload as Item[])[0]!.State).toBe("OK");
  });

  it("closes with 4001 and a reason for a missing or bad token, 404 off /ws", async () => {
    for (const [token, reason] of [[null, "Authentication required"], ["None", "Authentication required"], ["not-a-token", "Invalid token"], ["\u0000x", "Invalid token"]] as const) {
      const c = new Client(wsUrl(lg.url, token));
      expect(await c.closed).toEqual({ code: 4001, reason });
    }
    const elsewhere = new WebSocket(`${lg.url.replace(/^http/, "ws")}/other`);
    const status = await new Promise<number>((resolve) => {
      elsewhere.on("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0);
        elsewhere.terminate();
      });
      elsewhere.on("error", () => {});
    });
    expect(status).toBe(404);
  });
});

describe("live WebSocket tokens and limits", () => {
  it("keeps a connection open past its access token's expiry while the sign-in lives; refuses the expired token for a new one", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5 }, accessTtlSec: 2 });
    try {
      const first = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const c = await open(lg.url, first);
      const renewed = await open(lg.url, first);
      c.send(frame(1, 2, 1, { IntervalMs: 100, VIDs: [(await variables(lg.url, first))[0]!.Id] }));
      await c.publishes(1, 1);
      // A client that hands over a fresh token is answered (type 13 on an open socket).
      const second = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      renewed.send(frame(13, 13, 1, { Token: second }));
      expect((await renewed.next((f) => f.msgType === 8 && f.workerType === 13)).f.payload.Success).toBe(true);
      // Well past the access token's 2 s, the first socket still publishes (the old logger closed it with 4001).
      await until(async () => (await verify(lg.url, first)).status === 401, 6000);
      await sleep(1500);
      expect(c.ws.readyState, c.closedWith).toBe(WebSocket.OPEN);
      const at = c.frames.length;
      await c.publishes(1, 2, at);
      // A new connection with the expired token is still refused.
      const late = new Client(wsUrl(lg.url, first));
      expect(await late.closed).toEqual({ code: 4001, reason: "Token expired" });
      // A bad token handed over closes the connection.
      renewed.send(frame(13, 13, 2, { Token: "forged" }));
      expect(await renewed.closed).toEqual({ code: 4001, reason: "Invalid token" });
      c.ws.terminate();
    } finally {
      await lg.stop();
    }
  });

  it("closes within seconds when the sign-in ends: signed out, password changed, user removed", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5 }, accessTtlSec: 2 });
    try {
      const admin = await login(lg.url, "admin", ADMIN_PASSWORD);
      const { id } = await addUser(lg.url, admin.access, "bench", "Operator");
      const other = await addUser(lg.url, admin.access, "bench2", "Operator");
      const cases: [string, string, (pair: { access: string; refresh: string }) => Promise<unknown>][] = [
        ["bench", "signed out", (pair) => fetch(`${lg.url}/revoke`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}` }, body: new URLSearchParams({ token: pair.refresh }).toString() })],
        // The admin's own tokens last 2 s too: a fresh sign-in for each change.
        ["bench", "password changed", async () => rpc(lg.url, "GI.system/UserManagementAPI.SetUser", { User: { ID: id }, Password: "another-pass-456" }, (await login(lg.url, "admin", ADMIN_PASSWORD)).access)],
        ["bench2", "user removed", async () => rpc(lg.url, "GI.system/UserManagementAPI.RemoveUser", { ID: other.id }, (await login(lg.url, "admin", ADMIN_PASSWORD)).access)],
      ];
      for (const [user, what, end] of cases) {
        const pair = await login(lg.url, user, "user-pass-123");
        const c = await open(lg.url, pair.access);
        // Past the access token's expiry first: the sign-in, not the token, keeps it open.
        await until(async () => (await verify(lg.url, pair.access)).status === 401, 6000);
        await sleep(1200);
        expect(c.ws.readyState, `${what}: ${c.closedWith}`).toBe(WebSocket.OPEN);
        const r = (await end(pair)) as { status: number };
        expect(r.status, what).toBe(200);
        const at = Date.now();
        expect(await c.closed, what).toEqual({ code: 4001, reason: "Sign-in ended" });
        expect(Date.now() - at, what).toBeLessThan(3000);
      }
    } finally {
      await lg.stop();
    }
  }, 60_000);

  it("ignores the token when login is not required", async () => {
    const lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5 } });
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      expect((await rpc(lg.url, "AdminAPI.SetGlobalSettings", { Config: { LoginRequired: false } }, admin)).status).toBe(200);
      const vars: Var[] = (await (await fetch(`${lg.url}/online/structure/variables`)).json()).Data;
      const horn = vars.find((v) => v.Name === "Horn")!;
      for (const token of ["None", "garbage", null]) {
        const c = await open(lg.url, token);
        c.send(frame(1, 2, 1, { IntervalMs: 100, VIDs: [horn.Id] }));
        expect(((await c.publishes(1, 1))[0]!.payload as Item[])[0]!.State).toBe("OK");
        c.send(frame(2, 2, 2, { Variables: [horn.Id], Values: [1], Function: "write" }));
        expect((await c.next((f) => f.workerId === 2)).f.msgType).toBe(8);
        c.ws.close();
        await c.closed;
      }
      const audit = await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 1 }, admin);
      expect(audit.body.Messages[0]).toMatchObject({ Sender: "anonymous", Text: "Set output Horn = 1" });
    } finally {
      await lg.stop();
    }
  });

  it("limits connections and closes every socket when the logger closes", async () => {
    // One user may hold all 100 here: the per-user cap has its own tests (live-caps.test.ts).
    const lg = await start({ adminPassword: ADMIN_PASSWORD, live: { perUser: 1000 } });
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const many = await Promise.all(Array.from({ length: 100 }, () => open(lg.url, admin)));
      const refused = new Client(wsUrl(lg.url, admin));
      const closed = await refused.closed;
      expect(closed.code).toBe(1013);
      expect(closed.reason).toMatch(/Too many live connections/);
      await lg.close();
      for (const c of many) expect((await c.closed).code).toBe(1001);
    } finally {
      await lg.stop();
    }
  });
});

// A client that stops reading: handshake by hand on a raw socket, then never read.
async function rawClient(port: number, token: string): Promise<Socket> {
  const sock = tcpConnect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    sock.once("connect", resolve);
    sock.once("error", reject);
  });
  sock.write(`GET /ws?apitoken=${encodeURIComponent(token)} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  let head = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      head += d.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      sock.off("data", onData);
      if (!head.startsWith("HTTP/1.1 101")) reject(new Error(head));
      else resolve();
    };
    sock.on("data", onData);
  });
  sock.pause();
  return sock;
}

/** A masked binary client frame (RFC 6455 §5.2). */
function masked(payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x82, 0x80 | len]) : Buffer.from([0x82, 0x80 | 126, len >> 8, len & 0xff]);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([head, mask, body]);
}

describe("slow clients", () => {
  it("keep the logger's memory bounded and learn how much was coalesced", async () => {
    // startLogger itself (not helpers' start) for its liveSocketStats: what the logger holds is the point.
    const dataDir = tempDir();
    const lg = await startLogger({ port: 0, dataDir, log: () => {}, adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 } });
    const { rmSync } = await import("node:fs");
    let sock: Socket | null = null;
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const vars: Var[] = (await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()).Data;
      const ids = vars.map((v) => v.Id);
      sock = await rawClient(lg.port, admin);
      for (let w = 0; w < 48; w++) sock.write(masked(frame(1, 2, w, { IntervalMs: 10, VIDs: ids, ExtendedAnswer: true })));
      // A healthy client alongside must not suffer.
      const healthy = await open(lg.url, admin);
      healthy.send(frame(1, 2, 1, { IntervalMs: 100, VIDs: [ids[0]!], ExtendedAnswer: true }));

      let maxBuffered = 0;
      let maxPending = 0;
      const until = Date.now() + 15_000;
      while (Date.now() < until) {
        const s = lg.liveSocketStats();
        maxBuffered = Math.max(maxBuffered, s.maxBufferedBytes);
        maxPending = Math.max(maxPending, s.pendingValues);
        if (s.dropped > 5000 && maxBuffered > HIGH_WATER) break;
        await sleep(50);
      }
      const stats = lg.liveSocketStats();
      expect(stats.dropped).toBeGreaterThan(5000);
      expect(maxBuffered).toBeGreaterThan(HIGH_WATER);
      // One frame past the high-water mark at most: 48 × 38 variables, a few samples each.
      expect(maxBuffered).toBeLessThan(HIGH_WATER + 1_000_000);
      expect(maxPending).toBeLessThanOrEqual(PENDING_BUDGET + 2);
      // Coalescing keeps ~one value per variable while the client is stuck: what the last
      // acquisition tick brought. A tick that comes late on a loaded machine brings more, so the
      // least over a second is judged; without coalescing none would be below 17 per variable
      // (the budget's cap per variable, which values grow back to twice of before being cut).
      let least = Infinity;
      for (let i = 0; i < 20; i++) {
        await sleep(50);
        least = Math.min(least, lg.liveSocketStats().pendingValues);
      }
      expect(least).toBeLessThanOrEqual(48 * ids.length * 6);
      expect(lg.liveSocketStats().maxBufferedBytes).toBeLessThan(HIGH_WATER + 1_000_000);

      const from = healthy.frames.length;
      const fine = await healthy.publishes(1, 5, from);
      for (const f of fine) expect((f.payload as Item[])[0]!.Dropped).toBe(0);

      // Reading again, the client gets frames that say how many samples were coalesced.
      const dropped = await new Promise<number>((resolve, reject) => {
        let buf = Buffer.alloc(0);
        const timer = setTimeout(() => reject(new Error("no Dropped count seen")), 10_000);
        sock!.on("data", (d: Buffer) => {
          buf = Buffer.concat([buf, d]);
          for (;;) {
            if (buf.length < 2) return;
            let len = buf[1]! & 0x7f;
            let off = 2;
            if (len === 126) {
              if (buf.length < 4) return;
              len = buf.readUInt16BE(2);
              off = 4;
            } else if (len === 127) {
              if (buf.length < 10) return;
              len = Number(buf.readBigUInt64BE(2));
              off = 10;
            }
            if (buf.length < off + len) return;
            const payload = buf.subarray(off, off + len);
            buf = buf.subarray(off + len);
            if ((payload[0] ?? 1) !== 0) continue;
            const f = parseFrame(Buffer.from(payload));
            if (f.msgType !== 2) continue;
            const total = (f.payload as Item[]).reduce((n, it) => n + it.Dropped, 0);
            if (total > 0) {
              clearTimeout(timer);
              resolve(total);
              return;
            }
          }
        });
        sock!.resume();
      });
      expect(dropped).toBeGreaterThan(0);
      healthy.ws.terminate();
    } finally {
      sock?.destroy();
      await lg.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
