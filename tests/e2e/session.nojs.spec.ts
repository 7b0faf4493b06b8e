import { sealedSessionCookie } from "../support/sessionCookie";
import { ADMIN_PASSWORD, consoleGrant, expect, signInDirect, test } from "./fixtures";

// The session cookie's own dates decide (issue 14): a cookie past its end is refused even when
// the browser still sends it. The cookies here are sealed with the e2e run's SESSION_SECRET
// (playwright.config.ts), as a cookie kept from earlier — or copied — would be.

const SECRET = "e2e-session-secret-0123456789abcdef";

const sessionCookie = (data: Record<string, unknown>) => sealedSessionCookie([SECRET], data);

test("a session cookie past its end is refused; the same tokens within its lifetime are not", async ({ page, context, baseURL }) => {
  const grant = await consoleGrant("admin", ADMIN_PASSWORD, "192.0.2.78");
  expect(grant.status).toBe(200);
  const tokens = { accessToken: grant.body.access_token, refreshToken: grant.body.refresh_token, userId: 1, username: "admin", mustChangePassword: false };
  const now = Date.now();
  const day = 24 * 3600 * 1000;

  const useCookie = async (value: string) => {
    await context.clearCookies();
    await context.addCookies([{ name: "loggia_session", value, url: baseURL! }]);
  };

  await useCookie(await sessionCookie({ ...tokens, issuedAt: now - 60_000, expiresAt: now + day, sid: "fresh" }));
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings$/);

  await useCookie(await sessionCookie({ ...tokens, issuedAt: now - 8 * day, expiresAt: now - day, sid: "old" }));
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin\?redirect_uri=\/settings$/);

  // A cookie without dates (written before sessions had them) is refused likewise.
  await useCookie(await sessionCookie(tokens));
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin\?redirect_uri=\/settings$/);
});

test("the session cookie does not show its tokens to whoever holds a copy of it", async ({ page, context }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const cookie = (await context.cookies()).find((c) => c.name === "loggia_session")!;
  // What a reader of a proxy log or a backup could decode without the console's secret.
  let text = decodeURIComponent(cookie.value);
  const layers = [text];
  for (let i = 0; i < 2; i++) layers.push((text = Buffer.from(text.replace(/^"|"$/g, "").replace(/^v1\./, "").split(".")[0]!, "base64").toString("latin1")));
  const readable = layers.join("\n");
  expect(readable).not.toMatch(/accessToken|refreshToken|admin/);
  expect((await page.goto("/settings"))?.status()).toBe(200);
});
