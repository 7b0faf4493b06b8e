import { createUser, expect, signIn, signOut, test } from "./fixtures";

test("switching the language to Italian translates the console and sticks", async ({ page }) => {
  const user = await createUser("Operator");
  await signIn(page, user.username, user.password);
  await page.goto("/settings");
  await page.getByLabel("Language").selectOption("it");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Modifiche salvate con successo");
  await expect(page.getByRole("heading", { name: "Impostazioni utente" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "it");
  // The choice is the user's: it comes back at the next sign-in.
  await signOut(page);
  await page.context().clearCookies();
  await signIn(page, user.username, user.password);
  await page.goto("/versionInfo");
  await expect(page.getByRole("heading", { name: "Informazioni" })).toBeVisible();
});

test("time zone and theme preferences are saved and validated", async ({ page }) => {
  const user = await createUser("Operator");
  await signIn(page, user.username, user.password);
  await page.goto("/settings");
  await page.getByLabel("A fixed offset from UTC").check();
  await page.getByLabel("Offset in minutes").fill("99999");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Enter whole minutes between -720 and 840.")).toBeVisible();
  await page.getByLabel("Offset in minutes").fill("90");
  await page.getByLabel("Theme").selectOption("dark");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully saved changes");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByLabel("Offset in minutes")).toHaveValue("90");
});

test.describe("without a language choice", () => {
  test.use({ locale: "it-IT" });
  test("the browser's Accept-Language picks Italian", async ({ page }) => {
    await page.goto("/signin");
    await expect(page.getByRole("heading", { name: "Accedi" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "it");
  });
});
