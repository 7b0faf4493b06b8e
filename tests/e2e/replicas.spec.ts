import type { ProxySite } from "../support/proxySite.ts";
import { ADMIN_PASSWORD, LOGGER, createUser, expect, test } from "./fixtures";
import { readSession, replicaOf, rewriteSession, setSession, signInAt, startReplicaSite } from "./replicaSite";

// Two consoles behind nginx with no sticky sessions (issue 17): both refreshing one session's
// tokens at the same moment keep the user signed in, and live values flow through the proxy.

test.describe.configure({ mode: "serial" });

let site: ProxySite;
test.beforeAll(async () => {
  site = await startReplicaSite();
});
test.afterAll(async () => {
  await site?.stop();
});

test("two consoles refreshing one session's tokens at once keep it signed in", async ({ page, context }) => {
  const user = await createUser("Operator");
  await signInAt(page, site.origin, user.username, user.password);
  await page.goto("about:blank");
  const cookie = (await context.cookies()).find((c) => c.name === "loggia_session")!;
  const before = await readSession(cookie.value);
  // The access token is refused by the logger as an expired one is (401): the next request of
  // this browser on either console refreshes with the session's refresh token. (The run's logger
  // issues 15-minute tokens; forging the cookie — the consoles' secret is the test's — is how a
  // refresh is made due now.)
  await context.addCookies([{ ...cookie, value: await rewriteSession(cookie.value, { accessToken: "expired-access-token-of-this-test" }) }]);

  // Two requests of the browser at once, with the same cookie: nginx sends one to each console.
  const [a, b] = await Promise.all([page.request.get(`${site.origin}/settings`, { maxRedirects: 0 }), page.request.get(`${site.origin}/settings`, { maxRedirects: 0 })]);
  expect(new Set([replicaOf(site, a), replicaOf(site, b)])).toEqual(new Set([0, 1]));
  expect([a.status(), b.status()], "both consoles answer signed in").toEqual([200, 200]);
  const [fromA, fromB] = [setSession(a), setSession(b)];
  expect(fromA, "a refreshed cookie from the first console").toBeDefined();
  expect(fromB, "a refreshed cookie from the second console").toBeDefined();
  const [sa, sb] = [await readSession(fromA!), await readSession(fromB!)];
  // The same new pair from both (the logger repeated its rotation for the same session).
  expect(sa.refreshToken).not.toBe(before.refreshToken);
  expect(sb.refreshToken).toBe(sa.refreshToken);
  expect(sb.accessToken).toBe(sa.accessToken);
  const verify = await fetch(`${LOGGER}/verify`, { method: "POST", headers: { Authorization: `Bearer ${sa.accessToken}` } });
  expect(verify.status, "the new access token is good at the logger").toBe(200);

  // The browser carries on, on both consoles.
  for (let i = 0; i < 2; i++) {
    const res = await page.goto(`${site.origin}/settings`);
    replicaOf(site, res!);
    expect(new URL(page.url()).pathname).toBe("/settings");
  }
});

test("live values arrive through the proxy", async ({ page }) => {
  await signInAt(page, site.origin, "admin", ADMIN_PASSWORD);
  await page.goto(`${site.origin}/monitor`);
  await page.getByLabel("Vibration").first().check();
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/live");
  await page.getByRole("button", { name: "Show" }).click();
  const live = await stream;
  expect(live.status()).toBe(200);
  replicaOf(site, live);
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  const value = page.getByTestId("tile-value").first();
  const before = await value.textContent();
  await expect(value).not.toHaveText(before ?? "", { timeout: 10_000 });
});
