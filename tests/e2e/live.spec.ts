import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

test("with JavaScript, Monitor values update live over the push channel", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/monitor");
  await page.getByLabel("Vibration").first().check();
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  const value = page.getByTestId("tile-value").first();
  const first = await value.textContent();
  await expect(value).not.toHaveText(first ?? "", { timeout: 10_000 });
});
