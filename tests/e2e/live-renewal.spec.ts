import { ADMIN_PASSWORD, expect, test } from "./fixtures";
import { startConsole, startLogger } from "./stack";

// The logger keeps a live socket open past its access token's expiry (every 15 min by default)
// while the sign-in lives (issue 27). A logger that closes it instead (4001) makes the console's
// relay announce a planned end (`renew`) and the browser come straight back; either way values
// keep flowing and the page never shows "Offline" — a wall display would otherwise flash a false
// outage four times an hour.
test("the live stream outlives an expired access token without showing Offline", async ({ page }) => {
  test.setTimeout(60_000);
  const logger = await startLogger({ adminPassword: ADMIN_PASSWORD, env: { ACCESS_TOKEN_TTL: "3" } });
  const site = await startConsole(logger.url);
  try {
    await page.goto(`${site.url}/signin`);
    await page.getByLabel(/username/i).fill("admin");
    await page.getByLabel(/^password$/i).fill(ADMIN_PASSWORD);
    await page.getByLabel(/^password$/i).press("Enter");
    await page.waitForURL((u) => !u.pathname.startsWith("/signin"));

    // Every state the badge takes, and every /live answer, from here on.
    const states: string[] = [];
    await page.exposeFunction("badgeState", (s: string) => states.push(s));
    const streams: number[] = [];
    page.on("response", (r) => {
      if (new URL(r.url()).pathname === "/live") streams.push(r.status());
    });
    await page.goto(`${site.url}/monitor`);
    await page.getByLabel("Vibration").first().check();
    await page.getByRole("button", { name: "Show" }).click();
    const badge = page.getByTestId("live-state");
    await expect(badge).toHaveAttribute("data-state", "live");
    await page.evaluate(() => {
      const el = document.querySelector("[data-testid=live-state]")!;
      new MutationObserver(() => (window as unknown as { badgeState(s: string): void }).badgeState(el.getAttribute("data-state") ?? "")).observe(el, { attributes: true });
    });

    // Three token lifetimes: the values still change after them, on one stream or renewed ones.
    const value = page.getByTestId("tile-value").first();
    const since = Date.now();
    await expect.poll(() => Date.now() - since, { timeout: 20_000 }).toBeGreaterThanOrEqual(9_000);
    expect(streams.length).toBeGreaterThanOrEqual(1);
    const before = await value.textContent();
    await expect(value).not.toHaveText(before ?? "", { timeout: 10_000 });
    expect(streams.every((s) => s === 200), `/live answers ${streams.join(", ")}`).toBe(true);
    expect(states.filter((s) => s === "offline"), `badge states ${states.join(", ")}`).toEqual([]);
    await expect(badge).toHaveAttribute("data-state", "live");
    // Still signed in: the renewed tokens reached the cookie.
    await page.goto(`${site.url}/monitor`);
    expect(new URL(page.url()).pathname).toBe("/monitor");
  } finally {
    await site.stop();
    await logger.stop();
  }
});
