import { ADMIN_PASSWORD, createRole, createUser, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { savePreferences } from "./preferences";

// Names with control or format characters (here a zero-width space, as a name pasted from a chat
// carries) are refused: the logger refuses them (issue 14), and the form says so next to the
// field, in the reader's language, before anything is sent. With and without JavaScript.

test("a role name with an invisible character is refused next to the field, in the reader's language", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/roleManagement");
  await page.getByRole("link", { name: "Add role" }).click();
  const name = `${unique("Admin")}\u200bistrator`;
  const field = page.getByLabel("Name", { exact: true });
  await field.fill(name);
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Remove the invisible or control characters" })).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  // What was typed is kept.
  await expect(field).toHaveValue(name);
  const { Roles } = await rpc<{ Roles: { Name: string }[] }>("GI.system/UserManagementAPI.GetRoles", {});
  expect(Roles.map((r) => r.Name)).not.toContain(name);
  // The same name without the invisible character is fine.
  await field.fill(name.replace("\u200b", ""));
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully added role");
});

test("a dashboard name with a zero-width space gets the same words, in Italian for an Italian reader", async ({ page }) => {
  const role = await createRole(["ViewDashboards", "ManageDashboards"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  await savePreferences(page, { language: "it" });
  await page.goto("/dashboardManager?add");
  const name = `${unique("Linea")}\u200b1`;
  const field = page.getByLabel("Nome", { exact: true });
  await field.fill(name);
  await field.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Togli da questo campo i caratteri invisibili" })).toBeVisible();
  await expect(field).toHaveValue(name);
});
