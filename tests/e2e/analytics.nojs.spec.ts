import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

test.beforeEach(async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
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

test("compare two ranges: the previous period overlaid dashed, offset time axis, statistics for both", async ({ page, javaScriptEnabled }) => {
  // Data before B's measurement, so its previous period has samples too.
  await recordMeasurement("Before ", 1500);
  const m = await recordMeasurement("Range ", 1500);
  const ids = await variableIds();
  await page.goto("/analytics");
  const form = page.getByTestId("analytics-form");
  await form.getByLabel("Oil temperature [°C]").check();
  await form.getByRole("radio", { name: "Measurement" }).check();
  await form.getByRole("combobox", { name: "Measurement", exact: true }).selectOption({ label: m.Name });
  await form.getByRole("combobox", { name: "Compare with" }).selectOption({ label: "The previous period" });
  await form.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/cmp=previous/);
  expect(new URL(page.url()).searchParams.getAll("v")).toEqual([ids["Oil temperature"]]);
  // The legend names both, B dashed; statistics for A and for B.
  await expect(page.getByText("Oil temperature · previous period [°C]")).toBeVisible();
  await expect(page.locator('[data-dashed="true"]').first()).toBeAttached();
  const stats = page.getByTestId("statistics");
  await expect(stats.locator('tr[data-variable="Oil temperature"]')).toBeVisible();
  await expect(stats.locator('tr[data-variable="Oil temperature · previous period"]')).toBeVisible();
  await expect(page.getByTestId("range-b")).toContainText("B (previous period)");
  // The choice stays in the form.
  await expect(form.getByRole("combobox", { name: "Compare with" })).toHaveValue("previous");
  if (!javaScriptEnabled) {
    // The server's SVG: offsets from A's start on the time axis ("+0:00", "+0:01"), B's path dashed.
    const svg = page.getByTestId("svg-chart");
    // (one set of labels per width tier; the one that fits is shown)
    await expect(svg.getByText("+0:00", { exact: true }).first()).toBeAttached();
    await expect(svg.locator('path[stroke-dasharray="6 4"]')).toHaveCount(1);
  } else {
    await expect(page.getByTestId("chart")).toHaveAttribute("data-ready", "true");
    // uPlot draws its x axis labels into the canvas; the legend shows B as a dashed swatch.
    await expect(page.getByRole("button", { name: "Oil temperature · previous period [°C]" })).toBeVisible();
  }
});

test("compare with a chosen start for B: same length, kept in the URL; a missing start is explained", async ({ page }) => {
  const a = await recordMeasurement("At A ", 1500);
  const b = await recordMeasurement("At B ", 1500);
  const ids = await variableIds();
  // B from the second measurement's start, A the first measurement: the same as comparing measurements.
  await page.goto(`/analytics?v=${ids["Oil pressure"]}&span=measurement&m=${a.ID}&cmp=at&cmpAt=${b.Start}`);
  const stats = page.getByTestId("statistics");
  const rowA = stats.locator('tr[data-variable="Oil pressure"] [data-stat="Count"]');
  const rowB = stats.locator('tr[data-variable^="Oil pressure · from "] [data-stat="Count"]');
  await expect(rowB).toBeVisible();
  const countA = Number((await rowA.textContent())!.replace(/\D/g, ""));
  const countB = Number((await rowB.textContent())!.replace(/\D/g, ""));
  // Same length at the same rate: about as many samples (one bucket either way).
  expect(countB).toBeGreaterThan(countA * 0.8);
  expect(countB).toBeLessThan(countA * 1.25);
  await page.goto(`/analytics?v=${ids["Oil pressure"]}&span=measurement&m=${a.ID}&cmp=at&cmpAt=`);
  await expect(page.getByTestId("compare-fields").getByTestId("field-error")).toHaveText("Enter the start of B.");
  // A is still shown.
  await expect(page.getByTestId("statistics").locator('tr[data-variable="Oil pressure"]')).toBeVisible();
  await expect(page.getByTestId("analytics-form").getByLabel("Oil pressure [bar]")).toBeChecked();
  await expect(page.getByTestId("analytics-form").getByRole("combobox", { name: "Compare with" })).toHaveValue("at");
});

test("bad requests: no variables, a range before the oldest data kept — explained, choices kept", async ({ page }) => {
  const ids = await variableIds();
  await page.goto("/analytics");
  const form = page.getByTestId("analytics-form");
  // A relative range is picked by the quick ranges only (issue 28 §7): the form names it.
  await expect(form.getByRole("combobox", { name: "Last" })).toHaveCount(0);
  await page.getByTestId("quick-ranges").getByRole("link", { name: "15 min" }).click();
  await form.getByRole("radio", { name: "Quick range: 15 min" }).check();
  await form.getByRole("button", { name: "Show" }).click();
  await expect(form.getByTestId("variable-picker").getByTestId("field-error")).toHaveText("Choose at least one variable.");
  await expect(form.getByRole("radio", { name: "Quick range: 15 min" })).toBeChecked();
  await page.goto(`/analytics?v=${ids["Oil temperature"]}&span=absolute&from=2020-01-01T10:00&to=2020-01-01T11:00`);
  await expect(form.getByTestId("range-fields").getByTestId("field-error")).toContainText("The range ends before the oldest data kept");
  await expect(page.getByTestId("statistics")).toHaveCount(0);
  await expect(form.getByLabel("Oil temperature [°C]")).toBeChecked();
  await expect(form.getByRole("textbox", { name: "From" }).or(form.getByLabel("From", { exact: true }))).toHaveValue("01/01/2020 10:00");
});
