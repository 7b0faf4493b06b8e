import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createDashboardInManager, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Dashboard Manager flows as plain forms: the same test runs with and without JavaScript.

async function variableIds(): Promise<Record<string, string>> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Object.fromEntries(Data.map((v) => [v.Name, v.Id]));
}

async function dashboardByName(name: string) {
  const { List } = await rpc<{ List: { ID: string; Name: string; IsDefault: boolean }[] }>("WebUIAPI.List", {});
  return List.find((d) => d.Name === name);
}


async function addWidget(page: Page, type: string, fill: (page: Page) => Promise<void>) {
  const editor = page.getByTestId("dashboard-editor");
  await editor.getByLabel("Widget type").selectOption({ label: type });
  await editor.getByRole("button", { name: "Add widget" }).click();
  const form = page.getByTestId("widget-form");
  await fill(page);
  await form.getByRole("button", { name: "Save widget" }).click();
  await expect(page.getByText("Widget saved")).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
});

test("create a dashboard, add and edit widgets through forms, see it with server charts, delete it", async ({ page }) => {
  const name = unique("Forms ");
  await createDashboardInManager(page, name);
  await addWidget(page, "Single value", async (p) => {
    await p.getByTestId("widget-form").getByLabel("Variable", { exact: true }).selectOption({ label: "Oil pressure [bar]" });
    await p.getByTestId("widget-form").getByLabel("Threshold 1: from value").fill("0");
    await p.getByTestId("widget-form").getByLabel("Threshold 1: colour").selectOption("green");
  });
  await addWidget(page, "Chart", async (p) => {
    const form = p.getByTestId("widget-form");
    await form.getByLabel("Title").fill("Temps");
    await form.getByLabel("Oil temperature").check();
    await form.getByLabel("Coolant inlet temperature").check();
    await form.getByLabel("Column (X, from 0)").fill("3");
  });
  // A validation error keeps what was typed.
  const widgets = page.getByTestId("widget-list");
  await widgets.getByRole("link", { name: "Edit: Temps" }).click();
  const form = page.getByTestId("widget-form");
  await form.getByLabel("Title").fill("Temperatures");
  await form.getByLabel("Width (columns)").fill("12");
  await form.getByRole("button", { name: "Save widget" }).click();
  await expect(form.getByText("The widget reaches past the last column (12).")).toBeVisible();
  await expect(form.getByLabel("Title")).toHaveValue("Temperatures");
  await form.getByLabel("Width (columns)").fill("9");
  await form.getByRole("button", { name: "Save widget" }).click();
  await expect(page.getByText("Widget saved")).toBeVisible();
  await expect(widgets.getByText("Temperatures")).toBeVisible();

  await page.getByRole("link", { name: "Open" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const chart = page.locator('[data-testid="widget"][data-type="chart"]');
  await expect(chart.getByRole("heading", { name: "Temperatures" })).toBeVisible();
  if (test.info().project.name === "nojs") {
    await expect(chart.getByTestId("svg-chart")).toBeVisible();
    expect(await chart.locator("svg path").count()).toBeGreaterThan(2);
  } else {
    await expect(chart.getByTestId("uplot-chart").locator("canvas")).toBeVisible();
  }
  await expect(chart.getByText("Oil temperature [°C]")).toBeVisible();
  await expect(page.locator('[data-type="value"]').getByTestId("widget-value")).toContainText("bar");

  await page.goto("/dashboardManager");
  const row = page.locator(`tr[data-dashboard="${name}"]`);
  await row.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete dashboard" }).click();
  await expect(page.getByText("Dashboard deleted")).toBeVisible();
  await expect(page.locator(`tr[data-dashboard="${name}"]`)).toHaveCount(0);
  expect(await dashboardByName(name)).toBeUndefined();
});

test("set default, rename with a concurrent edit detected, duplicate, import and export", async ({ page }) => {
  const before = (await rpc<{ List: { ID: string; IsDefault: boolean }[] }>("WebUIAPI.List", {})).List.find((d) => d.IsDefault);
  const name = unique("Default ");
  await createDashboardInManager(page, name);
  try {
    await page.goto("/dashboardManager");
    await page.locator(`tr[data-dashboard="${name}"]`).getByRole("button", { name: `Make default: ${name}` }).click();
    await expect(page.getByText(`${name} is now the default dashboard`)).toBeVisible();
    await expect(page.locator(`tr[data-dashboard="${name}"]`).getByText("Default", { exact: true })).toBeVisible();
    await page.goto("/defaultDashboard");
    await expect(page.getByRole("heading", { name })).toBeVisible();

    // Someone else saves while the settings form is open: nothing is overwritten, the input stays.
    const stored = (await dashboardByName(name))!;
    await page.goto(`/dashboardManager?edit=${stored.ID}`);
    const settings = page.getByTestId("settings-form");
    await settings.getByLabel("Name").fill(`${name} renamed`);
    await rpc("WebUIAPI.SaveDashboard", { Dashboard: { ID: stored.ID, Name: `${name} by someone`, Content: {} } });
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText(/Someone else changed this dashboard/)).toBeVisible();
    await expect(page.getByTestId("settings-form").getByLabel("Name")).toHaveValue(`${name} renamed`);
    await page.getByTestId("settings-form").getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Successfully saved changes")).toBeVisible();
    expect(await dashboardByName(`${name} renamed`)).toBeDefined();

    await page.goto("/dashboardManager");
    await page.locator(`tr[data-dashboard="${name} renamed"]`).getByRole("button", { name: /Duplicate/ }).click();
    await expect(page.getByText("Dashboard duplicated")).toBeVisible();
    await expect(page.locator(`tr[data-dashboard="${name} renamed (copy)"]`)).toBeVisible();

    // Export shows the file; a bad import changes nothing; the exported JSON imports.
    await page.locator(`tr[data-dashboard="${name} renamed"]`).getByRole("link", { name: /Export/ }).click();
    const json = await page.getByTestId("export-panel").locator("textarea").inputValue();
    expect(JSON.parse(json)).toMatchObject({ Format: "loggia-dashboard", Name: `${name} renamed` });
    const count = (await rpc<{ List: unknown[] }>("WebUIAPI.List", {})).List.length;
    const importForm = page.getByTestId("import-form");
    await importForm.getByLabel("…or paste its JSON").fill('{"Format":"loggia-dashboard","FormatVersion":1,"Name":"x","Content":{"Widgets":[{"ID":"a","Type":"pie","X":0,"Y":0,"W":1,"H":1}]}}');
    await importForm.getByRole("button", { name: "Import" }).click();
    await expect(page.getByText(/This is not a Loggia dashboard file: Content\.Widgets\.0\.Type/)).toBeVisible();
    expect((await rpc<{ List: unknown[] }>("WebUIAPI.List", {})).List.length).toBe(count);
    await page.getByTestId("import-form").getByLabel("JSON file").setInputFiles({ name: "d.json", mimeType: "application/json", buffer: Buffer.from(json.replace(`${name} renamed`, `${name} imported`)) });
    await page.getByTestId("import-form").getByRole("button", { name: "Import" }).click();
    await expect(page.getByText(`Dashboard ${name} imported imported`)).toBeVisible();
  } finally {
    if (before) await rpc("WebUIAPI.SetDefaultDashboard", { ID: before.ID });
    for (const suffix of [" renamed", " renamed (copy)", " imported"]) {
      const d = await dashboardByName(`${name}${suffix}`);
      if (d) await rpc("WebUIAPI.RemoveDashboard", { ID: d.ID });
    }
  }
});

test("a widget whose variable was deleted, or whose data fails, shows its own error", async ({ page }) => {
  const ids = await variableIds();
  const name = unique("Broken ");
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: name,
      Content: {
        Widgets: [
          { ID: "gone", Type: "value", X: 0, Y: 0, W: 3, H: 2, Variables: ["00000000-0000-5000-8000-000000000000"] },
          { ID: "fine", Type: "value", X: 3, Y: 0, W: 3, H: 2, Variables: [ids["Oil pressure"]] },
          { ID: "note", Type: "text", X: 6, Y: 0, W: 6, H: 2, Options: { Text: "<b>not bold</b> **bold**" } },
        ],
      },
    },
  });
  try {
    await page.goto(`/${ID}`);
    await expect(page.locator('[data-widget="gone"]').getByRole("alert")).toHaveText("The variable of this widget no longer exists.");
    await expect(page.locator('[data-widget="fine"]').getByTestId("widget-value")).toContainText("bar");
    await expect(page.locator('[data-widget="note"]')).toContainText("<b>not bold</b>");
    await expect(page.locator('[data-widget="note"] strong')).toHaveText("bold");
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});
