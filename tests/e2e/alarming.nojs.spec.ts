import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createUser, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Runs with JavaScript on (project js) and off (project nojs): acknowledging and shelving are
// plain form posts; with JavaScript the page also refreshes itself.

async function variableId(name: string): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Data.find((v) => v.Name === name)!.Id;
}

/** A rule on the simulated oil temperature that is always violated: it fires on the next samples. */
async function firingRule(severity = "critical"): Promise<{ id: number; name: string }> {
  const name = unique("Oil check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: await variableId("Oil temperature"), Type: "high", High: -1000, Severity: severity } });
  return { id: ID, name };
}

const alarmRow = (page: Page, name: string) => page.getByTestId("alarms-table").locator(`tr[data-alarm="${name}"]`);

test("a rule fires on simulated data, shows on Alarming and in the header, is acknowledged with a comment and shelved", async ({ page }) => {
  const rule = await firingRule();
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await expect.poll(async () => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === rule.id)?.State).toBe("ActiveUnacknowledged");
    await page.goto("/versionInfo");
    const count = page.getByTestId("alarm-count");
    await expect(count).toBeVisible();
    expect(Number(await count.getAttribute("data-count"))).toBeGreaterThanOrEqual(1);
    await count.click();
    await expect(page).toHaveURL(/\/alarming$/);

    const row = alarmRow(page, rule.name);
    await expect(row).toHaveAttribute("data-state", "ActiveUnacknowledged");
    await expect(row.getByTestId("alarm-state")).toHaveText("Active, unacknowledged");
    await expect(row.locator("[data-severity]")).toHaveText("Critical");
    await expect(row).toContainText("°C");

    // The list has no check boxes: choosing several and a comment is a form of its own, which
    // never reloads itself (the list does, without JavaScript).
    await expect(page.getByLabel(`Select ${rule.name}`)).toHaveCount(0);
    await page.getByRole("link", { name: "Acknowledge several, with a comment…" }).click();
    await expect(page).toHaveURL(/[?&]ack=select/);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    // Acknowledging nothing is refused with a message.
    await page.getByRole("button", { name: "Acknowledge selected" }).click();
    await expect(page.getByText("Select at least one alarm to acknowledge.")).toBeVisible();

    await page.getByLabel(`Select ${rule.name}`).check();
    await page.getByLabel("Comment").fill("Checked the cooler, e2e");
    await page.getByRole("button", { name: "Acknowledge selected" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("1 alarm acknowledged");
    // Back at the list.
    await expect(page).not.toHaveURL(/ack=select/);
    await expect(alarmRow(page, rule.name)).toHaveAttribute("data-state", "ActiveAcknowledged");
    await expect(alarmRow(page, rule.name)).toContainText("Checked the cooler, e2e");

    await alarmRow(page, rule.name).getByRole("link", { name: `Shelve ${rule.name}` }).click();
    const panel = page.getByRole("region", { name: `Shelve ${rule.name}` });
    await panel.getByRole("button", { name: "Shelve" }).click();
    await expect(panel.getByText("Give a reason for shelving.")).toBeVisible();
    await panel.getByLabel("Duration").selectOption("900");
    await panel.getByLabel("Reason").fill("Sensor swap");
    await panel.getByRole("button", { name: "Shelve" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Alarm shelved");
    await expect(alarmRow(page, rule.name)).toHaveAttribute("data-state", "Shelved");
    await expect(alarmRow(page, rule.name)).toContainText("Sensor swap");

    const history = page.getByTestId("history-table");
    await expect(history.locator(`tr[data-rule="${rule.name}"][data-event="Acknowledged"]`)).toContainText("Checked the cooler, e2e");
    await expect(history.locator(`tr[data-rule="${rule.name}"][data-event="Shelved"]`)).toContainText("Sensor swap");

    await alarmRow(page, rule.name).getByRole("button", { name: `Unshelve ${rule.name}` }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Alarm unshelved");
    await expect(alarmRow(page, rule.name)).toHaveAttribute("data-state", "ActiveUnacknowledged");
    // One row button acknowledges that alarm alone.
    await alarmRow(page, rule.name).getByRole("button", { name: `Acknowledge ${rule.name}` }).click();
    await expect(alarmRow(page, rule.name)).toHaveAttribute("data-state", "ActiveAcknowledged");

    // The transitions are messages from Alarming, topic = rule name.
    const { Messages } = await rpc<{ Messages: { Type: string; Args: string[] }[] }>("GI.system/MessagingAPI.GetMessages", { Filter: { Sender: "Alarming", Topic: rule.name } });
    expect(Messages.at(-1)).toMatchObject({ Type: "Error", Args: ["Activated", "ActiveUnacknowledged"] });
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
  }
});

test("filters alarms by severity and state", async ({ page }) => {
  const low = await firingRule("low");
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await expect.poll(async () => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === low.id)?.State).toBe("ActiveUnacknowledged");
    await page.goto("/alarming");
    await page.getByLabel("Severity").selectOption("critical");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/severity=critical/);
    await expect(alarmRow(page, low.name)).toHaveCount(0);
    await page.getByLabel("Severity").selectOption("low");
    await page.getByLabel("State", { exact: true }).selectOption("ActiveUnacknowledged");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(alarmRow(page, low.name)).toHaveCount(1);
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: low.id });
  }
});

test("without UseRulesNotifications there is no alarm count and Alarming is forbidden", async ({ page }) => {
  const viewer = await createUser("Viewer");
  await signInDirect(page, viewer.username, viewer.password);
  await page.goto("/versionInfo");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("alarm-count")).toHaveCount(0);
  const res = await page.goto("/alarming");
  expect(res?.status()).toBe(403);
  const operator = await createUser("Operator");
  await page.context().clearCookies();
  await signInDirect(page, operator.username, operator.password);
  await page.goto("/versionInfo");
  await expect(page.getByTestId("alarm-count")).toBeVisible();
});
