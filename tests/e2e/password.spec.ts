import { createUser, expect, signIn, signOut, test } from "./fixtures";

test("a flagged user must choose a new password before anything else", async ({ page }) => {
  const user = await createUser("Operator", { mustChange: true });
  await signIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/changePassword$/);
  // Other pages are closed until the password is changed.
  await page.goto("/versionInfo");
  await expect(page).toHaveURL(/\/changePassword\?redirect_uri=\/versionInfo$/);

  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Repeat the new password").fill("short");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The password needs at least 8 characters.")).toBeVisible();

  const next = `${user.password}-new`;
  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Repeat the new password").fill(next);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("form-error")).toBeVisible();

  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Repeat the new password").fill(next);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/versionInfo$/);
  await expect(page.getByTestId("toast-success")).toHaveText("Password changed");

  await signOut(page);
  await signIn(page, user.username, next);
  await expect(page).not.toHaveURL(/changePassword/);
});
