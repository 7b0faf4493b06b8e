import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

// Names with control or format characters (here a zero-width space) are refused by the logger,
// and the form shows its words as with any other refusal (issue 14). With and without JavaScript.

test("a role name with an invisible character is refused, with the logger's reason on the form", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/roleManagement");
  await page.getByRole("link", { name: "Add role" }).click();
  const name = `${unique("Admin")}\u200bistrator`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Must not contain control or invisible formatting characters");
  const { Roles } = await rpc<{ Roles: { Name: string }[] }>("GI.system/UserManagementAPI.GetRoles", {});
  expect(Roles.map((r) => r.Name)).not.toContain(name);
  // The same name without the invisible character is fine.
  await page.getByLabel("Name", { exact: true }).fill(name.replace("\u200b", ""));
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully added role");
});
