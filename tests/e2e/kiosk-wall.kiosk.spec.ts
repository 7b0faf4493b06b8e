import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { ADMIN_PASSWORD, createUser, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// Issue 15 §5: a wall-ready kiosk (1920×1080 in this project, 3840×2160 set here), against the
// shared e2e logger's demo dashboards. Rules and stopped acquisition are undone at the end.

async function noScrolling(page: Page) {
  const size = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth, vh: window.innerHeight, vw: window.innerWidth }));
  expect(size.h, "document height within the screen").toBeLessThanOrEqual(size.vh);
  expect(size.w, "document width within the screen").toBeLessThanOrEqual(size.vw);
}

const fontPx = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

async function dashboards(): Promise<{ ID: string; Name: string; IsDefault: boolean }[]> {
  return (await rpc<{ List: { ID: string; Name: string; IsDefault: boolean }[] }>("WebUIAPI.List", {})).List;
}

test("the kiosk fills a 1080p and a 4K screen without scrolling, with numbers readable from 3 m", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/dashboard?kiosk");
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  await noScrolling(page);
  for (const type of ["value", "gauge", "bar"]) expect(await fontPx(page, `[data-type=${type}] [data-testid=widget-value]`), `${type} number at 1080p`).toBeGreaterThanOrEqual(48);
  // Rows share the screen: the grid reaches down to (nearly) the bottom edge.
  const grid = await page.getByTestId("dashboard-grid").boundingBox();
  expect(grid!.y + grid!.height).toBeGreaterThan(1080 - 40);
  await expectAccessible(page, "kiosk 1080p");

  await page.setViewportSize({ width: 3840, height: 2160 });
  await page.reload();
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  await noScrolling(page);
  expect(await fontPx(page, "[data-type=value] [data-testid=widget-value]")).toBeGreaterThanOrEqual(96);
  const big = await page.getByTestId("dashboard-grid").boundingBox();
  expect(big!.y + big!.height).toBeGreaterThan(2160 - 60);
});

test("the kiosk shows a 24-hour clock in the user's time zone, ticking", async ({ page }) => {
  // The fixtures' users live in Europe/Rome; the browser here runs in another zone.
  const viewer = await createUser("Viewer");
  await signInDirect(page, viewer.username, viewer.password);
  await page.goto("/dashboard?kiosk");
  const clock = page.getByTestId("kiosk-clock");
  await expect(clock).toBeVisible();
  const zone = "Europe/Rome";
  await expect(clock).toHaveAttribute("data-zone", zone);
  const hhmm = (ms: number) => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }).format(ms);
  const text = (await clock.textContent()) ?? "";
  const now = Date.now();
  expect([hhmm(now - 60_000), hhmm(now), hhmm(now + 60_000)].some((t) => text.includes(t)), `${text} shows the time in ${zone}`).toBe(true);
  expect(text).not.toMatch(/AM|PM/);
  // It ticks: its machine-readable time moves on without a reload.
  const first = await clock.getAttribute("datetime");
  await expect(clock).not.toHaveAttribute("datetime", first!, { timeout: 5_000 });
});

test("the alarm strip lists active alarms, unacknowledged and acknowledged, most severe first", async ({ page }) => {
  const ids = await variableIds();
  const names = [unique("Kiosk high "), unique("Kiosk critical ")];
  const rules: number[] = [];
  try {
    for (const [name, severity] of [
      [names[0]!, "high"],
      [names[1]!, "critical"],
    ] as const) {
      const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: ids["Oil temperature"], Type: "high", High: -1000, Severity: severity } });
      rules.push(ID);
    }
    const state = async (id: number) => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === id)?.State;
    for (const id of rules) await expect.poll(() => state(id)).toBe("ActiveUnacknowledged");
    await rpc("AlarmAPI.Acknowledge", { IDs: [rules[0]], Comment: "seen on the wall" });

    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/dashboard?kiosk");
    const strip = page.getByTestId("kiosk-alarms");
    await expect(strip).toBeVisible();
    // The critical one leads; the acknowledged one is still there while it is active.
    await expect(strip.locator(`[data-alarm="${names[1]}"]`)).toHaveAttribute("data-state", "ActiveUnacknowledged");
    const critical = strip.locator(`[data-alarm="${names[1]}"]`);
    await expect(critical.locator("[data-severity]")).toHaveAttribute("data-severity", "critical");
    const order = await strip.getByTestId("kiosk-alarm").evaluateAll((els) => els.map((e) => e.querySelector("[data-severity]")?.getAttribute("data-severity")));
    expect(order[0]).toBe("critical");
    // Four at most; the acknowledged high alarm shows when it fits among the most severe.
    const listed = await strip.getByTestId("kiosk-alarm").evaluateAll((els) => els.map((e) => [e.getAttribute("data-alarm"), e.getAttribute("data-state")]));
    const high = listed.find(([n]) => n === names[0]);
    if (high) expect(high[1]).toBe("ActiveAcknowledged");
    else await expect(strip).toContainText(/more alarm/);
    await noScrolling(page);
  } finally {
    for (const id of rules) await rpc("AlarmAPI.RemoveRule", { ID: id });
  }
});

