import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetCachedAnswers } from "~/services/logger/cache.server";
import { LoggerClient, type TokenStore } from "~/services/logger/client.server";
import { globalSettingsAnswer } from "~/services/logger/schemas";
import { ADMIN_PASSWORD, CLIENT, start, type TestLogger } from "../logger/helpers";

// Cached reads: the same answer while GET /revision is unchanged, a fresh one after any write,
// never shared between sign-ins, and no caching at all for a request that may write.
let logger: TestLogger;
let pair: { access_token: string; refresh_token: string };
let calls: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  logger = await start({ adminPassword: ADMIN_PASSWORD });
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(new URL(String(input)).pathname);
    return realFetch(input, init);
  }) as typeof fetch;
  const c = new LoggerClient({ baseUrl: logger.url, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 2000 }, store());
  pair = await c.passwordGrant("admin", ADMIN_PASSWORD);
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await logger.stop();
});

function store(tokens?: { access_token: string; refresh_token: string }): TokenStore {
  let current = tokens;
  return { get: () => ({ accessToken: current?.access_token, refreshToken: current?.refresh_token }), set: (p) => (current = p ?? undefined) };
}
/** One console request: a new client, as the session middleware makes one per request. */
const request = (cache: boolean, tokens = pair) => new LoggerClient({ baseUrl: logger.url, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 2000 }, store(tokens), { cache });
const settings = (c: LoggerClient) => c.readRpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer);

describe("cached logger reads", () => {
  it("GET /revision changes with a write and stays otherwise", async () => {
    const rev = async () => ((await (await realFetch(`${logger.url}/revision`)).json()) as { Revision: string }).Revision;
    const a = await rev();
    expect(await rev()).toBe(a);
    const { Config } = await request(false).rpc("ConfigAPI.GetGlobalSettings", {}, globalSettingsAnswer);
    expect(await rev()).toBe(a);
    await request(false).rpc("ConfigAPI.SetGlobalSettings", { Config: { ...Config, DefaultStartPage: Config.DefaultStartPage === "devices" ? "dashboard" : "devices" } }, globalSettingsAnswer.partial());
    const b = await rev();
    await request(false).rpc("ConfigAPI.SetGlobalSettings", { Config }, globalSettingsAnswer.partial());
    expect(b).not.toBe(a);
    expect((await realFetch(`${logger.url}/revision`, { method: "POST" })).status).toBe(405);
  });

  it("serves a read from the cache while the revision is unchanged, and asks again after a write", async () => {
    forgetCachedAnswers();
    const first = await settings(request(true));
    calls = [];
    const second = await settings(request(true));
    expect(second).toBe(first);
    expect(calls).toEqual(["/revision"]);

    const changed = { ...first.Config, DefaultTimezone: first.Config.DefaultTimezone === "Europe/Rome" ? "UTC" : "Europe/Rome" };
    await request(false).rpc("ConfigAPI.SetGlobalSettings", { Config: changed }, globalSettingsAnswer.partial());
    calls = [];
    const third = await settings(request(true));
    expect(calls).toEqual(["/revision", "/rpc/ConfigAPI.GetGlobalSettings"]);
    expect(third.Config.DefaultTimezone).toBe(changed.DefaultTimezone);
    await request(false).rpc("ConfigAPI.SetGlobalSettings", { Config: first.Config }, globalSettingsAnswer.partial());
  });

  it("never shares an answer between sign-ins, nor caches for a request that may write", async () => {
    forgetCachedAnswers();
    await settings(request(true));
    const other = await new LoggerClient({ baseUrl: logger.url, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 2000 }, store()).passwordGrant("admin", ADMIN_PASSWORD);
    calls = [];
    await settings(request(true, other));
    expect(calls).toContain("/rpc/ConfigAPI.GetGlobalSettings");
    calls = [];
    await settings(request(false));
    expect(calls).toEqual(["/rpc/ConfigAPI.GetGlobalSettings"]);
  });

  it("shares one revision check among concurrent requests", async () => {
    forgetCachedAnswers();
    await settings(request(true));
    calls = [];
    await Promise.all([1, 2, 3, 4].map(() => settings(request(true))));
    expect(calls.filter((p) => p === "/revision")).toHaveLength(1);
    expect(calls.filter((p) => p !== "/revision")).toHaveLength(0);
  });
});
