import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

test("drag-zoom re-queries the logger at the new range and reset returns", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const m = await recordMeasurement("Zoom ", 3000);
  const ids = await variableIds();
  await page.goto(`/analytics?v=${ids["Shaft speed"]}&span=measurement&m=${m.ID}`);
  const chart = page.getByTestId("chart");
  await expect(chart).toHaveAttribute("data-ready", "true");
  const before = await page.getByTestId("statistics").locator('[data-stat="Count"]').textContent();
  const over = chart.locator(".u-over");
  await over.scrollIntoViewIfNeeded();
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page).toHaveURL(/zf=\d+&zt=\d+/);
  await expect(page.getByTestId("statistics").locator('[data-stat="Count"]')).not.toHaveText(before!);
  await page.getByRole("link", { name: "Reset zoom" }).click();
  await expect(page).not.toHaveURL(/zf=/);
  await expect(page.getByTestId("statistics").locator('[data-stat="Count"]')).toHaveText(before!);
});
