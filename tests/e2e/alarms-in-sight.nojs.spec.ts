import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createUser, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Issue 15 §4, with and without JavaScript: an acknowledged alarm that is still active stays in
// sight — counted by the header bell and listed (and acknowledgeable) on the default dashboard.

type Summary = { Active: number; Unacknowledged: number; Alarms: { ID: number; State: string }[] };

async function variableId(name: string): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Data.find((v) => v.Name === name)!.Id;
}

/** A rule on the simulated oil temperature that is always violated: it fires on the next samples. */
async function firingRule(): Promise<{ id: number; name: string }> {
  const name = unique("Sight check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: await variableId("Oil temperature"), Type: "high", High: -1000, Severity: "high" } });
  await expect.poll(async () => (await rpc<Summary>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === ID)?.State, { timeout: 15_000 }).toBe("ActiveUnacknowledged");
  return { id: ID, name };
}

async function defaultDashboardId(): Promise<string> {
  const { List } = await rpc<{ List: { ID: string; Name: string }[] }>("WebUIAPI.List", {});
  return List.find((d) => d.Name === "Test cell dashboard")!.ID;
}

const widgetRow = (page: Page, name: string) => page.locator('[data-testid="widget"][data-type="alarms"]').locator(`[data-testid="widget-alarm"][data-alarm="${name}"]`);

test("the header bell counts an acknowledged active alarm and says how many await acknowledgement", async ({ page }) => {
  const rule = await firingRule();
  try {
    await rpc("AlarmAPI.Acknowledge", { IDs: [rule.id], Comment: "e2e" });
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    const bell = page.getByTestId("alarm-count");
    // The page's counts are the logger's at render time (other rules of this run may change them).
    await expect(async () => {
      await page.goto("/versionInfo");
      const s = await rpc<Summary>("AlarmAPI.GetSummary", {});
      expect([await bell.getAttribute("data-active"), await bell.getAttribute("data-unacknowledged")]).toEqual([String(s.Active), String(s.Unacknowledged)]);
    }).toPass({ timeout: 15_000 });
    const active = Number(await bell.getAttribute("data-active"));
    const unacknowledged = Number(await bell.getAttribute("data-unacknowledged"));
    expect(active).toBeGreaterThanOrEqual(1);
    await expect(bell).toHaveAttribute("aria-label", `${active} active alarm${active === 1 ? "" : "s"}, ${unacknowledged} unacknowledged`);
    await expect(bell.getByTestId("alarm-badge")).toHaveText(String(active));
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
  }
});

test("the default dashboard lists active alarms and acknowledges one with a plain form", async ({ page }) => {
  const rule = await firingRule();
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    const id = await defaultDashboardId();
    await page.goto(`/dashboard?id=${id}`);
    const row = widgetRow(page, rule.name);
    await expect(row).toHaveAttribute("data-state", "ActiveUnacknowledged");
    await row.getByRole("button", { name: `Acknowledge ${rule.name}` }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Alarm acknowledged");
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?id=${id}$`));
    expect((await rpc<Summary>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === rule.id)?.State).toBe("ActiveAcknowledged");
    // Still listed, marked acknowledged, without a button.
    await expect(widgetRow(page, rule.name)).toHaveAttribute("data-state", "ActiveAcknowledged");
    await expect(widgetRow(page, rule.name).getByTestId("widget-alarm-state")).toHaveText("Active, acknowledged");
    await expect(widgetRow(page, rule.name).getByRole("button")).toHaveCount(0);
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
  }
});

test("without Alarming's permission there is no acknowledge button and the post answers 403", async ({ page, baseURL }) => {
  const rule = await firingRule();
  try {
    const viewer = await createUser("Viewer");
    await signInDirect(page, viewer.username, viewer.password);
    await page.goto(`/dashboard?id=${await defaultDashboardId()}`);
    await expect(page.locator('[data-testid="widget"][data-type="alarms"]')).toBeVisible();
    await expect(page.getByRole("button", { name: /^Acknowledge / })).toHaveCount(0);
    const res = await page.request.post("/dashboard/acknowledge", { form: { intent: "acknowledge", id: String(rule.id), redirectTo: "/dashboard" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(res.status()).toBe(403);
    expect((await rpc<Summary>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === rule.id)?.State).toBe("ActiveUnacknowledged");
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
  }
});
