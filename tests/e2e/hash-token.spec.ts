import { createUser, expect, test, token } from "./fixtures";

// JavaScript only (project js): the URL hash never reaches a server.
test("an access token in the URL hash signs the browser in (spec §4)", async ({ page }) => {
  const user = await createUser("Viewer");
  const access = await token(user.username, user.password);
  await page.goto(`/signin#access_token=${encodeURIComponent(access)}`);
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByTestId("user-menu")).toContainText(user.username);
});

test("a bad token in the hash leaves the browser signed out", async ({ page }) => {
  await page.goto("/signin#access_token=not-a-valid-token");
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
});
