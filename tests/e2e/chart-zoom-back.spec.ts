import { expectAccessible } from "./axe";
import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { variableIds } from "./history";

// A drag-zoom remembers the range it left: the chart itself (and the range bar) offers "Back" to
// it — a labelled link, reached and followed with the keyboard — as the quick ranges do.

test("after a drag-zoom the chart offers Back to the previous range, by keyboard too", async ({ page }) => {
  const ids = await variableIds();
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: { Name: unique("Zoom back "), Content: { Range: "1h", Refresh: "off", Widgets: [{ ID: "c", Type: "chart", X: 0, Y: 0, W: 12, H: 4, Variables: [ids["Oil temperature"]] }] } },
  });
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/dashboard?id=${ID}&range=15m`);
    const widget = page.locator('[data-widget="c"]');
    await expect(widget.getByTestId("chart-back")).toHaveCount(0);
    const over = widget.locator("[data-testid=chart][data-ready] .u-over");
    await expect(over).toBeVisible();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page).toHaveURL(/from=\d+&to=\d+/);
    await expect(page).toHaveURL(/back=15m/);

    const back = widget.getByRole("link", { name: "Back to the range before the zoom" });
    await expect(back).toBeVisible();
    await expect(page.getByTestId("range-back")).toBeVisible();
    await expectAccessible(page, "zoomed chart with its Back link");
    // Keyboard: focus it and press Enter.
    await back.focus();
    await expect(back).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/range=15m/);
    await expect(page).not.toHaveURL(/from=|back=/);
    await expect(page.locator("[data-testid=quick-ranges] a[aria-current]")).toHaveText("15 min");
    await expect(widget.getByTestId("chart-back")).toHaveCount(0);

    // A zoom into a zoom goes back one step: to the first zoom's range.
    await expect(over).toBeVisible();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page).toHaveURL(/back=15m/);
    const first = new URL(page.url());
    await expect(widget.locator("[data-testid=chart][data-ready] .u-over")).toBeVisible();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page).toHaveURL(new RegExp(`back=${first.searchParams.get("from")}(~|%7E)${first.searchParams.get("to")}`));
    await widget.getByTestId("chart-back").click();
    await expect(page).toHaveURL(new RegExp(`from=${first.searchParams.get("from")}&to=${first.searchParams.get("to")}`));
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});
