import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

// Readable charts (issue 15 §3), with and without JavaScript: thresholds, event markers, gaps,
// quick ranges, zoom out and back as links; without JavaScript the server's SVG fills its box.

type Series = { start: number; delta: number; size: number; values: (number | null)[][] };

/** A dashboard with one chart of Oil temperature; thresholds around the data's mean of the last 15 minutes. */
async function chartDashboard(page: Page): Promise<{ id: string; mean: number; cleanup(): Promise<void> }> {
  const v = await variableIds();
  const name = unique("Charts ");
  const widget = { ID: "oil", Type: "chart", X: 0, Y: 0, W: 12, H: 4, Variables: [v["Oil temperature"]] };
  const { ID: id } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", { Dashboard: { Name: name, Content: { Refresh: "off", Range: "1h", Widgets: [widget] } } });
  // The buckets the page's chart is drawn from, as the browser fetches them.
  const to = Date.now();
  const res = await page.request.get(`/dashboard/series?id=${id}&from=${to - 900_000}&to=${to}`);
  expect(res.ok()).toBe(true);
  const series = ((await res.json()) as { widgets: Record<string, Series> }).widgets.oil!;
  const values = series.values[0]!.filter((x): x is number => x !== null);
  expect(values.length).toBeGreaterThan(10);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const { Dashboard } = await rpc<{ Dashboard: { Version: number } }>("WebUIAPI.GetDashboard", { ID: id });
  const rounded = Math.round(mean * 10) / 10;
  await rpc("WebUIAPI.SaveDashboard", {
    Dashboard: { ID: id, Version: Dashboard.Version, Name: name, Content: { Refresh: "off", Range: "1h", Widgets: [{ ...widget, Options: { Thresholds: [{ Value: rounded, Color: "red" }] } }] } },
  });
  return { id, mean: rounded, cleanup: () => rpc("WebUIAPI.RemoveDashboard", { ID: id }).then(() => undefined) };
}

test("thresholds and measurement events are on the chart; quick ranges, zoom out and back are links", async ({ page, javaScriptEnabled }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const measurement = await recordMeasurement("Chart marks ", 1500);
  const dash = await chartDashboard(page);
  // A relative range ends on its bucket grid (0.9 s for 15 min): wait until that end has passed the stop.
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(measurement.End + 1000);
  try {
    await page.goto(`/dashboard?id=${dash.id}&range=15m`);
    const widget = page.locator('[data-testid="widget"][data-type="chart"]');
    if (javaScriptEnabled) {
      await expect(widget.getByTestId("chart")).toHaveAttribute("data-ready", "true");
      const over = widget.locator(".u-over");
      await expect(over.locator(`[data-threshold="${dash.mean}"]`)).toBeVisible();
      await expect(over.locator(`[data-event="measStart"][title="Measurement started: ${measurement.Name}"]`)).toBeAttached();
      await expect(over.locator(`[data-event="measStop"][title="Measurement stopped: ${measurement.Name}"]`)).toBeAttached();
    } else {
      const svg = widget.getByTestId("svg-chart");
      await expect(svg).toBeVisible();
      await expect(svg.locator(`[data-threshold="${dash.mean}"] line[stroke="#dc2626"]`)).toBeAttached();
      await expect(svg.locator('[data-event="measStart"] title', { hasText: measurement.Name })).toBeAttached();
      await expect(svg.locator('[data-event="measStop"] title')).toContainText([`Measurement stopped: ${measurement.Name}`]);
      // The drawing fills the chart's box: the plot reaches the box less its axis margins.
      const box = (await widget.getByTestId("chart").boundingBox())!;
      const plot = (await svg.getByTestId("svg-plot").boundingBox())!;
      expect(plot.width).toBeGreaterThan(box.width - 110);
      expect(plot.height).toBeGreaterThan(box.height - 45);
      expect(plot.y + plot.height).toBeLessThanOrEqual(box.y + box.height);
      // One set of time labels shows (the one for this width), and none of them touch.
      const labels = svg.locator("g[data-tier]:visible text");
      const boxes = await labels.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
      expect(boxes.length).toBeGreaterThan(1);
      for (let k = 1; k < boxes.length; k++) expect(boxes[k]!.left).toBeGreaterThan(boxes[k - 1]!.right);
    }

    // Quick ranges, zoom out, back: plain links that put the range into the URL.
    const bar = page.getByTestId("range-bar");
    await bar.getByRole("link", { name: "6 h" }).click();
    await expect(page).toHaveURL(/range=6h/);
    await expect(bar.locator("a[aria-current]")).toHaveText("6 h");
    await bar.getByRole("link", { name: "Zoom out" }).click();
    await expect(page).toHaveURL(/from=\d+&to=\d+/);
    const url = new URL(page.url());
    expect(Number(url.searchParams.get("to")) - Number(url.searchParams.get("from"))).toBe(2 * 6 * 3_600_000);
    await expect(bar.locator("a[aria-current]")).toHaveCount(0);
    await bar.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL(/range=6h/);
    await expect(page).not.toHaveURL(/from=/);
    await expect(bar.locator("a[aria-current]")).toHaveText("6 h");
  } finally {
    await dash.cleanup();
  }
});

