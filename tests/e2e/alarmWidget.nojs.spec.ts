import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createDashboardInManager, createUser, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// The alarm list widget, with JavaScript (the dashboard re-polls its loader) and without (the
// page refreshes itself at the dashboard's interval). Runs against the shared e2e logger: the
// rule and dashboard made here are removed at the end.

async function variableId(name: string): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Data.find((v) => v.Name === name)!.Id;
}

async function dashboardByName(name: string) {
  const { List } = await rpc<{ List: { ID: string; Name: string }[] }>("WebUIAPI.List", {});
  return List.find((d) => d.Name === name);
}

/** A rule on the simulated oil temperature that is always violated: it fires on the next samples. */
async function firingRule(): Promise<{ id: number; name: string }> {
  const name = unique("Wall oil check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: await variableId("Oil temperature"), Type: "high", High: -1000, Severity: "critical" } });
  await expect
    .poll(async () => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === ID)?.State, { timeout: 15_000 })
    .toBe("ActiveUnacknowledged");
  return { id: ID, name };
}

const alarmWidget = (page: Page) => page.locator('[data-testid="widget"][data-type="alarms"]');

test("an alarm list added through the manager shows the alarm, and its acknowledgement within the refresh interval", async ({ page, context }) => {
  const rule = await firingRule();
  const name = unique("Alarm wall ");
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await createDashboardInManager(page, name);

    const editor = page.getByTestId("dashboard-editor");
    await editor.getByLabel("Widget type").selectOption({ label: "Alarm list" });
    await editor.getByRole("button", { name: "Add widget" }).click();
    const form = page.getByTestId("widget-form");
    await form.getByLabel("Title").fill("Alarms on the rig");
    await form.getByLabel("Oil temperature").check();
    await form.getByLabel("Severity").selectOption({ label: "Critical and above" });
    // A bad row count is refused with a translated message, and what was typed stays.
    await form.getByLabel("Rows shown").fill("0");
    await form.getByRole("button", { name: "Save widget" }).click();
    await expect(page.getByTestId("widget-form").getByText("A whole number from 1 to 100.")).toBeVisible();
    await expect(page.getByTestId("widget-form").getByLabel("Title")).toHaveValue("Alarms on the rig");
    await page.getByTestId("widget-form").getByLabel("Rows shown").fill("20");
    await page.getByTestId("widget-form").getByRole("button", { name: "Save widget" }).click();
    await expect(page.getByText("Widget saved")).toBeVisible();
    await expect(page.getByTestId("widget-list")).toContainText("Alarms on the rig · Alarm list");

    const stored = (await dashboardByName(name))!;
    const { Dashboard } = await rpc<{ Dashboard: { Content: { Widgets: { Type: string; Variables: string[]; Options: object }[] } } }>("WebUIAPI.GetDashboard", { ID: stored.ID });
    expect(Dashboard.Content.Widgets).toEqual([expect.objectContaining({ Type: "alarms", Variables: [await variableId("Oil temperature")], Options: { OnlyUnacknowledged: false, MinSeverity: "critical", MaxRows: 20 } })]);

    await page.goto(`/${stored.ID}?refresh=5s`);
    const widget = alarmWidget(page);
    await expect(widget.getByRole("heading", { name: "Alarms on the rig" })).toBeVisible();
    const row = widget.locator(`tr[data-alarm="${rule.name}"]`);
    await expect(row).toHaveAttribute("data-state", "ActiveUnacknowledged");
    await expect(row.locator("[data-severity]")).toHaveText("Critical");
    await expect(row.getByTestId("widget-alarm-state")).toHaveText("Active, unacknowledged");
    await expect(row).toContainText("Oil temperature");
    await expect(row).toContainText("°C");
    await expect(widget.getByRole("link", { name: "Open Alarming" })).toHaveAttribute("href", "/alarming");

    // Acknowledged on the Alarming screen (another tab): the open dashboard shows it by itself.
    const alarming = await context.newPage();
    await alarming.goto("/alarming");
    await alarming.getByTestId("alarms-table").locator(`tr[data-alarm="${rule.name}"]`).getByRole("button", { name: `Acknowledge ${rule.name}` }).click();
    await expect(alarming.getByTestId("alarms-table").locator(`tr[data-alarm="${rule.name}"]`)).toHaveAttribute("data-state", "ActiveAcknowledged");
    await alarming.close();
    await expect(row).toHaveAttribute("data-state", "ActiveAcknowledged", { timeout: 15_000 });
    await expect(row.getByTestId("widget-alarm-state")).toHaveText("Active, acknowledged");

    // A wall display: no link away from the dashboard.
    await page.goto(`/${stored.ID}?kiosk`);
    await expect(alarmWidget(page).locator(`tr[data-alarm="${rule.name}"]`)).toBeVisible();
    await expect(alarmWidget(page).getByRole("link")).toHaveCount(0);

    // Removing the rule empties the list.
    await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
    await page.goto(`/${stored.ID}`);
    await expect(alarmWidget(page).getByTestId("widget-empty")).toHaveText("No active alarms");
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: rule.id }).catch(() => undefined);
    const d = await dashboardByName(name);
    if (d) await rpc("WebUIAPI.RemoveDashboard", { ID: d.ID });
  }
});

test("a viewer without UseRulesNotifications sees that alarms are not permitted", async ({ page }) => {
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: unique("Viewer alarms "),
      Content: { Widgets: [{ ID: "al", Type: "alarms", X: 0, Y: 0, W: 6, H: 4 }, { ID: "note", Type: "text", X: 6, Y: 0, W: 6, H: 2, Options: { Text: "Shift notes" } }] },
    },
  });
  try {
    const viewer = await createUser("Viewer");
    await signInDirect(page, viewer.username, viewer.password);
    await page.goto(`/${ID}`);
    const widget = alarmWidget(page);
    await expect(widget.getByRole("heading", { name: "Alarm list" })).toBeVisible();
    await expect(widget.getByTestId("widget-forbidden")).toHaveText("Not permitted: you may not see alarms.");
    await expect(widget.getByRole("link")).toHaveCount(0);
    // The rest of the dashboard is unaffected.
    await expect(page.locator('[data-widget="note"]')).toContainText("Shift notes");
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});

test("a kiosk whose dashboard refresh is off still follows the alarms (fallback refresh, 60 s)", async ({ page }) => {
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: unique("Kiosk alarms "),
      Content: { Refresh: "off", Widgets: [{ ID: "al", Type: "alarms", X: 0, Y: 0, W: 12, H: 6, Variables: [await variableId("Oil temperature")], Options: { MaxRows: 100 } }] },
    },
  });
  let rule: { id: number; name: string } | null = null;
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    if (test.info().project.name === "nojs") {
      // Without JavaScript the page reloads itself at the fallback interval.
      const html = await (await page.request.get(`/${ID}?kiosk`)).text();
      expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="60"\/?><\/noscript>/);
      return;
    }
    test.setTimeout(120_000);
    await page.goto(`/${ID}?kiosk`);
    await expect(alarmWidget(page)).toBeVisible();
    rule = await firingRule();
    // No reload by the test: the page's own fallback poll brings the new alarm.
    await expect(alarmWidget(page).locator(`tr[data-alarm="${rule.name}"]`)).toHaveAttribute("data-state", "ActiveUnacknowledged", { timeout: 75_000 });
  } finally {
    if (rule) await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});
