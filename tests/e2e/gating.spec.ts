import { createRole, createUser, expect, signIn, test } from "./fixtures";

test("a role without ViewDevices and ViewDashboards neither sees nor opens those screens", async ({ page }) => {
  const role = await createRole([]);
  const user = await createUser(role.id);
  await signIn(page, user.username, user.password);
  // DefaultStartPage "device": no ViewDevices, no ViewCockpit → /settings (spec §2).
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("link", { name: "Project State" })).toHaveCount(0);
  const devices = await page.goto("/devices");
  expect(devices?.status()).toBe(403);
  await expect(page.getByTestId("error-403")).toBeVisible();
  const dashboard = await page.goto("/dashboard");
  expect(dashboard?.status()).toBe(403);
  // Always-present screens stay open.
  const about = await page.goto("/versionInfo");
  expect(about?.status()).toBe(200);
});

test("a Viewer sees Project State but no administration entries", async ({ page }) => {
  const user = await createUser("Viewer");
  await signIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByRole("link", { name: "Project State" }).first()).toBeAttached();
  for (const name of ["Global Settings", "User Management", "Role Management"]) {
    await expect(page.getByRole("link", { name })).toHaveCount(0);
  }
  for (const path of ["/userManagement", "/roleManagement", "/globalSettings"]) {
    const res = await page.goto(path);
    expect([403, 404]).toContain(res?.status());
  }
});
