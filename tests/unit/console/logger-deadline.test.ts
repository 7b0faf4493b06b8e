import type { TFunction } from "i18next";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetCachedAnswers } from "~/services/logger/cache.server";
import { isLoggerAway, LoggerClient } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import { forgetKeptAnswers } from "~/services/logger/kept.server";
import { globalSettingsAnswer } from "~/services/logger/schemas";
import { failureOf, refusalOf } from "~/services/submission.server";

// Issue 26 §2: a hung logger (a paused process: connections accepted, nothing answered) costs a
// page the page's deadline, not the 15 s call timeout; a logger that answered something in the
// request is alive and its slow calls get their full timeout; and while the logger is away the
// last good answer of the same sign-in stands in, with its age — never for another session, and
// never for reads that must not be shown old (alarm states).

let server: Server;
let url = "";
let mode: "ok" | "hang" | "slow" = "ok";
let settingsVersion = 1;
const held = new Set<ServerResponse>();
const sockets = new Set<Socket>();

function answer(res: ServerResponse, body: object) {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ ...body, ReturnState: { Value: 0, Description: "OK" } }));
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (mode === "hang") return void held.add(res);
    if (req.url === "/trickle") {
      // A download whose body takes longer than a call's timeout.
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`${n}\n`);
        if (++n === 12) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      return;
    }
    const reply = () => (req.url === "/revision" ? answer(res, { Revision: "r1" }) : answer(res, { Config: { DefaultStartPage: `v${settingsVersion}`, Features: [] } }));
    // "slow": the logger is alive (the revision comes at once) but the call itself takes a while.
    if (mode === "slow" && req.url !== "/revision") setTimeout(reply, 800);
    else reply();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  mode = "ok";
  forgetCachedAnswers();
  forgetKeptAnswers();
  for (const res of held) res.destroy();
  held.clear();
});

/** One console page load (a GET): its own client, with the page's deadline. */
const pageLoad = (sessionId = "sid-1", deadlineMs = 400) =>
  new LoggerClient({ baseUrl: url, clientId: "loggia-console", clientSecret: "s", timeoutMs: 5_000 }, { get: () => ({ accessToken: `token-of-${sessionId}` }), set: () => {} }, { cache: true, sessionId, deadlineMs });
const settings = (c: LoggerClient, keep?: boolean) => c.readRpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer, keep === undefined ? undefined : { keep });

describe("a page load's deadline for the logger", () => {
  it("ends every call of the page at the deadline when the logger answers nothing (a paused logger)", async () => {
    mode = "hang";
    const client = pageLoad("sid-1", 400);
    const start = performance.now();
    const results = await Promise.allSettled([settings(client), client.rpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer), client.rest("GET", "/online/structure/variables", undefined, globalSettingsAnswer)]);
    const ms = performance.now() - start;
    for (const r of results) {
      expect(r.status).toBe("rejected");
      expect(isLoggerAway((r as PromiseRejectedResult).reason)).toBe(true);
    }
    // All three at the one deadline, far below the 5 s timeout of a single call.
    expect(ms).toBeGreaterThanOrEqual(380);
    expect(ms).toBeLessThan(2_500);
    expect(client.outage).toEqual({ since: null });
  });

  it("lets a logger that answered in this request take its time (alive, only slow)", async () => {
    mode = "slow";
    const client = pageLoad("sid-1", 400);
    const value = await settings(client);
    expect(value.Config.DefaultStartPage).toBe(`v${settingsVersion}`);
    expect(client.outage).toBeNull();
  });

  it("without a deadline (a write) a silent logger is waited for up to the call's timeout", async () => {
    mode = "hang";
    const client = new LoggerClient({ baseUrl: url, clientId: "loggia-console", clientSecret: "s", timeoutMs: 1_200 }, { get: () => ({ accessToken: "t" }), set: () => {} }, { sessionId: "sid-w" });
    const start = performance.now();
    await expect(client.rpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer)).rejects.toSatisfy(isLoggerAway);
    expect(performance.now() - start).toBeGreaterThanOrEqual(1_150);
    // Having waited in vain, the request does not wait again: the page drawn after such a write
    // shows what was kept at once.
    const again = performance.now();
    await expect(client.rpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer)).rejects.toSatisfy(isLoggerAway);
    expect(performance.now() - again).toBeLessThan(500);
    expect(client.outage).toEqual({ since: null });
  });

  it("an action's call the logger does not answer is said beside the form, translated; a refusal stays itself; anything else is thrown", async () => {
    mode = "hang";
    const client = new LoggerClient({ baseUrl: url, clientId: "loggia-console", clientSecret: "s", timeoutMs: 300 }, { get: () => ({ accessToken: "t" }), set: () => {} }, { sessionId: "sid-w" });
    const t = ((key: string) => `«${key}»`) as unknown as TFunction;
    const away = await refusalOf(() => client.rpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer), t);
    expect(away).toBeInstanceOf(LoggerError);
    expect(away?.status).toBe(503);
    expect(away?.message).toBe("«errors.loggerAwayWrite»");
    const refusal = new LoggerError(409, "changed meanwhile");
    expect(failureOf(refusal, t)).toBe(refusal);
    expect(() => failureOf(new Error("a bug"), t)).toThrow("a bug");
    expect(() => failureOf(new LoggerError(500, "logger fault"), t)).toThrow("logger fault");
  });
});

