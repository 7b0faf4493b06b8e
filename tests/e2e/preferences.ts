import type { Page } from "@playwright/test";
import { PERMISSIONS } from "../../app/features";
import { createRole, createUser, pageOrigin, signIn } from "./fixtures";

const DEFAULTS = { language: "en", theme: "light", layout: "horizontal-minimal", layoutType: "full-width", sidebarWidth: "304", zoneMode: "browser", email: "" };

/** Saves the signed-in user's preferences by User Settings' own post (the rest as a new user has them). */
export async function savePreferences(page: Page, changes: Partial<Record<keyof typeof DEFAULTS | "timezone", string>>) {
  const response = await page.request.post("/settings", {
    form: { intent: "preferences", ...DEFAULTS, ...changes },
    headers: { Origin: pageOrigin(page) },
  });
  if (response.status() >= 400) throw new Error(`saving preferences answered ${response.status()}`);
}

/** A new user with every permission, signed in through the form, who reads Italian (saved with the user, as User Settings does). */
export async function italian(page: Page) {
  const role = await createRole([...PERMISSIONS]);
  const user = await createUser(role.id);
  await signIn(page, user.username, user.password);
  await savePreferences(page, { language: "it" });
  return user;
}
