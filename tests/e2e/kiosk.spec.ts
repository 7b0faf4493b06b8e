import { ADMIN_PASSWORD, expect, signIn, test } from "./fixtures";

test("a wall display reaches the default dashboard without any navigation chrome", async ({ page }) => {
  await signIn(page, "admin", ADMIN_PASSWORD);
  await page.goto("/defaultDashboard?kiosk");
  await expect(page).toHaveURL(/\/dashboard\?kiosk=?$/);
  await expect(page.locator("main[data-kiosk]")).toBeVisible();
  await expect(page.getByRole("navigation")).toHaveCount(0);
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
});
