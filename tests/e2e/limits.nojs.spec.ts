import { ADMIN_PASSWORD, createUser, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Issue 26 §6, with and without JavaScript: an alarm rule's limits are drawn where operators look
// — on the charts of its variable (the server's SVG, and uPlot's with JavaScript) and as marks on
// its gauges and bars — in the rule's priority colour, without configuring the widgets again, for
// anyone who may see the dashboard (a Viewer too, who may not read the rules themselves).

const js = () => test.info().project.name !== "nojs";

test("a rule's limits are drawn on its variable's chart, gauge and bar in the priority's colour", async ({ page }) => {
  const admin = await token("admin", ADMIN_PASSWORD);
  const vars = (await (await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } })).json()) as { Data: { Id: string; Name: string }[] };
  const oil = vars.Data.find((v) => v.Name === "Oil temperature")!.Id;
  const now = (await (await fetch(`${LOGGER}/online/data`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: JSON.stringify({ Variables: [oil] }) })).json()) as { Data: { Values: number[] } };
  // Inside the values the chart shows (its scale follows the data): a high limit at the value now,
  // as it is — rounded, it fell below the plot whenever the value now was the window's lowest
  // (89.4 → 89 under a plot from 89.5: the label was rightly not drawn, CI 2026-11-30).
  const high = now.Data.Values[0]!;
  const ruleName = unique("Limit check ");
  const { ID: rule } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: ruleName, VariableId: oil, Type: "range", Severity: "critical", High: high, Low: 20 } });
  const { ID: dashboard } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: unique("Limits "),
      Content: {
        Range: "15m",
        Widgets: [
          { ID: "chart", Type: "chart", X: 0, Y: 0, W: 8, H: 3, Variables: [oil] },
          { ID: "gauge", Type: "gauge", X: 8, Y: 0, W: 4, H: 2, Variables: [oil], Options: { Min: 0, Max: 150 } },
          { ID: "bar", Type: "bar", X: 8, Y: 2, W: 4, H: 1, Variables: [oil], Options: { Min: 0, Max: 150 } },
        ],
      },
    },
  });
  try {
    const viewer = await createUser("Viewer");
    await signInDirect(page, viewer.username, viewer.password);
    await page.goto(`/dashboard?id=${dashboard}`);
    // The server's chart (without JavaScript it stays; with it, until uPlot is ready).
    const chart = page.locator('[data-widget="chart"]');
    if (!js()) {
      const line = chart.locator(`svg g[data-limit="${high}"]`);
      await expect(line).toHaveAttribute("data-severity", "critical");
      await expect(line).toHaveAttribute("data-side", "high");
      await expect(line.locator("line")).toHaveAttribute("stroke", "#b91c1c");
    } else {
      // uPlot draws the limit on its canvas and labels it with the rule's name.
      await expect(chart.getByTestId("chart")).toHaveAttribute("data-ready", "true");
      const label = chart.locator(`[data-limit="${high}"]`);
      await expect(label).toHaveText(ruleName);
      await expect(label).toHaveAttribute("data-severity", "critical");
    }
    // The gauge: a mark at each limit, the alarm side of the scale in the priority's colour.
    for (const [value, side] of [
      [high, "high"],
      [20, "low"],
    ] as const) {
      const mark = page.locator(`[data-widget="gauge"] g[data-limit="${value}"]`);
      await expect(mark).toHaveAttribute("data-side", side);
      await expect(mark.locator("line")).toHaveAttribute("stroke", "#b91c1c");
      await expect(page.locator(`[data-widget="bar"] [data-limit="${value}"]`)).toHaveAttribute("data-side", side);
    }
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID: rule });
    await rpc("WebUIAPI.RemoveDashboard", { ID: dashboard });
  }
});
