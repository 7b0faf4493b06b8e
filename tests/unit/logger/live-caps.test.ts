import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LiveSocketError, subscribeLive } from "../../../app/services/logger/liveSocket.server.ts";
import { ADMIN_PASSWORD, CLIENT, addUser, login, start, tokenRequest } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Issue 24 §4: 100 live connections with one Viewer token (the public gibench client hands one
// out) switched live data off for everyone, the console's relay included. Now a user holds at
// most 8 (WebSocket and SSE together), and the console relay — the connections that show the
// console's client credentials — has places of its own that no token holder can take.

const CONSOLE_AUTH = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`;

type Opened = { ws: WebSocket; closed: Promise<{ code: number; reason: string }>; open: Promise<boolean> };

function openWs(url: string, token: string, headers: Record<string, string> = {}): Opened {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws?apitoken=${encodeURIComponent(token)}`, { headers });
  ws.on("error", () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const open = new Promise<boolean>((resolve) => {
    ws.once("open", () => resolve(true));
    ws.once("close", () => resolve(false));
  });
  return { ws, closed, open };
}

/** Whether the logger kept the socket: it answers a Request frame (a refused one is closed before). */
async function kept(o: Opened, varId: string): Promise<{ code: number; reason: string } | "open"> {
  if (!(await o.open)) return o.closed;
  const header = Buffer.from(JSON.stringify(["", 7, 2, 1, ""]));
  const len = Buffer.alloc(2);
  len.writeUInt16LE(header.length);
  const answered = new Promise<"open">((resolve) => o.ws.once("message", () => resolve("open")));
  o.ws.send(Buffer.concat([Buffer.from([0]), len, header, Buffer.from(JSON.stringify({ Function: "read", Variables: [varId] }))]));
  return Promise.race([answered, o.closed]);
}

