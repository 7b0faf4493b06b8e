import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// Issue 15 §1 for charts: a chart that runs up to now is judged like a value — stale (or offline)
// data greys and hatches it and its title names the state — from the server's render without
// JavaScript and in place with it (uPlot's canvas). A range that ends in the past is history and
// stays as it is. Acquisition on the shared logger is stopped and started again at the end.

async function chartDashboard(): Promise<string> {
  const ids = await variableIds();
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: {
      Name: unique("Chart freshness "),
      Content: { Range: "15m", Refresh: "5s", Widgets: [{ ID: "temps", Type: "chart", Title: "Temps", X: 0, Y: 0, W: 12, H: 4, Variables: [ids["Oil temperature"]] }] },
    },
  });
  return ID;
}

const js = () => test.info().project.name !== "nojs";
const chart = (page: Page) => page.locator('[data-widget="temps"]');

test("a chart of data that stopped updating is greyed with its state named; a past range is not", async ({ page }) => {
  test.setTimeout(60_000);
  const id = await chartDashboard();
  const url = `/dashboard?id=${id}`;
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(url);
    await expect(chart(page)).toHaveAttribute("data-freshness", "live");
    await expect(chart(page).locator(".loggia-not-live")).toHaveCount(0);
    if (js()) await expect(chart(page).getByTestId("chart")).toHaveAttribute("data-ready", "true");
    else await expect(chart(page).locator("[data-testid=chart] svg").first()).toBeVisible();

    await rpc("ProjectAPI.Stop", {});
    // Without JavaScript the page's own refresh is what re-judges it; with it, the page does in place.
    await expect
      .poll(
        async () => {
          if (!js()) await page.goto(url);
          return chart(page).getAttribute("data-freshness");
        },
        { timeout: 15_000 },
      )
      .toBe("stale");
    await expect(chart(page).locator(".loggia-not-live")).toHaveCount(1);
    await expect(chart(page).getByTestId("widget-freshness")).toHaveText("Stale");
    // The greyed box holds the drawing itself: uPlot's canvas with JavaScript, the server's SVG without.
    await expect(chart(page).locator(js() ? ".loggia-not-live canvas" : ".loggia-not-live svg").first()).toBeVisible();
    expect(await chart(page).locator(".loggia-not-live").evaluate((e) => getComputedStyle(e).filter)).toContain("grayscale");

    // A range that ends an hour ago is stored history: never greyed.
    const to = Date.now() - 3_600_000;
    await page.goto(`${url}&from=${to - 900_000}&to=${to}`);
    await expect(chart(page)).not.toHaveAttribute("data-freshness", /./);
    await expect(chart(page).locator(".loggia-not-live")).toHaveCount(0);
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
  await expect
    .poll(
      async () => {
        await page.goto(url);
        return chart(page).getAttribute("data-freshness");
      },
      { timeout: 15_000 },
    )
    .toBe("live");
  await rpc("WebUIAPI.RemoveDashboard", { ID: id });
});
