import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

// Rules and notification targets as validated forms, with JavaScript on and off.

test("adds a rule and a webhook target through the forms and sends a test notification", async ({ page }) => {
  const received: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push(body);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const ruleName = unique("Bearing hot ");
  const targetName = unique("Ops hook ");
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto("/alarming");
    await page.getByTestId("rules-link").click();
    await expect(page).toHaveURL(/\/rulesNotifications$/);

    await page.getByRole("link", { name: "Add webhook" }).click();
    await page.getByLabel("Name").fill(targetName);
    await page.getByLabel("URL").fill("ftp://example.com");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByText("Enter an http or https URL.")).toBeVisible();
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("Signing secret").fill("e2e-secret");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Target added");

    const target = page.getByTestId("targets-table").locator(`tr[data-target="${targetName}"]`);
    await target.getByRole("button", { name: `Send test notification ${targetName}` }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Test notification delivered");
    expect(JSON.parse(received[0]!)).toMatchObject({ Event: "test" });
    await expect(page.getByTestId("deliveries-table").locator("tr").filter({ hasText: targetName }).first()).toContainText("Delivered");

    await page.getByRole("link", { name: "Add rule" }).click();
    await page.getByLabel("Name").fill(ruleName);
    // The shared variable picker (issue 28 §7): one variable, a radio button.
    await page.getByTestId("variable-picker").getByRole("radio", { name: "Bearing temperature 1 [°C]" }).check();
    await page.getByLabel("Type").selectOption("range");
    await page.getByLabel("High limit").fill("80");
    await page.getByRole("button", { name: "Add rule" }).last().click();
    await expect(page.getByText("Required for this type.")).toBeVisible();
    await page.getByLabel("Low limit").fill("90");
    await page.getByRole("button", { name: "Add rule" }).last().click();
    await expect(page.getByText("Must be above the low limit.")).toBeVisible();
    await page.getByLabel("Low limit").fill("-20");
    await page.getByLabel("Deadband").fill("1.5");
    await page.getByLabel("On-delay (s)").fill("2");
    await page.getByRole("checkbox", { name: targetName }).check();
    await page.getByRole("button", { name: "Add rule" }).last().click();
    await expect(page.getByTestId("toast-success")).toHaveText("Rule added");
    const row = page.getByTestId("rules-table").locator(`tr[data-rule="${ruleName}"]`);
    await expect(row).toContainText("Range: ∉ [-20, 80] ± 1.5");
    await expect(row).toContainText(targetName);

    await row.getByRole("link", { name: `Edit ${ruleName}` }).click();
    await page.getByLabel("Severity").selectOption("high");
    await page.getByLabel("In service").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Rule saved");
    await expect(row).toContainText("High");

    // A target in use cannot go: the logger's refusal is shown.
    await page.getByTestId("targets-table").locator(`tr[data-target="${targetName}"]`).getByRole("link", { name: "Remove" }).click();
    await page.getByTestId("confirm-form").getByRole("button", { name: "Remove" }).click();
    await expect(page.getByText(`Target ${targetName} is still used by: ${ruleName}`)).toBeVisible();
    // With JavaScript the refused dialog stays open until dismissed.
    await page.keyboard.press("Escape");

    await row.getByRole("link", { name: "Remove" }).click();
    await page.getByTestId("confirm-form").getByRole("button", { name: "Remove" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Rule removed");
    await expect(page.getByTestId("rules-table").locator(`tr[data-rule="${ruleName}"]`)).toHaveCount(0);
  } finally {
    const { Rules } = await rpc<{ Rules: { ID: number; Name: string }[] }>("AlarmAPI.GetRules", {});
    for (const r of Rules.filter((x) => x.Name === ruleName)) await rpc("AlarmAPI.RemoveRule", { ID: r.ID });
    const { Targets } = await rpc<{ Targets: { ID: number; Name: string }[] }>("NotificationAPI.GetTargets", {});
    for (const x of Targets.filter((t) => t.Name === targetName)) await rpc("NotificationAPI.RemoveTarget", { ID: x.ID });
    server.close();
  }
});

test("the rule form asks for the type first and shows only that type's fields, keeping what was typed", async ({ page }) => {
  const noJs = test.info().project.name === "nojs";
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/rulesNotifications?addRule");
  const form = page.getByTestId("rule-form");
  // The type is the form's first control; without JavaScript a button shows the chosen type's fields.
  await expect(form.locator("select, input:not([type=hidden]), textarea").first()).toHaveAttribute("name", "type");
  const next = form.getByRole("button", { name: "Show its fields" });
  await expect(next).toHaveCount(noJs ? 1 : 0);
  const choose = async (type: string) => {
    await form.getByLabel("Type").selectOption(type);
    if (noJs) await next.click();
    await expect(page.getByTestId("rule-form")).toHaveAttribute("data-rule-type", type);
  };
  const condition = form.getByTestId("rule-condition");
  const labels = async () => (await condition.locator("label").allTextContents()).map((l) => l.trim());

  // A new rule starts as a high limit: its limit and deadband, nothing of the other types.
  expect(await labels()).toEqual(["High limit", "Deadband"]);
  await expect(form.getByLabel("Low limit")).toHaveCount(0);
  await expect(form.getByLabel("Stale after (s)")).toHaveCount(0);

  await form.getByLabel("Name").fill("Type first");
  await form.getByTestId("variable-picker").getByRole("radio", { name: "Bearing temperature 1 [°C]" }).check();
  await form.getByLabel("Message").fill("Pump {value}");
  await choose("digital");
  expect(await labels()).toEqual(["Alarm state (digital)"]);
  await expect(form.getByLabel("High limit")).toHaveCount(0);
  await expect(form.getByLabel("Name")).toHaveValue("Type first");
  await expect(form.getByLabel("Message")).toHaveValue("Pump {value}");
  await expect(condition.locator("legend")).toHaveText("Condition: Digital state");

  await choose("range");
  expect(await labels()).toEqual(["Low limit", "High limit", "Deadband"]);
  await choose("rate");
  expect(await labels()).toEqual(["Rate limit per second", "Rate window (s)", "Deadband"]);
  await choose("stale");
  expect(await labels()).toEqual(["Stale after (s)"]);

  // Saving without the type's field: the error is next to it, the rest kept; nothing was added.
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByTestId("rule-condition").getByText("Required for this type.")).toBeVisible();
  await expect(page.getByTestId("rule-form").getByLabel("Name")).toHaveValue("Type first");
  await expect(page.getByTestId("rule-form").getByTestId("variable-picker").getByRole("radio", { name: "Bearing temperature 1 [°C]" })).toBeChecked();
  const { Rules } = await rpc<{ Rules: { Name: string }[] }>("AlarmAPI.GetRules", {});
  expect(Rules.some((r) => r.Name === "Type first")).toBe(false);
});

test("the trace log shows the logger's own entries, filters by level and downloads", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/traceLog?level=debug");
  const table = page.getByTestId("trace-table");
  await expect(table.locator('tr[data-level="debug"]').first()).toBeVisible();
  await page.getByLabel("Minimum level").selectOption("info");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/level=info/);
  await expect(table.locator('tr[data-level="debug"]')).toHaveCount(0);
  await expect(table.locator('tr[data-level="info"], tr[data-level="warn"]').first()).toBeVisible();
  await page.getByTestId("trace-refresh").click();
  await expect(page).toHaveURL(/level=info/);
  const file = await page.request.get("/traceLog/download?level=info");
  expect(file.headers()["content-disposition"]).toMatch(/attachment; filename="trace-/);
  const text = await file.text();
  // One line per entry: time, level, [component], message; nothing below the chosen level.
  expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z (INFO |WARN |ERROR) \[(http|alarms|simulator|logger|notify)\] \S/m);
  expect(text).not.toMatch(/ DEBUG /);
});
