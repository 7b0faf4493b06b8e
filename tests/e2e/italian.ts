import type { Page } from "@playwright/test";
import { PERMISSIONS } from "../../app/features";
import { createRole, createUser, signIn } from "./fixtures";

/** A new user with every permission, signed in through the form, who reads Italian (saved with the user, as User Settings does). */
export async function italian(page: Page) {
  const role = await createRole([...PERMISSIONS]);
  const user = await createUser(role.id);
  await signIn(page, user.username, user.password);
  await page.request.post("/settings", {
    form: { intent: "preferences", language: "it", theme: "light", layout: "horizontal-minimal", layoutType: "full-width", sidebarWidth: "304", zoneMode: "browser", email: "" },
    headers: { Origin: new URL(page.url()).origin },
  });
  return user;
}
