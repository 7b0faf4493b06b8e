import { ADMIN_PASSWORD, expect, signIn, test } from "./fixtures";

test("a wall display reaches the default dashboard", async ({ page }) => {
  await signIn(page, "admin", ADMIN_PASSWORD);
  await page.goto("/defaultDashboard?kiosk");
  await expect(page).toHaveURL(/\/dashboard\?kiosk=?$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});
