import { createRole, createUser, expect, LOGGER, signIn, test, token } from "./fixtures";

// Permission matrix: each admin screen refuses GET and POST without its permission (403), and
// the logger refuses the underlying call too — hiding a menu entry is not security.
const MATRIX: { path: string; permission: string; rpc: string; form: Record<string, string> }[] = [
  { path: "/userManagement", permission: "ManageUsers", rpc: "GI.system/UserManagementAPI.GetUsers", form: { intent: "remove", id: "1", confirm: "yes" } },
  { path: "/roleManagement", permission: "ManageRoles", rpc: "GI.system/UserManagementAPI.AddRole", form: { intent: "remove", id: "1", confirm: "yes" } },
  { path: "/globalSettings", permission: "ManageGlobalSettings", rpc: "AdminAPI.SetGlobalSettings", form: { intent: "general", DefaultStartPage: "settings" } },
];

for (const row of MATRIX) {
  test(`${row.path} needs ${row.permission}`, async ({ page, baseURL }) => {
    const others = MATRIX.map((r) => r.permission).filter((p) => p !== row.permission);
    const role = await createRole(others);
    const user = await createUser(role.id);
    await signIn(page, user.username, user.password);

    const get = await page.goto(row.path);
    expect(get?.status()).toBe(403);
    await expect(page.getByTestId("error-403")).toBeVisible();
    const post = await page.request.post(row.path, { form: row.form, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(post.status()).toBe(403);

    const bearer = await token(user.username, user.password);
    const res = await fetch(`${LOGGER}/rpc/${row.rpc}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
      body: JSON.stringify(row.rpc.endsWith("AddRole") ? { Role: { Name: "x", Permissions: [] } } : row.rpc.endsWith("SetGlobalSettings") ? { Config: { DefaultStartPage: "x" } } : {}),
    });
    expect(res.status).toBe(403);

    // With the permission the same screen opens.
    const allowed = await createUser((await createRole([row.permission])).id);
    await page.goto("/logout");
    await signIn(page, allowed.username, allowed.password);
    expect((await page.goto(row.path))?.status()).toBe(200);
  });
}
