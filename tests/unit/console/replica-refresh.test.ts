import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TokenStore } from "~/services/logger/client.server";
import { ADMIN_PASSWORD, CLIENT, start, verify, type TestLogger } from "../logger/helpers";

// Console replicas share no memory (issue 17): each has its own in-process refresh sharing. Two
// of them refreshing one cookie session at once must both keep the sign-in; another session
// presenting the same refresh token still ends it. Each "replica" here is its own copy of the
// client module (vi.resetModules), as each console process has.

let logger: TestLogger;
beforeAll(async () => {
  process.env.SESSION_SECRET ??= "unit-test-session-secret-0123456789";
  logger = await start({ adminPassword: ADMIN_PASSWORD, accessTtlSec: 1 });
});
afterAll(() => logger.stop());

type Store = TokenStore & { accessToken?: string; refreshToken?: string };
const store = (pair: { accessToken?: string; refreshToken?: string }): Store => {
  const s: Store = {
    ...pair,
    get: () => ({ accessToken: s.accessToken, refreshToken: s.refreshToken }),
    set(next) {
      s.accessToken = next?.access_token;
      s.refreshToken = next?.refresh_token;
    },
  };
  return s;
};

async function replica() {
  vi.resetModules();
  const { LoggerClient } = await import("~/services/logger/client.server");
  return (tokens: TokenStore, sessionId: string) =>
    new LoggerClient({ baseUrl: logger.url, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutMs: 3000 }, tokens, { sessionId });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("two console replicas refreshing one session", () => {
  it("both get the same new pair and the sign-in lives on", async () => {
    const [a, b] = [await replica(), await replica()];
    const signIn = store({});
    signIn.set(await a(signIn, "s1").passwordGrant("admin", ADMIN_PASSWORD));
    await sleep(1100); // the access token has expired
    const [onA, onB] = [store(signIn.get()), store(signIn.get())];
    const [va, vb] = await Promise.all([a(onA, "session-one").verify(), b(onB, "session-one").verify()]);
    expect(va?.username).toBe("admin");
    expect(vb?.username).toBe("admin");
    expect(onA.refreshToken).toBe(onB.refreshToken);
    expect(onA.refreshToken).not.toBe(signIn.refreshToken);
    expect((await verify(logger.url, onB.accessToken)).status).toBe(200);
  });

  it("one after the other, within a few seconds, too (the browser's second request came with the old cookie)", async () => {
    const [a, b] = [await replica(), await replica()];
    const signIn = store({});
    signIn.set(await a(signIn, "s2").passwordGrant("admin", ADMIN_PASSWORD));
    await sleep(1100);
    const [onA, onB] = [store(signIn.get()), store(signIn.get())];
    expect(await a(onA, "session-two").verify()).not.toBeNull();
    expect(await b(onB, "session-two").verify()).not.toBeNull();
    expect(onB.accessToken).toBe(onA.accessToken);
  });

  it("another session with a copy of the tokens still ends the sign-in", async () => {
    const [a, b] = [await replica(), await replica()];
    const signIn = store({});
    signIn.set(await a(signIn, "s3").passwordGrant("admin", ADMIN_PASSWORD));
    await sleep(1100);
    const [mine, copy] = [store(signIn.get()), store(signIn.get())];
    expect(await a(mine, "victim").verify()).not.toBeNull();
    expect(await b(copy, "thief").verify()).toBeNull();
    expect((await verify(logger.url, mine.accessToken)).status).toBe(401);
  });
});
