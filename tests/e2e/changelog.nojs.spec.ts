import { ADMIN_PASSWORD, createRole, createUser, expect, signInDirect, test } from "./fixtures";
import { savePreferences } from "./preferences";

test("the changelog page shows the operators' changelog for every signed-in user, in their language", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/changelogUI");
  const log = page.getByTestId("changelog");
  await expect(log.getByRole("heading", { level: 1, name: "Changelog" })).toBeVisible();
  await expect(log.getByRole("heading", { level: 2, name: "Unreleased" })).toBeVisible();
  await expect(log.getByRole("listitem").filter({ hasText: /^Eight menu layouts/ })).toBeVisible();
  await expect(page).toHaveTitle(/Changelog/);

  // No permission is needed (spec §6): a user without any reaches it from the menu.
  const role = await createRole([]);
  const user = await createUser(role.id);
  await page.context().clearCookies();
  await signInDirect(page, user.username, user.password);
  await page.goto("/versionInfo");
  await expect(page.getByRole("navigation", { name: "Main menu" }).locator('a[href="/changelogUI"]')).toHaveCount(1);
  await page.goto("/changelogUI");
  await expect(page.getByTestId("changelog").getByRole("heading", { level: 2, name: "Unreleased" })).toBeVisible();
  // In Italian it is written in Italian (this user's language, saved with the user).
  await savePreferences(page, { language: "it" });
  await page.goto("/changelogUI");
  await expect(page.getByTestId("changelog").getByRole("heading", { level: 1, name: "Novità" })).toBeVisible();
  await expect(page.getByTestId("changelog").getByRole("heading", { level: 2, name: "Non ancora rilasciato" })).toBeVisible();
  await expect(page.getByTestId("changelog")).not.toContainText("Unreleased");
});
