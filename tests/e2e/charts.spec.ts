import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// The interactive chart's read-out (issue 15 §3): hover and keyboard show every series' value
// and the time at the cursor; a raised alarm is marked on the chart of its variable.

test("hover and keyboard read-out, and an alarm raised marked on the chart", async ({ page }) => {
  const v = await variableIds();
  const name = unique("Readout ");
  const rule = unique("Chart alarm ");
  // Always active (Oil temperature is far above -1000): raised as soon as the rule exists.
  const { ID: ruleId } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: rule, VariableId: v["Oil temperature"], Type: "high", High: -1000, Severity: "low" } });
  const widget = { ID: "two", Type: "chart", X: 0, Y: 0, W: 12, H: 4, Variables: [v["Oil temperature"], v["Shaft speed"]] };
  const { ID: id } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", { Dashboard: { Name: name, Content: { Refresh: "off", Range: "1h", Widgets: [widget] } } });
  try {
    await expect
      .poll(async () => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === ruleId)?.State, { timeout: 15_000 })
      .toBe("ActiveUnacknowledged");
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    // A fixed range that ends now, with the raised alarm in it: a relative one follows the live
    // values, so the bucket under a keyboard cursor would change its time while the test reads it.
    const to = Date.now();
    await page.goto(`/dashboard?id=${id}&from=${to - 15 * 60_000}&to=${to}`);
    const chart = page.locator('[data-type="chart"] [data-testid="chart"][data-ready]');
    await expect(chart).toBeVisible();
    await expect(chart.locator(`[data-event="alarmRaised"][title="Alarm raised: ${rule}"]`)).toBeAttached();

    // Hover: time and both series with their units.
    const over = chart.locator(".u-over");
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    const readout = chart.getByTestId("chart-readout");
    await expect(readout).toBeVisible();
    await expect(readout.getByTestId("readout-time")).toHaveText(/\d{2}:\d{2}:\d{2}/);
    await expect(readout.locator('[data-variable="Oil temperature"] [data-testid="readout-value"]')).toHaveText(/^-?[\d.,]+ °C$/);
    await expect(readout.locator('[data-variable="Shaft speed"] [data-testid="readout-value"]')).toHaveText(/^-?[\d.,]+ rpm$/);
    const hovered = await readout.getByTestId("readout-time").textContent();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await expect(readout.getByTestId("readout-time")).not.toHaveText(hovered!);
    await page.mouse.move(0, 0);
    await expect(readout).toBeHidden();

    // Keyboard: focus the chart, End to the newest bucket, the left arrow one bucket back.
    const focusable = chart.getByTestId("uplot-focus");
    await focusable.focus();
    await page.keyboard.press("End");
    await expect(readout).toBeVisible();
    const newest = await readout.getByTestId("readout-time").textContent();
    await page.keyboard.press("ArrowLeft");
    await expect(readout.getByTestId("readout-time")).not.toHaveText(newest!);
    const earlier = await readout.getByTestId("readout-time").textContent();
    await page.keyboard.press("ArrowRight");
    await expect(readout.getByTestId("readout-time")).toHaveText(newest!);
    expect(earlier).not.toBe(newest);
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID: id });
    await rpc("AlarmAPI.RemoveRule", { ID: ruleId });
  }
});
