import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, faultTest as test, LOGGER, rpc, signInDirect, token, unique } from "./fixtures";
import { expectAccessible } from "./axe";
import { ownStack, type OwnStack } from "./stack";

// Issue 26 on a wall display (1920×1080): a network blip, a logger that stops answering (SIGSTOP)
// and comes back, alarms that come and go — the kiosk keeps its picture, says what is wrong and
// since when, never shows an error page, and is live again by itself.

const OWN_PASSWORD = "faults-Admin-pass-1";

async function signInAt(page: Page, url: string, password: string) {
  await page.goto(`${url}/signin`);
  await page.getByLabel(/username/i).fill("admin");
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByLabel(/^password$/i).press("Enter");
  await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
}

async function withStack(run: (s: OwnStack) => Promise<void>) {
  const stack = await ownStack({ adminPassword: OWN_PASSWORD });
  try {
    await run(stack);
  } finally {
    await stack.stop();
  }
}

const badge = (page: Page) => page.getByTestId("live-state");
/** Nothing of an error page: no error boundary, and the kiosk's own heading still there. */
async function expectNoErrorPage(page: Page, heading: string) {
  await expect(page.locator("[data-testid^=error-]")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await expect(page.getByTestId("kiosk-clock")).toBeVisible();
}

async function defaultDashboardName(loggerUrl = LOGGER, password = ADMIN_PASSWORD): Promise<string> {
  const res = await fetch(`${loggerUrl}/rpc/WebUIAPI.List`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${await tokenAt(loggerUrl, password)}` }, body: "{}" });
  return ((await res.json()) as { List: { Name: string; IsDefault: boolean }[] }).List.find((d) => d.IsDefault)!.Name;
}
async function tokenAt(loggerUrl: string, password: string): Promise<string> {
  if (loggerUrl === LOGGER) return token("admin", password);
  const res = await fetch(`${loggerUrl}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from("loggia-console:loggia-console-secret").toString("base64")}` },
    body: new URLSearchParams({ grant_type: "password", username: "admin", password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

test("the browser offline: the kiosk keeps its picture, says Reconnecting with the last update, and is live again by itself", async ({ page, context }) => {
  test.setTimeout(90_000);
  const name = await defaultDashboardName();
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/dashboard?kiosk");
  await expect(badge(page)).toHaveAttribute("data-state", "live");
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

  await context.setOffline(true);
  // Said within 5 s (the alarm feed is the page's heartbeat every 4 s).
  await expect(page.getByTestId("kiosk-outage")).toHaveAttribute("data-state", "reconnecting", { timeout: 6_000 });
  await expect(page.getByTestId("kiosk-outage")).toHaveText(/^Reconnecting… \(last update \d\d:\d\d:\d\d\)$/);
  await expect(badge(page)).toHaveAttribute("data-state", "reconnecting");
  // Old alarms are not shown as current while nothing can be asked.
  await expect(page.getByTestId("kiosk-alarms")).toHaveAttribute("data-state", "unknown");
  // The dashboard's own poll fails too (it brought the error page before): still the kiosk.
  await page.waitForEvent("requestfailed", { predicate: (r) => /[?&]poll/.test(r.url()), timeout: 20_000 });
  await expectNoErrorPage(page, name);
  await expect(page.getByTestId("kiosk-outage")).toHaveAttribute("data-state", "reconnecting");
  await expectAccessible(page, "the kiosk reconnecting");

  await context.setOffline(false);
  await expect(badge(page)).toHaveAttribute("data-state", "live", { timeout: 6_000 });
  await expect(page.getByTestId("kiosk-outage")).toHaveCount(0);
  await expect(page.getByTestId("kiosk-alarms")).not.toHaveAttribute("data-state", "unknown", { timeout: 6_000 });
  // Back without a reload: the same document.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test("a logger that stops answering: Offline within 5 s with the reason, a reload answers at once, Live again when it resumes", async ({ page }) => {
  test.setTimeout(120_000);
  await withStack(async (stack) => {
    const name = await defaultDashboardName(stack.loggerUrl, OWN_PASSWORD);
    await signInAt(page, stack.url, OWN_PASSWORD);
    await page.goto(`${stack.url}/dashboard?kiosk`);
    await expect(badge(page)).toHaveAttribute("data-state", "live");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    stack.pauseLogger();
    try {
      await expect(badge(page)).toHaveAttribute("data-state", "offline", { timeout: 6_000 });
      await expect(badge(page)).toHaveAttribute("data-reason", "logger");
      await expect(badge(page)).toContainText("logger not answering");
      await expect(page.getByTestId("kiosk-outage")).toHaveAttribute("data-state", "offline");
      await expect(page.getByTestId("kiosk-alarms")).toHaveAttribute("data-state", "unknown");
      // Values keep their last reading, greyed.
      await expect(page.locator("[data-type=value] [data-testid=widget-value]").first()).toHaveText(/\d/);
      await expect(page.locator("[data-type=value]").first()).toHaveAttribute("data-freshness", "offline");
      await expectNoErrorPage(page, name);
      await expectAccessible(page, "the kiosk with the logger not answering");

      // A page load while the logger is silent: answered within the page's deadline (not the 15 s
      // logger timeout), the remembered page offline, not an error page.
      const started = Date.now();
      const answer = await page.goto(`${stack.url}/dashboard?kiosk`, { waitUntil: "commit" });
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(answer?.status()).toBeLessThan(600);
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await expectNoErrorPage(page, name);
      await expect(badge(page)).toHaveAttribute("data-state", "offline");
      await expect(page.getByTestId("kiosk-alarms")).toHaveAttribute("data-state", "unknown");
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 2));
    } finally {
      stack.resumeLogger();
    }
    await expect(badge(page)).toHaveAttribute("data-state", "live", { timeout: 7_000 });
    await expect(page.getByTestId("kiosk-outage")).toHaveCount(0);
    await expect(page.getByTestId("kiosk-alarms")).not.toHaveAttribute("data-state", "unknown", { timeout: 7_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(2);
    await page.goto("about:blank");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the kiosk's refresh keeps answering while the logger is paused: its page offline, the alarm state unknown", async ({ page }) => {
    test.setTimeout(120_000);
    await withStack(async (stack) => {
      const name = await defaultDashboardName(stack.loggerUrl, OWN_PASSWORD);
      await signInAt(page, stack.url, OWN_PASSWORD);
      await page.goto(`${stack.url}/dashboard?kiosk`);
      await expect(badge(page)).toHaveAttribute("data-state", /live|stale/);
      stack.pauseLogger();
      try {
        for (let i = 0; i < 2; i++) {
          const started = Date.now();
          await page.goto(`${stack.url}/dashboard?kiosk`);
          expect(Date.now() - started).toBeLessThan(8_000);
          await expectNoErrorPage(page, name);
          await expect(badge(page)).toHaveAttribute("data-state", "offline");
          await expect(page.getByTestId("kiosk-alarms")).toHaveAttribute("data-state", "unknown");
          expect(await page.content()).toMatch(/<noscript><meta http-equiv="refresh" content="\d+"\/?><\/noscript>/);
        }
      } finally {
        stack.resumeLogger();
      }
      await expect
        .poll(
          async () => {
            await page.goto(`${stack.url}/dashboard?kiosk`);
            return badge(page).getAttribute("data-state");
          },
          { timeout: 20_000 },
        )
        .toBe("live");
      await expect(page.getByTestId("kiosk-alarms")).not.toHaveAttribute("data-state", "unknown");
    });
  });
});

test("returned-unacknowledged alarms stay on the wall, each value said to be at activation, with the value now", async ({ page }) => {
  test.setTimeout(60_000);
  const vars = (await (await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } })).json()) as { Data: { Id: string; Name: string; Precision: number }[] };
  const oil = vars.Data.find((v) => v.Name === "Oil temperature")!;
  const rule = unique("Wall check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: rule, VariableId: oil.Id, Type: "high", High: -1000, Severity: "critical" } });
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/dashboard?kiosk");
    const row = page.locator(`[data-testid=kiosk-alarm][data-alarm="${rule}"]`);
    await expect(row).toHaveAttribute("data-state", "ActiveUnacknowledged", { timeout: 20_000 });
    // The variable's precision (one decimal) and unit, said to be the value at activation; the value now beside it.
    await expect(row.getByTestId("alarm-at-activation")).toHaveText(/^-?\d+\.\d °C at activation$/);
    await expect(row.getByTestId("alarm-now")).toHaveText(/^now -?\d+\.\d °C$/);

    // The condition goes away before anyone acknowledged it: returned, unacknowledged — still on the wall.
    await rpc("AlarmAPI.SetRule", { Rule: { ID, High: 100_000 } });
    await expect(row).toHaveAttribute("data-state", "ReturnedUnacknowledged", { timeout: 25_000 });
    await expect(row).toContainText("Returned, unacknowledged");
    await rpc("AlarmAPI.Acknowledge", { IDs: [ID] });
    await expect(row).toHaveCount(0, { timeout: 25_000 });
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID });
  }
});
