import { ADMIN_PASSWORD, expect, setGlobalSettings, signInDirect, test } from "./fixtures";

test.describe("redirect rules", () => {
  test.beforeEach(async ({ page }) => {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
  });

  test("/defaultDashboard goes to /dashboard", async ({ page }) => {
    await page.goto("/defaultDashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a bare UUID path goes to /dashboard carrying the id", async ({ page }) => {
    const id = "0b7e6a1c-1234-4abc-8def-0123456789ab";
    await page.goto(`/${id}`);
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?id=${id}$`));
    await expect(page.getByText("This dashboard does not exist (any more).")).toBeVisible();
  });

  test("/ follows DefaultStartPage", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/devices$/);
    await setGlobalSettings({ DefaultStartPage: "versionInfo" });
    try {
      await page.goto("/");
      await expect(page).toHaveURL(/\/versionInfo$/);
      await page.goto("/signin");
      await expect(page).toHaveURL(/\/versionInfo$/);
    } finally {
      await setGlobalSettings({ DefaultStartPage: "device" });
    }
  });

  test("an unknown path shows the 404 page with Go Home", async ({ page }) => {
    const res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    await expect(page.getByText("Oops, an error has occurred. Page not found!")).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/devices$/);
  });
});

test("the 404 page needs no sign-in", async ({ page }) => {
  const res = await page.goto("/definitely-missing");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("Oops, an error has occurred. Page not found!")).toBeVisible();
});
