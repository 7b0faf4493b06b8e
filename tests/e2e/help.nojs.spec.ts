import { ADMIN_PASSWORD, createRole, createUser, expect, signInDirect, test } from "./fixtures";
import { savePreferences } from "./preferences";

// Issue 15 §9: Help is an in-app screen for operators' tasks, inside the shell, translated.
test("Help is an in-app page for operators, reached from the menu, in English and Italian", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/versionInfo");
  const link = page.getByRole("navigation", { name: "Main menu" }).locator('a[href="/help"]');
  await expect(link).toHaveCount(1);
  expect(await link.getAttribute("target")).toBeNull();
  const response = await page.goto("/help");
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/help");
  await expect(page.getByRole("heading", { level: 1, name: "Help" })).toBeVisible();
  for (const title of ["Where to find what", "Exporting data", "Alarms", "Wall display (kiosk)"]) {
    await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
  }
  await expect(page.getByText("mm/dd/yyyy hh:mm")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main menu" })).toBeAttached();
  await expect(page).toHaveTitle("Loggia · Help");

  // Italian for a user of its own (the language is saved with the user).
  const user = await createUser((await createRole([])).id);
  await page.context().clearCookies();
  await signInDirect(page, user.username, user.password);
  await savePreferences(page, { language: "it" });
  await page.goto("/help");
  await expect(page.getByRole("heading", { level: 1, name: "Aiuto" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Esportare i dati" })).toBeVisible();
  await expect(page.getByText("gg/mm/aaaa hh:mm")).toBeVisible();
  await expect(page).toHaveTitle("Loggia · Aiuto");
});
