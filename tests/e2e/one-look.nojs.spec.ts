import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

test.use({ viewport: { width: 1920, height: 1000 } });

// Issue 28 §7, one look: one content width, one file input, one variable picker, the toasts clear
// of the header's controls, one word per device state, dates shown as the date fields take them.

test("every screen is as wide as the window up to the xl breakpoint (1920 px); dashboards and the Map fill a wider one", async ({ page }) => {
  await page.setViewportSize({ width: 2560, height: 1000 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const widths: Record<string, number> = {};
  // Forms (User Settings, Global Settings, About, Simple Config) were 768 or 1152 px wide, lists 1920.
  for (const path of ["/settings", "/globalSettings", "/versionInfo", "/userManagement", "/analytics", "/alarming", "/config", "/monitor"]) {
    await page.goto(path);
    widths[path] = Math.round((await page.locator("main > *").first().boundingBox())!.width);
  }
  expect(new Set(Object.values(widths)), JSON.stringify(widths)).toEqual(new Set([1920]));
  for (const path of ["/dashboard", "/cockpit"]) {
    await page.goto(path);
    expect((await page.locator("main > *").first().boundingBox())!.width, path).toBeGreaterThan(1920);
  }
});

test("the Logo upload is the console's one file input; Monitor and the rule form use the one variable picker", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/fileBrowser");
  const upload = await page.locator('input[type="file"]').first().getAttribute("class");
  await page.goto("/globalSettings");
  expect(await page.getByLabel("Logo", { exact: true }).getAttribute("class")).toBe(upload);
  await page.goto("/monitor");
  await expect(page.getByTestId("variable-picker")).toHaveCount(1);
  await page.goto("/rulesNotifications?addRule");
  await expect(page.getByTestId("rule-form").getByTestId("variable-picker").getByRole("radio").first()).toBeAttached();
});

test("a device is Online on Project State and the Map alike", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/devices");
  await expect(page.locator('tr[data-device="Test bench controller"] [data-testid=device-state]')).toHaveText("Online");
  await page.goto("/cockpit");
  await expect(page.getByTestId("map-legend")).toContainText("Online");
  await expect(page.getByRole("row").filter({ hasText: "Test bench controller" })).toContainText("Online");
  await expect(page.getByText("Connected", { exact: true })).toHaveCount(0);
});

test("the toast after a save sits below the header, clear of its controls", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/settings");
  await page.locator('button[name="save"]').click();
  const toast = page.getByTestId("toast-success");
  await expect(toast).toBeVisible();
  const t = (await toast.boundingBox())!;
  const header = (await page.locator("header").first().boundingBox())!;
  expect(t.y).toBeGreaterThanOrEqual(header.y + header.height);
});

test("dates read alike in the range header and the date fields", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const from = Date.UTC(2026, 10, 27, 22, 50, 0);
  await page.goto(`/analytics?span=absolute&from=${from}&to=${from + 3_600_000}`);
  const field = await page.getByTestId("analytics-form").getByTestId("datetime-from").inputValue();
  expect(field).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  // The header appears once there are charts; the annotations screen shows its range the same way.
  await page.goto(`/annotations?from=${from}&to=${from + 3_600_000}`);
  const shown = await page.getByTestId("annotations-range").getByTestId("datetime-from").inputValue();
  expect(shown).toBe(field);
  await page.goto(`/dashboard?from=${from}&to=${from + 3_600_000}`);
  await expect(page.getByTestId("dashboard-range")).toHaveText(new RegExp(`^${field.replace(/\//g, "\\/")}:00 – `));
});
