import { ADMIN_PASSWORD, createRole, createUser, expect, roleId, rpc, signIn, signInDirect, test, unique } from "./fixtures";
import type { Page } from "@playwright/test";

// Runs with and without JavaScript: every step is a plain link or form post.
async function openAdd(page: Page) {
  await page.goto("/userManagement");
  await page.getByRole("link", { name: "Add user" }).click();
  await expect(page.getByRole("heading", { name: "Add a user" })).toBeVisible();
}

async function confirmRemove(page: Page, username: string) {
  await page.locator(`tr[data-username="${username}"]`).getByRole("link", { name: "Remove" }).click();
  await page.getByRole("button", { name: "Remove user" }).click();
}

test("an administrator adds a user with a new role, who then sees exactly the permitted menu", async ({ page, browser }) => {
  const role = await createRole(["ViewDevices", "ViewDashboards"]);
  const username = unique("op");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await openAdd(page);
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("E-mail").fill(`${username}@plant.example`);
  await page.getByLabel("Role").selectOption({ label: role.name });
  await page.getByLabel("Time zone").selectOption("Europe/Rome");
  await page.getByLabel("Password", { exact: true }).fill("Start-pass-1");
  await page.getByLabel("Repeat the password").fill("Start-pass-1");
  await page.getByLabel("Must choose a new password at the first sign-in").uncheck();
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully added user");
  const row = page.locator(`tr[data-username="${username}"]`);
  await expect(row).toContainText(role.name);
  await expect(row).toContainText("Europe/Rome");

  const other = await browser.newContext();
  const userPage = await other.newPage();
  await signIn(userPage, username, "Start-pass-1");
  await expect(userPage).toHaveURL(/\/devices$/);
  const nav = userPage.getByRole("navigation", { name: "Main menu" });
  await expect(nav.getByRole("link", { name: "Project State" })).toBeVisible();
  await expect(nav.getByText("Dashboard", { exact: true }).first()).toBeAttached();
  for (const hidden of ["User Management", "Role Management", "Global Settings"]) {
    await expect(userPage.getByRole("link", { name: hidden })).toHaveCount(0);
  }
  expect((await userPage.goto("/userManagement"))?.status()).toBe(403);
  await other.close();
});

test("editing keeps what was typed on errors and detects concurrent changes", async ({ page }) => {
  const user = await createUser("Viewer");
  const taken = await createUser("Viewer");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/userManagement");
  await page.locator(`tr[data-username="${user.username}"]`).getByRole("link", { name: "Edit" }).click();

  // A username someone else has: the logger's words, the typed e-mail kept.
  await page.getByLabel("Username", { exact: true }).fill(taken.username.toUpperCase());
  await page.getByLabel("E-mail").fill("typed@plant.example");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/already taken/i)).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("typed@plant.example");

  // Someone else saves meanwhile: refused with a clear message instead of overwriting.
  await page.getByLabel("Username", { exact: true }).fill(user.username);
  const { User } = await rpc<{ User: Record<string, unknown> }>("GI.system/UserManagementAPI.GetUser", { ID: user.id });
  await rpc("GI.system/UserManagementAPI.SetUser", { User: { ID: user.id, EMail: "meanwhile@plant.example", Version: User.Version } });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Someone else changed this user meanwhile", { exact: false })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("typed@plant.example");

  await page.goto(`/userManagement?edit=${user.id}`);
  await expect(page.getByLabel("E-mail")).toHaveValue("meanwhile@plant.example");
  await page.getByLabel("E-mail").fill("not-an-email");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await page.getByLabel("E-mail").fill("final@plant.example");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully saved changes");
  await expect(page.locator(`tr[data-username="${user.username}"]`)).toContainText("final@plant.example");
});

test("password rules, reset and removal with confirmation", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const username = unique("pw");
  await openAdd(page);
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Role").selectOption({ label: "Viewer" });
  await page.getByLabel("Password", { exact: true }).fill(username);
  await page.getByLabel("Repeat the password").fill(username);
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByText("The password must not be the username.")).toBeVisible();
  await expect(page.getByLabel("Username", { exact: true })).toHaveValue(username);
  await page.getByLabel("Password", { exact: true }).fill("Good-pass-1");
  await page.getByLabel("Repeat the password").fill("Good-pass-1");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully added user");

  const row = page.locator(`tr[data-username="${username}"]`);
  await row.getByRole("link", { name: "Reset password" }).click();
  await page.getByLabel("New password").fill("Reset-pass-2");
  await page.getByLabel("Repeat the password").fill("Reset-pass-2");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully saved changes");

  await confirmRemove(page, username);
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully removed user");
  await expect(page.locator(`tr[data-username="${username}"]`)).toHaveCount(0);
});

test("the last administrator and oneself cannot be removed; search and sort work", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/userManagement");
  await confirmRemove(page, "admin");
  await expect(page.getByTestId("toast-error")).toBeVisible();
  await expect(page.locator('tr[data-username="admin"]')).toHaveCount(1);

  const user = await createUser("Viewer");
  await page.goto(`/userManagement?q=${user.username}`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await page.goto("/userManagement?sort=username&dir=desc");
  const names = await page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-username") ?? ""));
  expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, undefined, { sensitivity: "base", numeric: true })));
});

test("every administrative change is in the audit trail, without passwords", async () => {
  const user = await createUser("Viewer");
  const { Messages } = await rpc<{ Messages: { Sender: string; Text: string }[] }>("GI.system/MessagingAPI.GetMessages", {
    Filter: { Sender: "admin", Topic: "Audit", Type: "" },
    From: "",
    To: "",
    Limit: 50,
    Offset: 0,
  });
  expect(Messages.some((m) => m.Text.includes(user.username))).toBe(true);
  expect(Messages.every((m) => !m.Text.includes(user.password))).toBe(true);
});

test("an administrator cannot demote the last Administrator, not even themselves", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const { Users } = await rpc<{ Users: { ID: number; Username: string; Role: number }[] }>("GI.system/UserManagementAPI.GetUsers", {});
  const me = Users.find((u) => u.Username === "admin")!;
  // The premise: other tests must not leave a second Administrator (then demoting would be allowed
  // and every later test signed in as admin would fail).
  const admins = await roleId("Administrator");
  expect(Users.filter((u) => u.Role === admins).map((u) => u.Username)).toEqual(["admin"]);
  await page.goto(`/userManagement?edit=${me.ID}`);
  await page.getByLabel("Role").selectOption({ label: "Viewer" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/Administrator/).filter({ hasText: /last|only/i }).first()).toBeVisible();
  await page.goto("/userManagement");
  await expect(page.locator('tr[data-username="admin"]')).toContainText("Administrator");
});
