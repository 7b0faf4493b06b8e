import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidCredentials, LoggerClient, type TokenStore } from "~/services/logger/client.server";
import { errorText, LoggerError } from "~/services/logger/errors";
import { usersAnswer } from "~/services/logger/schemas";
import { ADMIN_PASSWORD, CLIENT, start, type TestLogger } from "../logger/helpers";

let logger: TestLogger;
beforeAll(async () => {
  logger = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 1 });
});
afterAll(() => logger.stop());

function memoryStore(): TokenStore & { accessToken?: string; refreshToken?: string; sets: number } {
  const store = {
    sets: 0,
    accessToken: undefined as string | undefined,
    refreshToken: undefined as string | undefined,
    get: () => ({ accessToken: store.accessToken, refreshToken: store.refreshToken }),
    set(pair: { access_token: string; refresh_token: string } | null) {
      store.sets++;
      store.accessToken = pair?.access_token;
      store.refreshToken = pair?.refresh_token;
    },
  };
  return store;
}

const client = (store: TokenStore, baseUrl = logger.url) =>
  new LoggerClient({ baseUrl, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 2000 }, store);

async function signedIn() {
  const store = memoryStore();
  const c = client(store);
  store.set(await c.passwordGrant("admin", ADMIN_PASSWORD));
  store.sets = 0;
  return { store, c };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("LoggerClient", () => {
  it("refreshes once on an expired token and retries the call", async () => {
    const { store, c } = await signedIn();
    const before = store.refreshToken;
    await sleep(1200);
    const answer = await c.rpc("GI.system/UserManagementAPI.GetUsers", {}, usersAnswer);
    expect(answer.Users.map((u) => u.Username)).toContain("admin");
    expect(store.sets).toBe(1);
    expect(store.refreshToken).not.toBe(before);
  });

  it("shares one refresh among parallel calls, so rotation does not revoke the sign-in", async () => {
    const { store, c } = await signedIn();
    await sleep(1200);
    const results = await Promise.all([1, 2, 3].map(() => c.rpc("GI.system/UserManagementAPI.GetUsers", {}, usersAnswer)));
    expect(results).toHaveLength(3);
    // Two requests of one browser (two clients, same cookie) at once: still one refresh.
    const other = memoryStore();
    other.set({ access_token: store.accessToken!, refresh_token: store.refreshToken! });
    await sleep(1200);
    await Promise.all([c.verify(), client(other).verify()]);
    expect(await c.verify()).not.toBeNull();
    expect(await client(other).verify()).not.toBeNull();
  });

  it("gives up after one refresh when the session is gone", async () => {
    const store = memoryStore();
    store.set({ access_token: "nope-nope-nope", refresh_token: "also-nope" });
    await expect(client(store).rpc("GI.system/UserManagementAPI.GetUsers", {}, usersAnswer)).rejects.toMatchObject({ status: 401 });
    expect(store.accessToken).toBeUndefined();
    expect(await client(store).verify()).toBeNull();
  });

  it("reports refused credentials as InvalidCredentials", async () => {
    await expect(client(memoryStore()).passwordGrant("admin", "wrong")).rejects.toBeInstanceOf(InvalidCredentials);
  });

  it("turns logger errors into LoggerError with the spec's text", async () => {
    const { c } = await signedIn();
    const error = await c.rpc("GI.system/UserManagementAPI.GetUser", { ID: 99999 }, usersAnswer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoggerError);
    expect((error as LoggerError).status).toBe(404);
    expect((error as LoggerError).message).toMatch(/not found|unknown|no user/i);
  });

  it("answers 503 when the logger is unreachable", async () => {
    const error = await client(memoryStore(), "http://127.0.0.1:9").rpc("AdminAPI.LoginRequired", {}, usersAnswer).catch((e: unknown) => e);
    expect((error as { init?: { status?: number } }).init?.status).toBe(503);
  });

  it("answers 502 when the logger says something unexpected", async () => {
    const { c } = await signedIn();
    const error = await c.rpc("AdminAPI.LoginRequired", {}, usersAnswer).catch((e: unknown) => e);
    expect((error as { init?: { status?: number } }).init?.status).toBe(502);
  });
});

describe("errorText (spec §8)", () => {
  it("prefers ReturnState.Description, then faultString, then the HTTP status", () => {
    expect(errorText(400, "Bad Request", { ReturnState: { Value: -6, Description: "Invalid parameter X" }, faultString: "f" })).toBe("Invalid parameter X");
    expect(errorText(500, "Internal Server Error", { faultString: "boom" })).toBe("boom");
    expect(errorText(502, "Bad Gateway", null)).toBe("502 Bad Gateway");
    expect(errorText(418, "", "text")).toBe("418");
  });
});
