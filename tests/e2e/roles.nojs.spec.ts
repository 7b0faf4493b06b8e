import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createRole, createUser, expect, roleId, rpc, signInDirect, test, unique } from "./fixtures";

// Runs with JavaScript on (project js) and off (project nojs): every step is a plain click on
// a link or button, which the enhanced and the HTML-only page both answer.

type Role = { ID: number; Name: string; Description: string; Permissions: string[]; BuiltIn: boolean; Version: number };

async function getRole(id: number): Promise<Role> {
  const { Roles } = await rpc<{ Roles: Role[] }>("GI.system/UserManagementAPI.GetRoles", {});
  return Roles.find((r) => r.ID === id)!;
}

function rowOf(page: Page, name: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

async function openRoles(page: Page) {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/roleManagement");
}

test("adds a role with permissions", async ({ page }) => {
  await openRoles(page);
  await page.getByRole("link", { name: "Add role" }).click();
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(page.getByText("Enter a name for the role.")).toBeVisible();

  const name = unique("Auditors");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Description", { exact: true }).fill("Reads logs and dashboards");
  await page.getByLabel("ViewLogs", { exact: true }).check();
  await page.getByLabel("ViewDashboards", { exact: true }).check();
  await page.getByRole("button", { name: "Add role" }).click();

  await expect(page.getByTestId("toast-success")).toHaveText("Successfully added role");
  const row = rowOf(page, name);
  await expect(row.getByRole("cell")).toHaveText(["Reads logs and dashboards", "2", "0", "", /Edit/]);
  const { Roles } = await rpc<{ Roles: Role[] }>("GI.system/UserManagementAPI.GetRoles", {});
  expect(Roles.find((r) => r.Name === name)?.Permissions.toSorted()).toEqual(["ViewDashboards", "ViewLogs"]);
});

test("edits a role's description and permissions", async ({ page }) => {
  const role = await createRole(["ViewDashboards"]);
  await openRoles(page);
  await rowOf(page, role.name).getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: `Edit role ${role.name}` })).toBeVisible();
  await expect(page.getByLabel("ViewDashboards", { exact: true })).toBeChecked();
  await page.getByLabel("Description", { exact: true }).fill("Exports data");
  await page.getByLabel("ViewDashboards", { exact: true }).uncheck();
  await page.getByLabel("UseExport", { exact: true }).check();
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page.getByTestId("toast-success")).toHaveText("Successfully saved changes");
  await expect(rowOf(page, role.name).getByRole("cell").first()).toHaveText("Exports data");
  const stored = await getRole(role.id);
  expect(stored.Description).toBe("Exports data");
  expect(stored.Permissions).toEqual(["UseExport"]);
});

test("removes a role after confirmation", async ({ page }) => {
  const role = await createRole([]);
  await openRoles(page);
  await rowOf(page, role.name).getByRole("link", { name: "Remove" }).click();
  await expect(page.getByText(`Remove the role ${role.name}?`)).toBeVisible();
  await page.getByRole("button", { name: "Remove role" }).click();

  await expect(page.getByTestId("toast-success")).toHaveText("Successfully removed role");
  await expect(rowOf(page, role.name)).toHaveCount(0);
  const { Roles } = await rpc<{ Roles: Role[] }>("GI.system/UserManagementAPI.GetRoles", {});
  expect(Roles.some((r) => r.ID === role.id)).toBe(false);
});

test("a role still held by users is not removed and the logger names them", async ({ page }) => {
  const role = await createRole(["ViewDashboards"]);
  const alice = await createUser(role.id);
  const bob = await createUser(role.id);
  await openRoles(page);
  await expect(rowOf(page, role.name).getByRole("cell").nth(2)).toHaveText("2");
  await rowOf(page, role.name).getByRole("link", { name: "Remove" }).click();
  await page.getByRole("button", { name: "Remove role" }).click();

  const error = page.getByTestId("form-error");
  await expect(error).toHaveText(`Role ${role.name} is still held by: ${alice.username}, ${bob.username}`);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(rowOf(page, role.name)).toHaveCount(1);
});

