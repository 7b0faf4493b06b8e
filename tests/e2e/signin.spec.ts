import { ADMIN_PASSWORD, createUser, expect, signIn, signOut, test } from "./fixtures";

test.describe("sign-in", () => {
  test("wrong credentials show the spec's toast and keep the username", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("toast-error")).toHaveText("Credentials invalid! Wrong username or password provided!");
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByLabel("Username")).toHaveValue("admin");
  });

  test("an empty password is refused with the spec's prompt", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Username").fill("admin");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("You must enter your password!")).toBeVisible();
  });

  test("right credentials land on the start page with a success toast; logout ends the session", async ({ page }) => {
    await signIn(page, "admin", ADMIN_PASSWORD);
    // DefaultStartPage "device" with ViewDevices held → /devices (spec §2).
    await expect(page).toHaveURL(/\/devices$/);
    await expect(page.getByTestId("toast-success")).toHaveText("Login successfully!");
    await signOut(page);
    await expect(page).toHaveURL(/\/signin$/);
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/signin$/);
  });

  test("the remembered path is restored after sign-in and on a return to /signin", async ({ page }) => {
    const user = await createUser("Viewer");
    await page.goto("/versionInfo");
    await expect(page).toHaveURL(/\/signin$/);
    await signIn(page, user.username, user.password);
    await expect(page).toHaveURL(/\/versionInfo$/);
    await page.goto("/signin");
    await expect(page).toHaveURL(/\/versionInfo$/);
  });

  test("redirect_uri is followed for same-origin paths only", async ({ page }) => {
    const user = await createUser("Viewer");
    await page.goto("/signin?redirect_uri=/settings");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByLabel("Password").press("Enter");
    // The path, not the URL: "/signin?redirect_uri=/settings" itself ends in "/settings".
    await page.waitForURL((url) => url.pathname === "/settings");
    await signOut(page);
    await page.goto("/signin?redirect_uri=https://evil.example/x");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(/localhost:\d+\/devices$/);
  });

  test("the user menu offers Profile, Setting and Logout", async ({ page }) => {
    await signIn(page, "admin", ADMIN_PASSWORD);
    await page.getByTestId("user-menu").click();
    await expect(page.getByRole("link", { name: "Profile" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Setting", exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Logout" }).filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/signin$/);
  });
});
