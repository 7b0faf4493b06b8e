import { ADMIN_PASSWORD, expect, test } from "./fixtures";
import { freePort, startConsole, startLogger } from "./stack";

const PASSWORD = "extra-Admin-pass-1";

test("a controller hides Help and reads the admin global settings; /help is its 404 page, also without JavaScript", async ({ page, browser }) => {
  const logger = await startLogger({ controller: true, adminPassword: PASSWORD });
  const console = await startConsole(logger.url);
  try {
    await page.goto(`${console.url}/signin`);
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Password").press("Enter");
    // The start page needs the global settings, which a controller serves only through AdminAPI.
    await expect(page).toHaveURL(/\/devices$/);
    await page.goto(`${console.url}/versionInfo`);
    await expect(page.getByTestId("system-name")).not.toContainText("Service");
    await expect(page.getByText("Controller", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Help" })).toHaveCount(0);
    const res = await page.goto(`${console.url}/help`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()["content-type"]).toContain("text/html");
    await expect(page.getByTestId("error-404")).toBeVisible();
    // The same session without JavaScript: the server's page alone (was hardening.nojs.spec's,
    // which started a controller stack of its own in js and nojs for it).
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      await plain.addCookies(await page.context().cookies());
      const bare = await plain.newPage();
      const again = await bare.goto(`${console.url}/help`);
      expect(again?.status()).toBe(404);
      expect(again?.headers()["content-type"]).toContain("text/html");
      await expect(bare.getByTestId("error-404")).toBeVisible();
    } finally {
      await plain.close();
    }
  } finally {
    // Leave the page first: a page left open would log the vanished server as errors.
    await page.goto("about:blank");
    await console.stop();
    await logger.stop();
  }
});

// The worker's own stack is a service, as the logger starts by default.
test("a service offers the in-app Help, which links the constants file's help URL for more", async ({ page }) => {
  await page.goto("/signin?redirect_uri=/help");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole("heading", { name: "Help", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: /More documentation/ }).click();
  await expect(page).toHaveURL(/\/resources\/help\.html$/);
  await expect(page.getByRole("heading", { name: "Loggia help" })).toBeVisible();
});

test("an unreachable logger gives a clear 503 page, and the console recovers when it is back", async ({ page }) => {
  const port = await freePort();
  const console = await startConsole(`http://127.0.0.1:${port}`);
  try {
    const down = await page.goto(`${console.url}/signin`);
    expect(down?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "The logger cannot be reached" })).toBeVisible();
    const logger = await startLogger({ port, adminPassword: PASSWORD });
    try {
      const up = await page.goto(`${console.url}/signin`);
      expect(up?.status()).toBe(200);
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    } finally {
      await logger.stop();
    }
  } finally {
    // Leave the page first: a page left open would log the vanished server as errors.
    await page.goto("about:blank");
    await console.stop();
  }
});
