import { ADMIN_PASSWORD, expect, signIn, test } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

test.beforeEach(async ({ page }) => {
  await signIn(page, "admin", ADMIN_PASSWORD);
});

test("analyse two variables over a measurement: charts and exact statistics, state in the URL", async ({ page }) => {
  const m = await recordMeasurement("Run ");
  const ids = await variableIds();
  await page.goto("/analytics");
  const form = page.getByTestId("analytics-form");
  await form.getByLabel("Oil temperature [°C]").check();
  await form.getByLabel("Oil pressure [bar]").check();
  await form.getByRole("radio", { name: "Measurement" }).check();
  await form.getByRole("combobox", { name: "Measurement", exact: true }).selectOption({ label: m.Name });
  await form.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`m=${m.ID}`));
  expect(new URL(page.url()).searchParams.getAll("v").sort()).toEqual([ids["Oil temperature"], ids["Oil pressure"]].sort());
  // Two units: one chart, one axis each.
  await expect(page.getByTestId("chart")).toHaveCount(1);
  const stats = page.getByTestId("statistics");
  const oil = stats.locator('tr[data-variable="Oil temperature"]');
  await expect(oil).toBeVisible();
  // 100 Hz over ~1.5 s: the count is the samples recorded, as the logger counted them.
  const count = Number((await oil.locator('[data-stat="Count"]').textContent())!.replace(/\D/g, ""));
  expect(count).toBeGreaterThan(100);
  expect(count).toBeLessThan(400);
  await expect(stats.locator('tr[data-variable="Oil pressure"] [data-stat="StdDev"]')).not.toHaveText("—");
  // Reloading the same URL gives the same view (bookmarkable).
  await page.reload();
  await expect(page.getByTestId("statistics").locator('tr[data-variable="Oil temperature"] [data-stat="Count"]')).toHaveText(String(count));
});

test("compare two measurements aligned at their start", async ({ page }) => {
  const a = await recordMeasurement("Cmp A ");
  const b = await recordMeasurement("Cmp B ");
  const ids = await variableIds();
  await page.goto(`/analytics?v=${ids["Oil temperature"]}&span=measurement&m=${a.ID}&cmp=${b.ID}`);
  await expect(page.getByTestId("chart")).toHaveCount(1);
  await expect(page.getByTestId("statistics").locator(`tr[data-variable="Oil temperature · ${b.Name}"]`)).toBeVisible();
  await expect(page.getByText(`Oil temperature · ${b.Name} [°C]`)).toBeVisible();
});

test("a range whose end is before its start is explained, choices kept", async ({ page }) => {
  const ids = await variableIds();
  await page.goto(`/analytics?v=${ids["Oil temperature"]}&span=absolute&from=2026-01-02T10:00&to=2026-01-01T10:00`);
  await expect(page.getByText("The end must be after the start.")).toBeVisible();
  await expect(page.getByTestId("analytics-form").getByLabel("Oil temperature [°C]")).toBeChecked();
});
