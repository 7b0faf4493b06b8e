import { createCookieSessionStorage } from "react-router";
import { ADMIN_PASSWORD, consoleGrant, expect, test } from "./fixtures";

// The session cookie's own dates decide (issue 14): a cookie past its end is refused even when
// the browser still sends it. The cookies here are signed with the e2e run's SESSION_SECRET
// (playwright.config.ts), as a cookie kept from earlier — or copied — would be.

const SECRET = "e2e-session-secret-0123456789abcdef";

async function sessionCookie(data: Record<string, unknown>) {
  const storage = createCookieSessionStorage({ cookie: { name: "loggia_session", secrets: [SECRET], path: "/", httpOnly: true, sameSite: "lax" } });
  const session = await storage.getSession();
  for (const [key, value] of Object.entries(data)) session.set(key, value);
  const header = (await storage.commitSession(session)).split(";")[0]!;
  return header.slice(header.indexOf("=") + 1);
}

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
  await expect(page).toHaveURL(/\/signin$/);

  // A cookie without dates (written before sessions had them) is refused likewise.
  await useCookie(await sessionCookie(tokens));
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin$/);
});
