import { expectAccessible, userWithTheme } from "./axe";
import { expect, roleId, signIn, test } from "./fixtures";

// Issue 15 §10 on the wall display (1920×1080, the kiosk project): no serious or critical axe
// violation on the kiosk dashboard in the light and the dark theme (each a user's choice).

for (const theme of ["light", "dark"] as const) {
  test(`the kiosk dashboard in the ${theme} theme has no serious or critical axe violations`, async ({ page }) => {
    const { username, password } = await userWithTheme(await roleId("Administrator"), theme);
    await signIn(page, username, password);
    await page.goto("/dashboard?kiosk");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(page.getByTestId("widget").first()).toBeVisible();
    await expectAccessible(page, `kiosk (${theme})`);
  });
}