test("gaps stay gaps: buckets before the recording starts are not drawn (30 days)", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled !== false, "the server's SVG path is what shows the gap without JavaScript");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const dash = await chartDashboard(page);
  try {
    await page.goto(`/dashboard?id=${dash.id}&range=30d`);
    const path = page.getByTestId("svg-chart").locator('path[data-series="0"]');
    const d = (await path.getAttribute("d"))!;
    // The test logger has recorded for minutes, not 30 days: the line begins at its first bucket, not at the left edge.
    const first = /^M(\d+)/.exec(d);
    expect(Number(first![1])).toBeGreaterThan(500);
  } finally {
    await dash.cleanup();
  }
});

test("on a 390 px phone the dashboard's data comes first, the range form is folded", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const dash = await chartDashboard(page);
  try {
    await page.goto(`/dashboard?id=${dash.id}`);
    await expect(page.getByLabel("From", { exact: true })).toBeHidden();
    const chart = page.locator('[data-testid="widget"][data-type="chart"]');
    await expect(chart).toBeInViewport();
    // Unfolded on demand, without JavaScript too.
    await page.getByText("Custom range and refresh").click();
    await expect(page.getByLabel("From", { exact: true })).toBeVisible();
    // The range bar stays inside the phone's width (its quick ranges scroll inside it).
    const bar = (await page.getByTestId("range-bar").boundingBox())!;
    expect(bar.x + bar.width).toBeLessThanOrEqual(390);
  } finally {
    await dash.cleanup();
  }
});

test("the server chart's value axis has at least 4 labels at a nice step, none touching, and its unit (issue 28 §2)", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled !== false, "without JavaScript the server's SVG is the chart (uPlot draws its axes on a canvas)");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const dash = await chartDashboard(page);
  try {
    for (const range of ["15m", "1h"]) {
      await page.goto(`/dashboard?id=${dash.id}&range=${range}`);
      const axis = page.getByTestId("svg-chart").locator('g[data-axis="left"]');
      await expect(axis.locator("text[data-unit]")).toHaveText("°C");
      const ticks = axis.locator("text[data-value]");
      const values = (await ticks.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-value"))))).toSorted((a, b) => a - b);
      expect(values.length, values.join(", ")).toBeGreaterThanOrEqual(4);
      expect(values.length).toBeLessThanOrEqual(8);
      // One step between neighbours, and the step is 1, 2 or 5 × 10^n.
      const step = values[1]! - values[0]!;
      for (let k = 1; k < values.length; k++) expect(values[k]! - values[k - 1]!).toBeCloseTo(step, 6);
      expect([1, 2, 5]).toContain(Number((step / 10 ** Math.floor(Math.log10(step))).toPrecision(6)));
      // The labels are visible and their boxes do not overlap.
      const boxes = (await ticks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom, width: r.width })))).toSorted((a, b) => a.top - b.top);
      for (const b of boxes) expect(b.width).toBeGreaterThan(0);
      for (let k = 1; k < boxes.length; k++) expect(boxes[k]!.top).toBeGreaterThanOrEqual(boxes[k - 1]!.bottom);
    }
  } finally {
    await dash.cleanup();
  }
});
