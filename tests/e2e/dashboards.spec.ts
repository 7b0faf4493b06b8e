import { ADMIN_PASSWORD, expect, LOGGER, rpc, signIn, signInDirect, test, token, unique } from "./fixtures";

// With JavaScript: every widget type, live values, chart zoom, default and selection menu.

async function variableIds(): Promise<Record<string, string>> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Object.fromEntries(Data.map((v) => [v.Name, v.Id]));
}

test("a dashboard with every widget type updates live, zooms, and becomes the default", async ({ page }) => {
  const v = await variableIds();
  const name = unique("Every widget ");
  const before = (await rpc<{ List: { ID: string; IsDefault: boolean }[] }>("WebUIAPI.List", {})).List.find((d) => d.IsDefault);
  // Through the form: with JavaScript on PostgreSQL too (pg-js), this is that project's sign-in.
  await signIn(page, "admin", ADMIN_PASSWORD);
  // The chart is added through the form; the other types straight through the logger API.
  await page.goto("/dashboardManager?add");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByLabel("Widget type").selectOption({ label: "Chart" });
  await page.getByRole("button", { name: "Add widget" }).click();
  await page.getByTestId("widget-form").getByLabel("Vibration").check();
  await page.getByTestId("widget-form").getByLabel("Shaft speed").check();
  await page.getByRole("button", { name: "Save widget" }).click();
  await expect(page.getByText("Widget saved")).toBeVisible();
  const { List } = await rpc<{ List: { ID: string; Name: string }[] }>("WebUIAPI.List", {});
  const id = List.find((d) => d.Name === name)!.ID;
  const { Dashboard } = await rpc<{ Dashboard: { Version: number; Content: { Widgets: object[] } } }>("WebUIAPI.GetDashboard", { ID: id });
  await rpc("WebUIAPI.SaveDashboard", {
    Dashboard: {
      ID: id,
      Version: Dashboard.Version,
      Name: name,
      Content: {
        Refresh: "off",
        Widgets: [
          ...Dashboard.Content.Widgets,
          { ID: "value", Type: "value", X: 6, Y: 0, W: 3, H: 2, Variables: [v["Vibration"]], Options: { Sparkline: true } },
          { ID: "gauge", Type: "gauge", X: 9, Y: 0, W: 3, H: 2, Variables: [v["Oil pressure"]], Options: { Min: 0, Max: 6 } },
          { ID: "bar", Type: "bar", X: 6, Y: 2, W: 3, H: 2, Variables: [v["Hydraulic pressure"]] },
          { ID: "lamp", Type: "lamp", X: 9, Y: 2, W: 3, H: 1, Variables: [v["Pump running"]] },
          { ID: "table", Type: "table", X: 0, Y: 4, W: 6, H: 2, Variables: [v["Strain gauge 1"], v["Strain gauge 2"]] },
          { ID: "text", Type: "text", X: 6, Y: 4, W: 6, H: 2, Options: { Text: "# Shift notes\n- check **oil**" } },
          { ID: "alarms", Type: "alarms", X: 0, Y: 6, W: 12, H: 3, Options: { MaxRows: 5 } },
        ],
      },
    },
  });
  try {
    await page.goto(`/${id}`);
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?id=${id}$`));
    for (const type of ["chart", "value", "gauge", "bar", "lamp", "table", "text", "alarms"]) await expect(page.locator(`[data-testid="widget"][data-type="${type}"]`)).toBeVisible();
    await expect(page.locator('[data-type="text"] strong')).toHaveText("oil");
    await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");

    // Vibration changes with every sample: the value moves without a page load.
    const value = page.locator('[data-widget="value"]').getByTestId("widget-value");
    const first = await value.textContent();
    await expect.poll(() => value.textContent(), { timeout: 10_000 }).not.toBe(first);

    // The bar's fill is the value's share of its scale, shown as it comes (not tweened: a tween of
    // its width laid the page out at every frame while live).
    const meter = page.locator('[data-type="bar"] [role="meter"]');
    const fillOff = () =>
      meter.evaluate((m) => {
        const [now, lo, hi] = ["aria-valuenow", "aria-valuemin", "aria-valuemax"].map((a) => Number(m.getAttribute(a)));
        const fill = m.firstElementChild as HTMLElement;
        const share = fill.getBoundingClientRect().width / m.getBoundingClientRect().width;
        return { off: Math.abs(share - Math.min(1, Math.max(0, (now! - lo!) / (hi! - lo!)))), tween: getComputedStyle(fill).transitionDuration };
      });
    await expect.poll(async () => (await fillOff()).off).toBeLessThan(0.01);
    expect((await fillOff()).tween).toBe("0s");

    // Drag across the chart: the range goes into the URL and the logger is asked again.
    await page.getByRole("link", { name: "15 min" }).click();
    await expect(page).toHaveURL(/range=15m/);
    const chart = page.locator('[data-type="chart"] [data-testid="chart"][data-ready]');
    await expect(chart).toBeVisible();
    // The URL changes before the new range's data is drawn: drag only once the chart shows 15 min
    // (a drag over the previous hour's drawing zoomed into 21 minutes of it).
    await expect.poll(async () => Math.abs(Number(await chart.getByTestId("uplot-chart").getAttribute("data-span")) - 900_000)).toBeLessThan(5_000);
    const over = chart.locator(".u-over");
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page).toHaveURL(/from=\d+&to=\d+/);
    const url = new URL(page.url());
    const span = Number(url.searchParams.get("to")) - Number(url.searchParams.get("from"));
    expect(span).toBeGreaterThan(0);
    expect(span).toBeLessThan(900_000 * 0.5);
    await expect(page.locator("[data-testid=range-bar] a[aria-current]")).toHaveCount(0);
    // Double-click resets to the dashboard's preset.
    await page.locator('[data-type="chart"] .u-over').dblclick();
    await expect(page).not.toHaveURL(/from=/);
    await expect(page.locator("[data-testid=range-bar] a[aria-current]")).toHaveText("15 min");

    // Legend toggles hide a series.
    const legend = page.locator('[data-type="chart"]').getByRole("button", { name: "Shaft speed [rpm]" });
    await legend.click();
    await expect(legend).toHaveAttribute("aria-pressed", "false");

    // Make it the default, then reach it through /defaultDashboard and the selection menu.
    await page.goto("/dashboardManager");
    await page.getByRole("button", { name: `Make default: ${name}` }).click();
    await expect(page.getByText(`${name} is now the default dashboard`)).toBeVisible();
    await page.goto("/defaultDashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await page.goto("/versionInfo");
    const menu = page.getByRole("navigation", { name: "Main menu" }).locator("details", { has: page.locator("summary", { hasText: "Dashboard" }) });
    await menu.locator("summary").click();
    const entry = menu.getByRole("link", { name, exact: true });
    await expect(entry.locator("span.font-bold")).toHaveText(name);
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?id=${id}$`));
    await expect(page.getByRole("heading", { name })).toBeVisible();
  } finally {
    if (before) await rpc("WebUIAPI.SetDefaultDashboard", { ID: before.ID });
    await rpc("WebUIAPI.RemoveDashboard", { ID: id });
  }
});

test("the time range and refresh interval live in the URL", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "15 min" }).click();
  await expect(page).toHaveURL(/range=15m/);
  // The custom range is folded (a phone shows the data first): open it.
  await page.getByText("Custom range and refresh").click();
  await page.getByLabel("Auto-refresh").selectOption({ label: "5 s" });
  await page.getByLabel("From", { exact: true }).fill("2026-01-01T10:00");
  await page.getByLabel("To", { exact: true }).fill("2026-01-01T11:00");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/refresh=5s/);
  await expect(page).toHaveURL(/from=2026-01-01T10%3A00/);
  await expect(page.getByTestId("dashboard-range")).toContainText("10:00:00");
  await expect(page.getByLabel("Auto-refresh")).toHaveValue("5s");
});
