import { ADMIN_PASSWORD, createUser, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// Issue 28 §6: every save of a dashboard keeps a version; the Dashboard Manager lists them with
// author and time, shows what a version changed, and restores one after a confirmation — with
// and without JavaScript. And a chart panel links to Analytics with its variables and range.

test("the Dashboard Manager lists versions, shows what changed and restores one", async ({ page }) => {
  const name = unique("History ");
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: { Name: name, Content: { Widgets: [{ ID: "t", Type: "text", Title: "Shift notes", X: 0, Y: 0, W: 6, H: 2, Options: { Text: "Hello" } }] } },
  });
  const operator = await createUser("Operator");
  try {
    await signInDirect(page, operator.username, operator.password);
    await page.goto(`/dashboardManager?edit=${ID}`);
    // Version 2 by the operator: settings changed.
    const settings = page.getByTestId("settings-form");
    await settings.getByLabel("Name").fill(`${name} renamed`);
    await settings.getByLabel("Columns").fill("10");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-success")).toBeVisible();
    // Version 3: the text widget removed.
    await page.getByTestId("widget-list").getByRole("button", { name: "Remove: Shift notes" }).click();
    await expect(page.getByTestId("toast-success")).toBeVisible();

    await page.getByTestId("history-link").click();
    const table = page.getByTestId("versions-table");
    await expect(table.locator("tr[data-version]")).toHaveCount(3);
    await expect(table.locator('tr[data-version="3"]')).toContainText(operator.username);
    await expect(table.locator('tr[data-version="3"]')).toContainText("current");
    await expect(table.locator('tr[data-version="1"]')).toContainText("admin");
    await expect(table.locator('tr[data-version="1"]')).toContainText(name);
    // Times as the date fields write them (issue 28 §7).
    await expect(table.locator('tr[data-version="1"] td').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);

    await table.getByRole("link", { name: "Changes in version 2" }).click();
    const diff = page.getByTestId("version-diff");
    await expect(diff.getByRole("heading")).toHaveText("Changes in version 2 since version 1");
    await expect(diff.locator("[data-change=setting]")).toHaveText([`Name: ${name} → ${name} renamed`, "Columns: 12 → 10"]);
    await table.getByRole("link", { name: "Changes in version 3" }).click();
    await expect(diff.locator("[data-change=removed]")).toHaveText("Removed Shift notes (Text)");

    // Restoring version 1: the confirmation says what it changes; confirmed, it becomes version 4.
    await table.getByRole("link", { name: "Restore version 1" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Restore version 1" });
    await expect(confirm.locator("[data-change=added]")).toHaveText("Added Shift notes (Text)");
    await expect(confirm.locator("[data-change=setting]")).toHaveText([`Name: ${name} renamed → ${name}`, "Columns: 10 → 12"]);
    await confirm.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Version 1 restored");
    await expect(table.locator("tr[data-version]")).toHaveCount(4);
    const { Dashboard } = await rpc<{ Dashboard: { Name: string; Version: number; Author: string; Content: { Columns: number; Widgets: { ID: string }[] } } }>("WebUIAPI.GetDashboard", { ID });
    expect(Dashboard).toMatchObject({ Name: name, Version: 4, Author: operator.username, Content: { Columns: 12, Widgets: [{ ID: "t" }] } });
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});

test("a chart panel opens Analytics with its variables and the dashboard's range", async ({ page }) => {
  const v = await variableIds();
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: { Name: unique("Panel "), Content: { Refresh: "off", Range: "6h", Widgets: [{ ID: "c", Type: "chart", Title: "Oils", X: 0, Y: 0, W: 12, H: 3, Variables: [v["Oil temperature"], v["Oil pressure"]] }] } },
  });
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/dashboard?id=${ID}`);
    await page.getByRole("link", { name: "Analyse Oils in Analytics" }).click();
    await expect(page).toHaveURL(/\/analytics\?/);
    const form = page.getByTestId("analytics-form");
    await expect(form.getByLabel("Oil temperature [°C]")).toBeChecked();
    await expect(form.getByLabel("Oil pressure [bar]")).toBeChecked();
    // The dashboard's relative range stays relative: the 6 h quick range is the one in force.
    await expect(page.getByTestId("quick-ranges").getByRole("link", { name: "6 h" })).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("statistics").locator('tr[data-variable="Oil temperature"]')).toBeVisible();
    // A fixed (zoomed) range goes as fixed times.
    const to = Date.now() - 60_000;
    await page.goto(`/dashboard?id=${ID}&from=${to - 600_000}&to=${to}`);
    await page.getByRole("link", { name: "Analyse Oils in Analytics" }).click();
    await expect(page).toHaveURL(new RegExp(`span=absolute&from=${to - 600_000}&to=${to}`));
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});
