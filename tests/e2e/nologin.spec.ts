import { ADMIN_PASSWORD, expect, rpc, setGlobalSettings, test, token } from "./fixtures";

test("with login not required the console shows the Features list without user section", async ({ page }) => {
  const admin = await token("admin", ADMIN_PASSWORD);
  const { Config } = await rpc<{ Config: Record<string, unknown> }>("AdminAPI.GetGlobalSettings", {}, admin);
  await setGlobalSettings({ LoginRequired: false, Features: ["versionInfo", "dashboard"] });
  try {
    await page.goto("/");
    // device rule without login: /devices, but devices is not in Features → 404 there.
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByTestId("user-menu")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Logout" })).toHaveCount(0);
    expect((await page.goto("/devices"))?.status()).toBe(404);
    expect((await page.goto("/versionInfo"))?.status()).toBe(200);
    await page.goto("/signin");
    await expect(page).not.toHaveURL(/\/signin/);
  } finally {
    await rpc("AdminAPI.SetGlobalSettings", { Config: { LoginRequired: true, Features: Config.Features } }, admin);
  }
  await page.goto("/versionInfo");
  await expect(page).toHaveURL(/\/signin\?redirect_uri=\/versionInfo$/);
});