describe("a stream (a download, the live feed)", () => {
  it("waits for the logger's answer no longer than a call: a hung logger does not hold it open", async () => {
    mode = "hang";
    const client = pageLoad("sid-1", 400);
    const start = performance.now();
    await expect(client.stream("/files/download?path=a.csv", "GET", undefined, new AbortController().signal)).rejects.toSatisfy(isLoggerAway);
    expect(performance.now() - start).toBeLessThan(2_500);
    expect(client.outage).toEqual({ since: null });
  });

  it("once answered lasts as long as its body, past the call's timeout, and ends with the browser", async () => {
    const client = new LoggerClient({ baseUrl: url, clientId: "loggia-console", clientSecret: "s", timeoutMs: 400 }, { get: () => ({ accessToken: "t" }), set: () => {} }, { sessionId: "sid-s" });
    const res = await client.stream("/trickle", "GET", undefined, new AbortController().signal);
    expect((await res.text()).split("\n").filter(Boolean)).toHaveLength(12);
    const browser = new AbortController();
    const cut = await client.stream("/trickle", "GET", undefined, browser.signal);
    browser.abort();
    await expect(cut.text()).rejects.toThrow();
  });
});

describe("a page joining what another request asks the logger", () => {
  // A request whose logger answered before it stopped has no deadline left; its revision check is
  // shared with the pages that come meanwhile, which must still end at their own deadline and say
  // the logger is away (a fresh-clone run waited 9.3 s for the dashboard; another got 200 with a
  // shell of kept answers shown as current).
  const alive = () => new LoggerClient({ baseUrl: url, clientId: "loggia-console", clientSecret: "s", timeoutMs: 5_000 }, { get: () => ({ accessToken: "token-of-sid-other" }), set: () => {} }, { cache: true, sessionId: "sid-other" });

  it("waits no longer than its own deadline", async () => {
    mode = "hang";
    const other = settings(alive()).catch((e: unknown) => e);
    const client = pageLoad("sid-1", 400);
    const start = performance.now();
    await expect(settings(client)).rejects.toSatisfy(isLoggerAway);
    expect(performance.now() - start).toBeLessThan(2_500);
    expect(client.outage).toEqual({ since: null });
    mode = "ok";
    for (const res of held) res.destroy();
    expect(isLoggerAway(await other)).toBe(true);
  });

  it("shows its kept answers as kept, with their time, not as current", async () => {
    settingsVersion = 5;
    expect((await settings(pageLoad("sid-1"))).Config.DefaultStartPage).toBe("v5");
    forgetCachedAnswers();
    mode = "hang";
    const other = settings(alive()).catch((e: unknown) => e);
    const client = pageLoad("sid-1", 400);
    expect((await settings(client)).Config.DefaultStartPage).toBe("v5");
    expect(client.outage?.since).toBeGreaterThan(0);
    for (const res of held) res.destroy();
    await other;
  });
});

describe("answers kept for an outage", () => {
  it("give the same sign-in its last good answer while the logger is away, with the answer's time", async () => {
    settingsVersion = 7;
    const before = Date.now();
    expect((await settings(pageLoad("sid-1"))).Config.DefaultStartPage).toBe("v7");
    settingsVersion = 8;
    mode = "hang";
    const client = pageLoad("sid-1");
    const kept = await settings(client);
    expect(kept.Config.DefaultStartPage).toBe("v7");
    expect(client.outage?.since).toBeGreaterThanOrEqual(before);
    expect(client.outage?.since).toBeLessThanOrEqual(Date.now());
  });

  it("never give another sign-in's answer, nor an answer asked not to be kept", async () => {
    await settings(pageLoad("sid-1"));
    await settings(pageLoad("sid-2"), false);
    mode = "hang";
    await expect(settings(pageLoad("sid-other"))).rejects.toSatisfy(isLoggerAway);
    await expect(settings(pageLoad("sid-2"), false)).rejects.toSatisfy(isLoggerAway);
    // Without a session (no cookie yet) nothing is kept at all.
    await settings(pageLoad("")).catch(() => undefined);
  });

  it("find a read whose parameters move with the clock under the name it was kept as", async () => {
    settingsVersion = 3;
    const lastDay = (c: LoggerClient, now: number, keptAs?: string) => c.readFreshRpc("ConfigAPI.GetGlobalSettings", { Start: now - 86_400_000, End: now }, globalSettingsAnswer, { keptAs });
    await lastDay(pageLoad("sid-1"), 1_000, "last day");
    await lastDay(pageLoad("sid-1"), 1_000);
    mode = "hang";
    expect((await lastDay(pageLoad("sid-1"), 5_000, "last day")).Config.DefaultStartPage).toBe("v3");
    // Under its parameters, a later page's moved range finds nothing.
    await expect(lastDay(pageLoad("sid-1"), 5_000)).rejects.toSatisfy(isLoggerAway);
  });

  it("say nothing once the logger answers again (the new answer replaces the kept one)", async () => {
    settingsVersion = 1;
    await settings(pageLoad("sid-1"));
    settingsVersion = 2;
    forgetCachedAnswers();
    const client = pageLoad("sid-1");
    expect((await settings(client)).Config.DefaultStartPage).toBe("v2");
    expect(client.outage).toBeNull();
    mode = "hang";
    expect((await settings(pageLoad("sid-1"))).Config.DefaultStartPage).toBe("v2");
  });
});