test("?cycle moves on to the next dashboard; a bad cycle is ignored", async ({ page }) => {
  const list = await dashboards();
  expect(list.length).toBeGreaterThanOrEqual(2);
  const next = list[1 % list.length]!;
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto(`/dashboard?kiosk&cycle=5&id=${list[0]!.ID}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(list[0]!.Name);
  await expect(page).toHaveURL(new RegExp(`[?&]id=${next.ID}`), { timeout: 12_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(next.Name);
  await expect(page.locator("main[data-kiosk]")).toBeVisible();

  const html = await (await page.request.get(`/dashboard?kiosk&cycle=2&id=${list[0]!.ID}`)).text();
  expect(html).not.toContain("url=/dashboard");
});

test("frozen data turns the kiosk stale in place: badge with its age, greyed values, a full-width strip", async ({ page }) => {
  test.setTimeout(60_000);
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/dashboard?kiosk");
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("kiosk-outage")).toHaveCount(0);
  try {
    await rpc("ProjectAPI.Stop", {});
    // No reload: the page's own clock finds the values too old.
    const outage = page.getByTestId("kiosk-outage");
    await expect(outage).toHaveAttribute("data-state", "stale", { timeout: 10_000 });
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "stale");
    await expect(page.getByTestId("live-age")).toHaveText(/· \d+ sec/);
    const strip = await outage.boundingBox();
    expect(strip!.width).toBeGreaterThan(1920 * 0.9);
    await expect(page.locator("[data-type=value]").first()).toHaveAttribute("data-freshness", "stale");
    await expect(page.locator("[data-type=value] .loggia-not-live").first()).toBeVisible();
    await expect(page.locator("[data-type=lamp] .loggia-not-live").first()).toBeVisible();
    await noScrolling(page);
    // Greyed and without values (acquisition stopped), it stays accessible (meters say "No value").
    await expectAccessible(page, "stale kiosk");
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
  await expect(page.getByTestId("kiosk-outage")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the kiosk fills the screen, its cards have definite heights, and ?cycle refreshes to the next dashboard", async ({ page }) => {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    // The seeded demo dashboard (it has live values) and the one the cycle shows after it;
    // the list also holds dashboards other tests made.
    const all = await dashboards();
    const at = all.findIndex((d) => d.Name === "Test cell dashboard");
    const list = [all[at]!, all[(at + 1) % all.length]!];
    await page.goto(`/dashboard?kiosk&cycle=20&id=${list[0]!.ID}`);
    await noScrolling(page);
    await expect(page.getByTestId("kiosk-clock")).toBeVisible();
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", /live|stale/);
    // Every card ends inside the screen and takes its grid area's height.
    for (const box of await page.getByTestId("widget").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.y + box.height).toBeLessThanOrEqual(1080);
      expect(box.height).toBeGreaterThan(40);
    }
    const next = list[1]!;
    const html = await (await page.request.get(`/dashboard?kiosk&cycle=20&id=${list[0]!.ID}`)).text();
    // The dashboard refreshes every 10 s or more; the page moves on at the latest after 20 s.
    const meta = /<noscript><meta http-equiv="refresh" content="(\d+);url=([^"]+)"\/?><\/noscript>/.exec(html);
    expect(meta, "a refresh to the next dashboard or, earlier, to this one with the moment to move on").not.toBeNull();
    const url = meta![2]!.replaceAll("&amp;", "&");
    expect(Number(meta![1])).toBeLessThanOrEqual(20);
    expect(url).toMatch(new RegExp(`^/dashboard\\?kiosk=&cycle=20&id=(${next.ID}|${list[0]!.ID}&due=\\d+)$`));
    // Followed, it lands on the next dashboard's kiosk page.
    await page.goto(`/dashboard?kiosk&cycle=5&id=${list[0]!.ID}`);
    const five = /content="5;url=([^"]+)"/.exec(await page.content());
    expect(five![1]!.replaceAll("&amp;", "&")).toBe(`/dashboard?kiosk=&cycle=5&id=${next.ID}`);
  });
});
