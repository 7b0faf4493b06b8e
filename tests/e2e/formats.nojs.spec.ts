import { createRole, createUser, expect, signInDirect, test } from "./fixtures";
import { PERMISSIONS } from "../../app/features";
import type { Page } from "@playwright/test";
import { savePreferences } from "./preferences";

// Issue 15 §6: date and time fields show and accept the user's locale format (24-hour clock),
// with and without JavaScript; a bad value is kept and explained next to the field; headers
// use the 24-hour clock too.

async function asUserIn(page: Page, language: "en" | "it") {
  const user = await createUser((await createRole([...PERMISSIONS])).id);
  await signInDirect(page, user.username, user.password);
  await savePreferences(page, { language, zoneMode: "name", timezone: "Europe/Rome" });
}

test("Italian date fields show and take dd/mm/yyyy hh:mm; a bad one is kept and explained", async ({ page }) => {
  await asUserIn(page, "it");
  await page.goto("/analytics?span=absolute&from=2026-11-23T14:05&to=2026-11-23T15:30");
  const form = page.getByTestId("analytics-form");
  const from = form.getByTestId("datetime-from");
  await expect(from).toHaveValue("23/11/2026 14:05");
  await expect(form.getByTestId("datetime-to")).toHaveValue("23/11/2026 15:30");
  await expect(from).toHaveAttribute("placeholder", "gg/mm/aaaa hh:mm");
  await expect(page.locator('input[type="datetime-local"]')).toHaveCount(0);
  // Typed in the Italian format: the address becomes the canonical wall time, the field shows it back.
  await from.fill("2/1/2026 09:15");
  await form.getByTestId("datetime-to").fill("2/1/2026 10:00");
  await form.getByTestId("datetime-to").press("Enter");
  await page.waitForURL(/from=2026-01-02T09%3A15/);
  await expect(form.getByTestId("datetime-from")).toHaveValue("02/01/2026 09:15");
  // Not a date: kept as typed, explained next to the field, in Italian.
  await form.getByTestId("datetime-from").fill("31/02/2026 10:00");
  await form.getByTestId("datetime-from").press("Enter");
  await page.waitForURL(/from=31%2F02%2F2026/);
  await expect(form.getByTestId("datetime-from")).toHaveValue("31/02/2026 10:00");
  await expect(form.getByText("Data e ora non valide: inseriscile come gg/mm/aaaa hh:mm (24 ore).")).toBeVisible();
});

test("English date fields show and take mm/dd/yyyy hh:mm on the 24-hour clock", async ({ page }) => {
  await asUserIn(page, "en");
  await page.goto("/log?from=2026-11-23T14:05");
  await expect(page.getByTestId("datetime-from")).toHaveValue("11/23/2026 14:05");
  await expect(page.getByTestId("datetime-from")).toHaveAttribute("placeholder", "mm/dd/yyyy hh:mm");
  await page.getByTestId("datetime-from").fill("11/24/2026 18:30");
  await page.getByTestId("datetime-from").press("Enter");
  await page.waitForURL(/from=2026-11-24T18%3A30/);
  await expect(page.getByTestId("datetime-from")).toHaveValue("11/24/2026 18:30");
  // No 12-hour clock anywhere on the page.
  await expect(page.locator("main")).not.toContainText(/\d{1,2}:\d{2}(:\d{2})?\s?(AM|PM)/);
});
