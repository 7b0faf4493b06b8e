import { ADMIN_PASSWORD, createRole, createUser, expect, LOGGER, signInDirect, signOut, test, token } from "./fixtures";

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
    await signInDirect(page, user.username, user.password);

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
    await signOut(page);
    await signInDirect(page, allowed.username, allowed.password);
    expect((await page.goto(row.path))?.status()).toBe(200);
  });
}

test("a dashboard's chart buckets (/dashboard/series) need ViewDashboards and a valid query", async ({ page }) => {
  const { List } = await (async () => {
    const bearer = await token("admin", ADMIN_PASSWORD);
    const res = await fetch(`${LOGGER}/rpc/WebUIAPI.List`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` }, body: "{}" });
    return (await res.json()) as { List: { ID: string; Name: string }[] };
  })();
  // The seeded demo dashboard, which has charts (other tests add dashboards of their own).
  const id = List.find((d) => d.Name === "Test cell dashboard")!.ID;
  const now = Date.now();
  const url = `/dashboard/series?id=${id}&from=${now - 3_600_000}&to=${now}`;

  const none = await createUser((await createRole(["ViewDevices"])).id);
  await signInDirect(page, none.username, none.password);
  expect((await page.request.get(url)).status()).toBe(403);

  await signOut(page);
  const viewer = await createUser((await createRole(["ViewDashboards"])).id);
  await signInDirect(page, viewer.username, viewer.password);
  const ok = await page.request.get(url);
  expect(ok.status()).toBe(200);
  const body = (await ok.json()) as { from: number; to: number; widgets: Record<string, { size?: number; values?: unknown[] }> };
  expect(body.to - body.from).toBe(3_600_000);
  expect(Object.values(body.widgets).some((w) => (w.size ?? 0) > 0 && Array.isArray(w.values))).toBe(true);
  expect((await page.request.get(`/dashboard/series?id=${id}&from=${now}&to=${now - 1}`)).status()).toBe(400);
  expect((await page.request.get(`/dashboard/series?id=no-such-dashboard&from=1&to=2`)).status()).toBe(404);
});
