import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { ownStack, type OwnStack } from "./stack";

// Issue 15 §1/§5: a dashboard opened while the logger is unreachable is not the error page. A
// logger of its own (its data folder survives the stop) behind a console of its own, so the
// shared e2e logger is never stopped.

const PASSWORD = "outage-Admin-pass-1";

/** A console and its logger of their own (stack.ts), for the test's run; the logger can be stopped and started again on the same port and data. */
async function withOwnStack(run: (s: OwnStack) => Promise<void>) {
  const stack = await ownStack({ adminPassword: PASSWORD });
  try {
    await run(stack);
  } finally {
    await stack.stop();
  }
}

async function signIn(page: Page, url: string) {
  await page.goto(`${url}/signin`);
  await page.getByLabel(/username/i).fill("admin");
  await page.getByLabel(/^password$/i).fill(PASSWORD);
  await page.getByLabel(/^password$/i).press("Enter");
  await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
}

/** The seeded dashboards of the stack's logger (the default one and the other). */
async function dashboards(loggerUrl: string): Promise<{ ID: string; Name: string; IsDefault: boolean }[]> {
  const auth = `Basic ${Buffer.from("loggia-console:loggia-console-secret").toString("base64")}`;
  const grant = await fetch(`${loggerUrl}/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: auth }, body: new URLSearchParams({ grant_type: "password", username: "admin", password: PASSWORD }) });
  const { access_token } = (await grant.json()) as { access_token: string };
  const res = await fetch(`${loggerUrl}/rpc/WebUIAPI.List`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${access_token}` }, body: "{}" });
  return ((await res.json()) as { List: { ID: string; Name: string; IsDefault: boolean }[] }).List;
}

/** The remembered page, drawn offline: strip, badge, every widget that shows data greyed, and a refresh without JavaScript. */
async function expectOfflineKiosk(page: Page, name: string) {
  const strip = page.getByTestId("kiosk-outage");
  await expect(strip).toHaveAttribute("data-state", "offline");
  await expect(strip).toContainText(/Logger unreachable: the last data arrived \d+ sec ago/);
  expect((await strip.boundingBox())!.width).toBeGreaterThan(1920 * 0.9);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "offline");
  await expect(page.getByTestId("kiosk-clock")).toBeVisible();
  await expect(page.locator("[data-type=value]").first()).toHaveAttribute("data-freshness", "offline");
  await expect(page.locator("[data-type=value] .loggia-not-live").first()).toBeVisible();
  await expect(page.locator("[data-type=lamp] .loggia-not-live").first()).toBeVisible();
  // An alarm list from before could say "no active alarms" untruly: it says it cannot read them.
  await expect(page.locator("[data-type=alarms]")).toContainText("Alarms unavailable: the logger is unreachable");
  // The wall's alarm strip says the alarm state is unknown, rather than showing none (issue 26 §4).
  await expect(page.getByTestId("kiosk-alarms")).toHaveAttribute("data-state", "unknown");
  // The values are the last ones read, not blanks.
  await expect(page.locator("[data-type=value] [data-testid=widget-value]").first()).toHaveText(/\d/);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a kiosk loaded while the logger is away shows its last page offline with the strip, and comes back by itself", async ({ page }) => {
    test.setTimeout(120_000);
    await withOwnStack(async ({ url, loggerUrl, stopLogger, startLogger }) => {
      const list = await dashboards(loggerUrl);
      const home = list.find((d) => d.IsDefault)!;
      const other = list.find((d) => !d.IsDefault)!;
      await signIn(page, url);
      await page.goto(`${url}/dashboard?kiosk`);
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", /live|stale/);
      await expect(page.getByTestId("kiosk-outage")).toHaveCount(0);
      await page.goto(`${url}/dashboard`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(home.Name);

      await stopLogger();
      const answer = await page.goto(`${url}/dashboard?kiosk`);
      expect(answer?.status()).toBe(503);
      await expect(page.getByTestId("error-503")).toHaveCount(0);
      await expectOfflineKiosk(page, home.Name);
      // Its server-drawn charts are there too, greyed as not live.
      await expect(page.locator("[data-type=chart] [data-testid=chart] svg").first()).toBeVisible();
      const html = await page.content();
      expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="10"\/?><\/noscript>/);

      // The wall display's usual address goes there too.
      await page.goto(`${url}/defaultDashboard?kiosk`);
      await expect(page).toHaveURL(/\/dashboard\?kiosk/);
      await expect(page.getByTestId("kiosk-outage")).toHaveAttribute("data-state", "offline");

      // A dashboard this sign-in never opened: the kiosk's chrome and a strip that says so.
      await page.goto(`${url}/dashboard?kiosk&id=${other.ID}`);
      await expect(page.getByTestId("kiosk-outage")).toHaveText(/Logger unreachable: this dashboard can be shown again once it answers/);
      await expect(page.getByTestId("kiosk-clock")).toBeVisible();
      await expect(page.getByTestId("widget")).toHaveCount(0);

      // The ordinary dashboard: its shell and page, offline, instead of the error page.
      await page.goto(`${url}/dashboard`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(home.Name);
      await expect(page.getByTestId("dashboard-offline")).toBeVisible();
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "offline");
      await expect(page.locator("[data-type=value]").first()).toHaveAttribute("data-freshness", "offline");

      // Back on the wall display; the logger returns; the page's own refresh brings it back.
      await page.goto(`${url}/dashboard?kiosk`);
      await expect(page.getByTestId("kiosk-outage")).toBeVisible();
      await startLogger();
      await expect(page.getByTestId("kiosk-outage")).toHaveCount(0, { timeout: 30_000 });
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
      await expect(page.locator(".loggia-not-live")).toHaveCount(0);
    });
  });
});

test("with JavaScript the kiosk loaded during an outage keeps its last page offline, then comes back by itself, without a reload, when the logger is back", async ({ page }) => {
  test.setTimeout(120_000);
  await withOwnStack(async ({ url, loggerUrl, stopLogger, startLogger }) => {
    const home = (await dashboards(loggerUrl)).find((d) => d.IsDefault)!;
    await signIn(page, url);
    await page.goto(`${url}/dashboard?kiosk`);
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");

    await stopLogger();
    await page.goto(`${url}/dashboard?kiosk`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expectOfflineKiosk(page, home.Name);
    await expectAccessible(page, "kiosk during an outage");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    await startLogger();
    await expect(page.getByTestId("kiosk-outage")).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
    // It came back without loading itself again (issue 26 §1: every loader ran again, the shell
    // drawn from memory too — a reload while the network is still shaky can land on the browser's
    // own error page, a revalidation waits and retries).
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.goto("about:blank");
  });
});
