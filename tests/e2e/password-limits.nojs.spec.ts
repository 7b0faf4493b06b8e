import { createUser, exhaustAccountBudget, expect, signIn, test } from "./fixtures";

// Passwords are at most 1,024 characters (issue 14), said in the user's language on the sign-in
// page and the password forms; and the current-password check of a password change is throttled
// with the sign-ins of the same account. With JavaScript (project js) and without (nojs).

const TOO_LONG = "x".repeat(1025);

test("a password longer than 1,024 characters is refused on the sign-in page, the username kept", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TOO_LONG);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("The password can have at most 1,024 characters.")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue("admin");
  await expect(page).toHaveURL(/\/signin$/);
});

test("the forced password change refuses a new password longer than 1,024 characters", async ({ page }) => {
  const user = await createUser("Viewer", { mustChange: true });
  await signIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/changePassword$/);
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill(TOO_LONG);
  await page.getByLabel("Repeat the new password").fill(TOO_LONG);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/The password can have at most 1,024 characters\./);
  await expect(page).toHaveURL(/\/changePassword$/);
});

test("the current-password check waits with the account's sign-ins, and says how long", async ({ page }) => {
  test.setTimeout(90_000);
  const user = await createUser("Viewer", { mustChange: true });
  await signIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/changePassword$/);
  // Someone guesses this account's password from many addresses meanwhile, until the account waits.
  await exhaustAccountBudget(user.username);
  const next = `${user.password}-new`;
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Repeat the new password").fill(next);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
  await expect(page).toHaveURL(/\/changePassword$/);
});