test("a duplicate name is refused with the logger's text and the input is kept", async ({ page }) => {
  await openRoles(page);
  await page.getByRole("link", { name: "Add role" }).click();
  await page.getByLabel("Name", { exact: true }).fill("operator");
  await page.getByLabel("Description", { exact: true }).fill("A second operator role");
  await page.getByLabel("UseMonitor", { exact: true }).check();
  await page.getByRole("button", { name: "Add role" }).click();

  await expect(page.getByTestId("form-error")).toHaveText("A role named Operator already exists");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("operator");
  await expect(page.getByLabel("Description", { exact: true })).toHaveValue("A second operator role");
  await expect(page.getByLabel("UseMonitor", { exact: true })).toBeChecked();
});

test("a concurrent change is reported, keeps the input, and a second save overwrites it", async ({ page }) => {
  const role = await createRole(["ViewDashboards"]);
  await openRoles(page);
  await rowOf(page, role.name).getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Description", { exact: true }).fill("Mine");
  await page.getByLabel("UseExport", { exact: true }).check();
  // Someone else saves the role while the form is open.
  await rpc("GI.system/UserManagementAPI.SetRole", { Role: { ID: role.id, Description: "Theirs" } });
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page.getByTestId("form-error")).toContainText("Someone else changed this role while you were editing it.");
  await expect(page.getByLabel("Description", { exact: true })).toHaveValue("Mine");
  await expect(page.getByLabel("UseExport", { exact: true })).toBeChecked();
  await expect(page.getByLabel("ViewDashboards", { exact: true })).toBeChecked();
  expect((await getRole(role.id)).Description).toBe("Theirs");

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Successfully saved changes");
  const stored = await getRole(role.id);
  expect(stored.Description).toBe("Mine");
  expect(stored.Permissions.toSorted()).toEqual(["UseExport", "ViewDashboards"]);
});

test("the Administrator role keeps its name and every permission", async ({ page, baseURL }) => {
  const id = await roleId("Administrator");
  await openRoles(page);
  const row = rowOf(page, "Administrator");
  await expect(row).toContainText("Built-in");
  await expect(row.getByRole("link", { name: "Remove" })).toHaveCount(0);
  await row.getByRole("link", { name: "Edit" }).click();

  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("readonly", "");
  const boxes = page.getByRole("checkbox");
  await expect(boxes).toHaveCount(17);
  for (const box of await boxes.all()) {
    await expect(box).toBeChecked();
    await expect(box).toBeDisabled();
  }

  // Even a hand-made post cannot rename it or take a permission away.
  const before = await getRole(id);
  const res = await page.request.post(`/roleManagement?edit=${id}`, {
    form: { intent: "edit", id: String(id), version: String(before.Version), name: "Boss", description: before.Description, permissions: "ViewDashboards" },
    headers: { Origin: baseURL! },
  });
  expect(res.status()).toBe(200);
  const after = await getRole(id);
  expect(after.Name).toBe("Administrator");
  expect(after.Permissions).toHaveLength(17);
});

test("the table sorts through the query string", async ({ page }) => {
  await openRoles(page);
  await page.getByRole("link", { name: /^Permissions/ }).click();
  await expect(page).toHaveURL(/sort=permissions&dir=asc/);
  await page.getByRole("link", { name: /^Permissions/ }).click();
  await expect(page).toHaveURL(/sort=permissions&dir=desc/);
  await expect(page.getByRole("rowheader").first()).toHaveText("Administrator");
});

test("without ManageRoles the screen and its action answer 403", async ({ page, baseURL }) => {
  const role = await createRole([]);
  const user = await createUser("Operator");
  await signInDirect(page, user.username, user.password);
  const view = await page.goto("/roleManagement");
  expect(view?.status()).toBe(403);
  const post = await page.request.post("/roleManagement", {
    form: { intent: "remove", id: String(role.id), confirm: "yes" },
    headers: { Origin: baseURL! },
  });
  expect(post.status()).toBe(403);
  expect((await getRole(role.id))?.ID).toBe(role.id);
});
