import { ADMIN_PASSWORD, expect, rpc, setGlobalSettings, test, token } from "./fixtures";

// Issue 15 §9: no-login mode can switch off every screen, also those needing no permission.
test("the no-login Features list switches the screens that need no permission", async ({ page }) => {
  const admin = await token("admin", ADMIN_PASSWORD);
  const { Config } = await rpc<{ Config: Record<string, unknown> }>("AdminAPI.GetGlobalSettings", {}, admin);
  await setGlobalSettings({ LoginRequired: false, Features: ["versionInfo", "traceLog"] });
  try {
    expect((await page.goto("/traceLog"))?.status()).toBe(200);
    for (const path of ["/vncview", "/canscanner", "/changelogUI", "/help"]) expect((await page.goto(path))?.status(), path).toBe(404);
    await page.goto("/versionInfo");
    await expect(page.getByRole("link", { name: "Changelog" })).toHaveCount(0);
  } finally {
    await rpc("AdminAPI.SetGlobalSettings", { Config: { LoginRequired: true, Features: Config.Features } }, admin);
  }
});