function stream(url: string, token: string, varId: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${url}/online/stream?variables=${varId}`, { headers: { Authorization: `Bearer ${token}`, ...headers }, signal });
}

describe("a Viewer with 100 live connections (default limits)", () => {
  let lg: TestLogger;
  let oil: string;
  let viewer: string;
  let other: string;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 } });
    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    await addUser(lg.url, admin, "bench", "Viewer");
    // The public client any bench script uses: no secret needed.
    const token = await tokenRequest(lg.url, { grant_type: "password", username: "bench", password: "user-pass-123" }, { id: "gibench", secret: "" });
    viewer = token.body.access_token;
    other = (await addUser(lg.url, admin, "operator2", "Viewer")).token;
    oil = ((await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()).Data as { Id: string; Name: string }[]).find((v) => v.Name === "Oil temperature")!.Id;
  });
  afterAll(() => lg.stop());

  it("keeps 8 of them, closes the rest naming the cap, and the console relay and others carry on", async () => {
    const many = Array.from({ length: 100 }, () => openWs(lg.url, viewer));
    const results = await Promise.all(many.map((o) => kept(o, oil)));
    expect(results.filter((r) => r === "open")).toHaveLength(8);
    const refused = results.filter((r) => r !== "open") as { code: number; reason: string }[];
    expect(refused).toHaveLength(92);
    for (const r of refused) expect(r).toEqual({ code: 1008, reason: "Too many live connections for one user (8); close one first" });

    // The same user's SSE stream counts against the same 8: 429 with Retry-After.
    const sse = await stream(lg.url, viewer, oil);
    expect(sse.status).toBe(429);
    expect(sse.headers.get("Retry-After")).toBe("10");
    expect(((await sse.json()) as { ReturnState: unknown }).ReturnState).toEqual({ Value: -12, Description: "Too many live connections for one user (8); close one first" });

    // Another user is not affected.
    expect(await kept(openWs(lg.url, other), oil)).toBe("open");
    // The console's relay (its client credentials beside the user's token) is never one of them,
    // even for that user: as the console subscribes (app/services/logger/liveSocket.server.ts)…
    const sub = await subscribeLive({ baseUrl: lg.url, token: viewer, ids: [oil], intervalMs: 250, timeoutMs: 5000, clientAuth: CONSOLE_AUTH }, () => {}, () => {});
    expect(sub).not.toBeNull();
    expect(typeof sub!.first.values[oil]).toBe("number");
    sub!.close();
    // …and over its SSE fallback.
    const ac = new AbortController();
    const relayed = await stream(lg.url, viewer, oil, { "X-Client-Authorization": CONSOLE_AUTH }, ac.signal);
    expect(relayed.status).toBe(200);
    ac.abort();

    // One closed: a place for that user again.
    const open = many.find((_, i) => results[i] === "open")!;
    open.ws.close();
    await open.closed;
    await expect.poll(async () => kept(openWs(lg.url, viewer), oil)).toBe("open");
    for (const o of many) o.ws.close();
  });

  it("carries a wall of 40 displays signed in as one account through the console's relay", async () => {
    // Each display is a sign-in of its own, and the console shares a relay socket only among the
    // streams of one sign-in (app/services/logger/liveSocket.server.ts): a socket per display.
    // Tokens of one sign-in, refreshed 40 times, are 40 tokens of the same user to the logger.
    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const wall = await addUser(lg.url, admin, "wall", "Viewer");
    const tokens = [wall.token];
    let refresh = (await login(lg.url, "wall", "user-pass-123")).refresh;
    while (tokens.length < 40) {
      const next = await tokenRequest(lg.url, { grant_type: "refresh_token", refresh_token: refresh });
      expect(next.status).toBe(200);
      tokens.push(next.body.access_token);
      refresh = next.body.refresh_token;
    }
    const subs = await Promise.all(tokens.map((token) => subscribeLive({ baseUrl: lg.url, token, ids: [oil], intervalMs: 250, timeoutMs: 10_000, clientAuth: CONSOLE_AUTH }, () => {}, () => {})));
    for (const sub of subs) expect(typeof sub!.first.values[oil]).toBe("number");
    for (const sub of subs) sub!.close();
  });

  it("without the console's credentials the relay is a user like any other", async () => {
    const mine = Array.from({ length: 8 }, () => openWs(lg.url, other));
    // `other` already holds one from the test above, so one of these 8 is refused.
    const results = await Promise.all(mine.map((o) => kept(o, oil)));
    expect(results.filter((r) => r === "open")).toHaveLength(7);
    const wrong = `Basic ${Buffer.from(`${CLIENT.id}:not-the-secret`).toString("base64")}`;
    await expect(subscribeLive({ baseUrl: lg.url, token: other, ids: [oil], intervalMs: 250, timeoutMs: 5000, clientAuth: wrong }, () => {}, () => {})).rejects.toBeInstanceOf(LiveSocketError);
    const gibench = `Basic ${Buffer.from("gibench:").toString("base64")}`;
    expect((await stream(lg.url, other, oil, { "X-Client-Authorization": gibench })).status).toBe(429);
    for (const o of mine) o.ws.close();
  });
});

describe("the console relay's reserve (small limits)", () => {
  let lg: TestLogger;
  let oil: string;
  const tokens: string[] = [];
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { seed: 5, tickMs: 50 }, live: { perUser: 2, publicMax: 3, consoleMax: 2, consolePerUser: 1 } });
    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    for (let i = 0; i < 3; i++) tokens.push((await addUser(lg.url, admin, `u${i}`, "Viewer")).token);
    oil = ((await (await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()).Data as { Id: string; Name: string }[]).find((v) => v.Name === "Oil temperature")!.Id;
  });
  afterAll(() => lg.stop());

  it("public places full: the public gets 1013 or 503, the console its own places, each of its users one", async () => {
    const [a, b, c] = tokens as [string, string, string];
    const held = [openWs(lg.url, a), openWs(lg.url, a), openWs(lg.url, b)];
    for (const o of held) expect(await kept(o, oil)).toBe("open");
    expect(await kept(openWs(lg.url, c), oil)).toEqual({ code: 1013, reason: "Too many live connections (3); try again later" });
    expect((await stream(lg.url, c, oil)).status).toBe(200);
    const ac = new AbortController();
    // SSE is counted apart from WebSocket in all (3 each), per user together: a holds 2 already.
    expect((await stream(lg.url, a, oil, {}, ac.signal)).status).toBe(429);

    const relay = { "X-Client-Authorization": CONSOLE_AUTH };
    const relayA = openWs(lg.url, a, relay);
    expect(await kept(relayA, oil)).toBe("open");
    expect(await kept(openWs(lg.url, a, relay), oil)).toEqual({ code: 1008, reason: "Too many live connections for one user (1); close one first" });
    expect(await kept(openWs(lg.url, b, relay), oil)).toBe("open");
    expect(await kept(openWs(lg.url, c, relay), oil)).toEqual({ code: 1013, reason: "Too many live connections (2); try again later" });
    // The console's SSE reserve is its own too.
    const relayed = await stream(lg.url, c, oil, relay, ac.signal);
    expect(relayed.status).toBe(200);
    ac.abort();
    for (const o of held) o.ws.close();
    relayA.ws.close();
  });
});
