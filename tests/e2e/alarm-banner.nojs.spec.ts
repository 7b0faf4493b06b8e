import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { ADMIN_PASSWORD, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Issue 26 §4, with and without JavaScript: an alarm banner below the header on every page — the
// newest unacknowledged alarm of the highest priority, its value at activation with the variable's
// precision and unit and the value now, how many more await acknowledgement — acknowledged with a
// plain form post; returned-unacknowledged alarms included; with JavaScript it comes by itself.

type Alarms = { Alarms: { ID: number; State: string }[] };
const js = () => test.info().project.name !== "nojs";

async function oilId(): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  return ((await res.json()) as { Data: { Id: string; Name: string }[] }).Data.find((v) => v.Name === "Oil temperature")!.Id;
}

/** A critical rule on the oil temperature that is always violated (it fires on the next samples), or never. */
async function rule(firing: boolean): Promise<{ id: number; name: string }> {
  const name = unique("Banner check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: await oilId(), Type: "high", High: firing ? -1000 : 100_000, Severity: "critical" } });
  return { id: ID, name };
}
const stateOf = async (id: number) => (await rpc<Alarms>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === id)?.State;
const banner = (page: Page) => page.getByTestId("alarm-banner");

test("an unacknowledged alarm is on every page below the header, its value at activation beside the value now, and is acknowledged from there", async ({ page }) => {
  const r = await rule(true);
  try {
    await expect.poll(() => stateOf(r.id), { timeout: 15_000 }).toBe("ActiveUnacknowledged");
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    for (const path of ["/settings", "/versionInfo"]) {
      await page.goto(path);
      await expect(banner(page)).toHaveAttribute("data-alarm", r.name);
      await expect(banner(page)).toHaveAttribute("data-severity", "critical");
      await expect(banner(page)).toContainText("Active, unacknowledged");
      // The variable's one decimal and its unit; said to be the value at activation, the value now beside it.
      await expect(banner(page).getByTestId("alarm-at-activation")).toHaveText(/^-?\d+\.\d °C at activation$/);
      await expect(banner(page).getByTestId("alarm-now")).toHaveText(/^now -?\d+\.\d °C$/);
    }
    if (js()) await expectAccessible(page, "a page with the alarm banner");
    await banner(page).getByRole("button", { name: `Acknowledge ${r.name}` }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Alarm acknowledged");
    await expect(page).toHaveURL(/\/versionInfo$/);
    expect(await stateOf(r.id)).toBe("ActiveAcknowledged");
    // Acknowledged: no longer the banner's (the bell still counts it as active).
    await expect(page.locator(`[data-testid=alarm-banner][data-alarm="${r.name}"]`)).toHaveCount(0);
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: r.id });
  }
});

test("an alarm that returned before anyone acknowledged it stays in the banner as returned, unacknowledged", async ({ page }) => {
  const r = await rule(true);
  try {
    await expect.poll(() => stateOf(r.id), { timeout: 15_000 }).toBe("ActiveUnacknowledged");
    await rpc("AlarmAPI.SetRule", { Rule: { ID: r.id, High: 100_000 } });
    await expect.poll(() => stateOf(r.id), { timeout: 15_000 }).toBe("ReturnedUnacknowledged");
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/settings");
    await expect(banner(page)).toHaveAttribute("data-alarm", r.name);
    await expect(banner(page)).toHaveAttribute("data-state", "ReturnedUnacknowledged");
    await expect(banner(page)).toContainText("Returned, unacknowledged");
    await banner(page).getByRole("button", { name: `Acknowledge ${r.name}` }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Alarm acknowledged");
    expect(await stateOf(r.id)).toBe("Normal");
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: r.id });
  }
});

test("with JavaScript a new alarm comes into the banner without a reload", async ({ page }) => {
  test.skip(!js(), "the banner's live updates need JavaScript (without it the banner is current on each page load)");
  const r = await rule(false);
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/settings");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await expect(page.locator(`[data-testid=alarm-banner][data-alarm="${r.name}"]`)).toHaveCount(0);
    await rpc("AlarmAPI.SetRule", { Rule: { ID: r.id, High: -1000 } });
    await expect(page.locator(`[data-testid=alarm-banner][data-alarm="${r.name}"]`)).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: r.id });
  }
});
