import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// Issue 28 §6 on the wall display: the notes covering a chart's time are drawn on it too; the
// kiosk offers no links away (no Analyse, no Add note).

test("a wall display's chart shows the notes of its range and no panel links", async ({ page }) => {
  const oil = (await variableIds())["Oil temperature"]!;
  const { ID: dash } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: { Name: unique("Wall notes "), Content: { Refresh: "off", Range: "1h", Widgets: [{ ID: "oil", Type: "chart", Title: "Oil", X: 0, Y: 0, W: 12, H: 4, Variables: [oil] }] } },
  });
  const at = Date.now() - 15 * 60_000;
  const { ID } = await rpc<{ ID: number }>("AnnotationAPI.Add", { Annotation: { Start: at, End: at + 5 * 60_000, Text: unique("Wall "), Variables: [oil] } });
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/dashboard?kiosk&id=${dash}`);
    await expect(page.locator("main[data-kiosk]")).toBeVisible();
    const chart = page.locator("[data-widget=oil]");
    await expect(chart.locator(`[data-annotation="${ID}"]`).first()).toBeAttached();
    await expect(chart.getByTestId("chart-panel-links")).toHaveCount(0);
  } finally {
    await rpc("AnnotationAPI.Remove", { ID });
    await rpc("WebUIAPI.RemoveDashboard", { ID: dash });
  }
});
