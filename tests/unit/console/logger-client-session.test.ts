import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoggerClient, REFRESH_SHARE_MS, SignInThrottled, type TokenStore } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import { usersAnswer } from "~/services/logger/schemas";
import { ADMIN_PASSWORD, CLIENT, start, verify, type TestLogger } from "../logger/helpers";

// A refresh answer is shared only within one cookie session and only for a few seconds; any
// other presentation of a used refresh token reaches the logger, which ends the sign-in (issue 14).
// And the console tells the logger whose browser signs in (X-Forwarded-For) and passes its 429 on.

let logger: TestLogger;
beforeAll(async () => {
  logger = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 1 });
});
afterAll(() => logger.stop());

type MemoryStore = TokenStore & { accessToken?: string; refreshToken?: string };

function memoryStore(pair?: { access_token: string; refresh_token: string }): MemoryStore {
  const store: MemoryStore = {
    accessToken: pair?.access_token,
    refreshToken: pair?.refresh_token,
    get: () => ({ accessToken: store.accessToken, refreshToken: store.refreshToken }),
    set(next) {
      store.accessToken = next?.access_token;
      store.refreshToken = next?.refresh_token;
    },
  };
  return store;
}

const client = (store: TokenStore, options: { sessionId?: string; clientAddress?: string } = {}, baseUrl = logger.url) =>
  new LoggerClient({ baseUrl, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 3000 }, store, options);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signedIn(sessionId: string) {
  const store = memoryStore();
  store.set(await client(store, { sessionId }).passwordGrant("admin", ADMIN_PASSWORD));
  return store;
}

describe("refresh sharing", () => {
  it("is a few seconds", () => {
    expect(REFRESH_SHARE_MS).toBeGreaterThanOrEqual(2000);
    expect(REFRESH_SHARE_MS).toBeLessThanOrEqual(10_000);
  });

  it("shares one refresh among the parallel requests of one session", async () => {
    const store = await signedIn("session-a");
    const old = store.get();
    await sleep(1100);
    // Two requests of one browser: each has its own copy of the (same) cookie.
    const copies = [memoryStore({ access_token: old.accessToken!, refresh_token: old.refreshToken! }), memoryStore({ access_token: old.accessToken!, refresh_token: old.refreshToken! })];
    await Promise.all(copies.map((c) => client(c, { sessionId: "session-a" }).rpc("GI.system/UserManagementAPI.GetUsers", {}, usersAnswer)));
    expect(copies[0]!.refreshToken).toBe(copies[1]!.refreshToken);
    expect((await verify(logger.url, copies[0]!.accessToken)).status).toBe(200);
  });

  it("does not share with another session holding the same refresh token: the logger sees the reuse and ends the sign-in", async () => {
    const store = await signedIn("victim");
    const stolen = memoryStore({ access_token: store.accessToken!, refresh_token: store.refreshToken! });
    await sleep(1100);
    expect(await client(store, { sessionId: "victim" }).verify()).not.toBeNull();
    // The copy (another session) presents the used refresh token: refused, and the family is gone.
    expect(await client(stolen, { sessionId: "thief" }).verify()).toBeNull();
    expect((await verify(logger.url, store.accessToken)).status).toBe(401);
  });

  it("does not share after the window: a late request with the old cookie is a reuse", async () => {
    const store = await signedIn("slow");
    const old = memoryStore({ access_token: store.accessToken!, refresh_token: store.refreshToken! });
    await sleep(1100);
    expect(await client(store, { sessionId: "slow" }).verify()).not.toBeNull();
    await sleep(REFRESH_SHARE_MS + 300);
    expect(await client(old, { sessionId: "slow" }).verify()).toBeNull();
    expect((await verify(logger.url, store.accessToken)).status).toBe(401);
  }, 20_000);
});

describe("sign-in requests", () => {
  let seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  let answer: { status: number; headers: Record<string, string>; body: unknown };
  let fake: ReturnType<typeof createServer>;
  let fakeUrl: string;
  beforeAll(async () => {
    seen = [];
    fake = createServer((req, res) => {
      seen.push({ url: req.url ?? "", headers: req.headers });
      req.resume();
      req.on("end", () => {
        res.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", () => r()));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => fake.close(() => r())));

  it("tell the logger the browser's address on /token only", async () => {
    answer = { status: 200, headers: {}, body: { access_token: "a".repeat(43), refresh_token: "r".repeat(43), token_type: "Bearer", expires_in: 900 } };
    const store = memoryStore();
    const c = client(store, { clientAddress: "203.0.113.9" }, fakeUrl);
    store.set(await c.passwordGrant("ada", "secret-pass"));
    answer = { status: 200, headers: {}, body: { Users: [], ReturnState: { Value: 0, Description: "OK" } } };
    await c.rpc("GI.system/UserManagementAPI.GetUsers", {}, usersAnswer);
    expect(seen.map((s) => [s.url, s.headers["x-forwarded-for"]])).toEqual([
      ["/token", "203.0.113.9"],
      ["/rpc/GI.system/UserManagementAPI.GetUsers", undefined],
    ]);
  });

  it("turn the logger's 429 into SignInThrottled (sign-in) and LoggerError with retryAfterSec (RPC)", async () => {
    answer = { status: 429, headers: { "Retry-After": "42" }, body: { error: "slow_down", error_description: "Too many failed sign-ins; try again in 42 s" } };
    const error = await client(memoryStore(), {}, fakeUrl).passwordGrant("ada", "guess").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInThrottled);
    expect((error as SignInThrottled).retryAfterSec).toBe(42);

    answer = { status: 429, headers: { "Retry-After": "7" }, body: { ReturnState: { Value: -12, Description: "Too many failed sign-ins; try again in 7 s" } } };
    const store = memoryStore({ access_token: "a".repeat(43), refresh_token: "r".repeat(43) });
    const rpcError = await client(store, {}, fakeUrl).rpc("GI.system/UserManagementAPI.ChangePassword", {}, usersAnswer).catch((e: unknown) => e);
    expect(rpcError).toBeInstanceOf(LoggerError);
    expect(rpcError).toMatchObject({ status: 429, value: -12, retryAfterSec: 7 });
  });
});
