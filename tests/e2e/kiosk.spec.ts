import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN_PASSWORD, expect, signIn, signInDirect, test } from "./fixtures";
import { freePort, runNode, startConsole, stopChild, waitFor } from "./stack";

test("a wall display reaches the default dashboard without any navigation chrome", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/defaultDashboard?kiosk");
  await expect(page).toHaveURL(/\/dashboard\?kiosk=?$/);
  await expect(page.locator("main[data-kiosk]")).toBeVisible();
  await expect(page.getByRole("navigation")).toHaveCount(0);
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  await expect(page.getByTestId("widget").first()).toBeVisible();
  await expect(page.getByTestId("range-bar")).toHaveCount(0);
});

test("without JavaScript the kiosk page refreshes itself; with it, values update live in place", async ({ page }) => {
  await signIn(page, "admin", ADMIN_PASSWORD);
  const html = await (await page.request.get("/dashboard?kiosk")).text();
  // Only inside <noscript>: a browser with JavaScript must not reload the page.
  expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="\d+"\/?><\/noscript>/);
  expect(html.replace(/<noscript>.*?<\/noscript>/gs, "")).not.toContain('http-equiv="refresh"');

  await page.goto("/dashboard?kiosk");
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  const values = page.getByTestId("widget-value");
  const before = await values.allTextContents();
  await expect.poll(async () => (await values.allTextContents()).join("|"), { timeout: 10_000 }).not.toBe(before.join("|"));
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

// A logger of its own (short access tokens, a data folder that survives a restart) behind a console of its own.
function runLogger(port: number, dataDir: string): ChildProcess {
  return runNode(["logger/main.ts", "--port", String(port), "--data", dataDir], { ADMIN_PASSWORD, ACCESS_TOKEN_TTL: "2" });
}
const waitUp = (url: string) => waitFor(url, 15_000);

test("the kiosk survives an access-token expiry and a logger restart", async ({ page }) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "loggia-e2e-kiosk-"));
  const loggerUrl = `http://127.0.0.1:${port}`;
  let logger = runLogger(port, dataDir);
  await waitUp(`${loggerUrl}/rpc/AdminAPI.LoginRequired`);
  const console = await startConsole(loggerUrl);
  try {
    await page.goto(`${console.url}/signin`);
    await page.getByLabel(/username/i).fill("admin");
    await page.getByLabel(/^password$/i).fill(ADMIN_PASSWORD);
    await page.getByLabel(/^password$/i).press("Enter");
    await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
    await page.goto(`${console.url}/defaultDashboard?kiosk`);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");

    // The access token lives 2 s; the dashboard polls every 10 s and must keep its session:
    // wait for a poll answered after the token's end.
    const expired = Date.now() + 2_000;
    await page.waitForResponse((r) => /[?&]poll\b/.test(r.url()) && Date.now() > expired, { timeout: 25_000 });
    await expect(page).toHaveURL(/\/dashboard\?kiosk/);
    await expect(page.getByTestId("kiosk-outage")).toHaveCount(0);

    await stopChild(logger);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "offline", { timeout: 15_000 });
    // A full-width strip says so, with how long ago the last data came.
    await expect(page.getByTestId("kiosk-outage")).toHaveAttribute("data-state", "offline", { timeout: 15_000 });
    await expect(page.getByTestId("kiosk-outage")).toContainText(/Logger unreachable: the last data arrived \d+ sec ago/);
    await expect(page.locator("[data-type=value]").first()).toHaveAttribute("data-freshness", "offline");

    logger = runLogger(port, dataDir);
    await waitUp(`${loggerUrl}/rpc/AdminAPI.LoginRequired`);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live", { timeout: 30_000 });
    await expect(page.getByTestId("kiosk-outage")).toHaveCount(0, { timeout: 15_000 });
    await expect(page).toHaveURL(/\/dashboard\?kiosk/);
    const values = page.getByTestId("widget-value");
    const before = (await values.allTextContents()).join("|");
    await expect.poll(async () => (await values.allTextContents()).join("|"), { timeout: 10_000 }).not.toBe(before);
  } finally {
    // The page would keep polling a console that is going away.
    await page.goto("about:blank");
    await console.stop();
    await stopChild(logger);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
