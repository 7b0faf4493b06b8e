import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// Issue 26 §3, with and without JavaScript: one value-quality model on every live screen. With
// acquisition stopped, values keep their last reading (greyed, never "—"), lamps keep their last
// state, every screen's badge says Stale with the age — never Live over a stale value — and why:
// "acquisition stopped by admin at hh:mm:ss". Acquisition is really stopped on the shared e2e
// logger and started again at the end.

const js = () => test.info().project.name !== "nojs";
/** Reloads (as the page's own refresh would without JavaScript) until `check` holds. */
async function until(page: Page, url: string, check: () => Promise<unknown>, timeout = 20_000) {
  await expect(async () => {
    if (!js()) await page.goto(url);
    await check();
  }).toPass({ timeout });
}

test("stopped acquisition: every screen keeps the last readings, greyed, says Stale with the age, and who stopped it when", async ({ page }) => {
  test.setTimeout(120_000);
  const ids = await variableIds();
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: unique("Quality "),
      Content: {
        Refresh: "5s",
        Widgets: [
          { ID: "oil", Type: "value", X: 0, Y: 0, W: 4, H: 2, Variables: [ids["Oil temperature"]] },
          { ID: "pump", Type: "lamp", X: 4, Y: 0, W: 4, H: 1, Variables: [ids["Pump running"]], Options: { States: [{ Value: 0, Label: "Stopped", Color: "grey" }, { Value: 1, Label: "Running", Color: "green" }] } },
        ],
      },
    },
  });
  const badge = page.getByTestId("live-state");
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    const dashboard = `/dashboard?id=${ID}`;
    await page.goto(dashboard);
    await expect(badge).toHaveAttribute("data-state", "live");
    const lampBefore = await page.locator('[data-widget="pump"] [data-testid=widget-value]').textContent();

    await rpc("ProjectAPI.Stop", {});
    await until(page, dashboard, () => expect(badge).toHaveAttribute("data-state", "stale"));
    await until(page, dashboard, () => expect(badge.getByTestId("live-reason")).toHaveText(/acquisition stopped by admin at \d\d:\d\d:\d\d/));
    await expect(badge.getByTestId("live-age")).toHaveText(/· \d+ sec/);
    // The last reading stays, greyed: never blank, and the lamp keeps its state.
    await expect(page.locator('[data-widget="oil"] [data-testid=widget-value]')).toHaveText(/\d+\.\d/);
    await expect(page.locator('[data-widget="oil"] .loggia-not-live')).toHaveCount(1);
    await expect(page.locator('[data-widget="pump"] [data-testid=widget-value]')).toHaveText(lampBefore!);
    await expect(page.locator('[data-widget="pump"] [data-testid=widget-value]')).not.toHaveText("No value");
    await expect(page.locator('[data-widget="pump"] .loggia-not-live')).toHaveCount(1);

    // Variable Overview: its badge is the worst of the values it shows — Stale, not Live — and says why.
    const overview = "/variableOverview?q=Oil%20temperature";
    await page.goto(overview);
    await until(page, overview, () => expect(badge).toHaveAttribute("data-state", "stale"));
    await until(page, overview, () => expect(badge).toContainText(/acquisition stopped by admin at/));
    const row = page.getByTestId("variables-table").locator('tr[data-variable="Oil temperature"]');
    await expect(row.getByTestId("value")).toHaveText(/\d/);
    await expect(row).toHaveAttribute("data-freshness", "stale");
    await expect(row.getByTestId("freshness-badge")).toHaveText(/Stale · \d+ sec/);

    // Struct View and Monitor judge the same way.
    await page.goto(`/structView?node=${ids["Oil temperature"]}`);
    await expect(page.getByTestId("struct-value")).toHaveAttribute("data-freshness", "stale");
    await expect(page.getByTestId("struct-reason")).toHaveText(/acquisition stopped by admin at/);
    await page.goto(`/monitor?v=${ids["Oil temperature"]}`);
    await until(page, `/monitor?v=${ids["Oil temperature"]}`, () => expect(badge).toContainText(/Stale.*acquisition stopped by admin/));
    await expect(page.getByTestId("tile-value")).toHaveText(/\d/);
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
  await page.goto(`/variableOverview?q=Oil%20temperature`);
  await until(page, `/variableOverview?q=Oil%20temperature`, () => expect(badge).toHaveAttribute("data-state", "live"));
  await expect(badge.getByTestId("live-reason")).toHaveCount(0);
  await rpc("WebUIAPI.RemoveDashboard", { ID });
});
