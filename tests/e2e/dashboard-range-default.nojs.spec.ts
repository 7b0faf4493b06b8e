import { ADMIN_PASSWORD, createDashboardInManager, expect, rpc, signInDirect, test, unique } from "./fixtures";

// A dashboard's stored default range is chosen from the quick ranges (15 min … 30 d); a
// dashboard stored with the older 5 min keeps it. Plain form posts: works without JavaScript.

async function dashboardByName(name: string) {
  return (await rpc<{ List: { ID: string; Name: string }[] }>("WebUIAPI.List", {})).List.find((d) => d.Name === name);
}

test("the default range offers every quick range, is stored and opens the dashboard with it", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const name = unique("Ranges ");
  await createDashboardInManager(page, name);
  const { ID } = (await dashboardByName(name))!;
  try {
    const select = page.getByTestId("settings-form").getByLabel("Default time range");
    expect(await select.locator("option").allTextContents()).toEqual(["15 min", "1 h", "6 h", "24 h", "7 d", "30 d"]);
    await select.selectOption("30d");
    await page.getByTestId("settings-form").getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Successfully saved changes")).toBeVisible();
    const stored = await rpc<{ Dashboard: { Content: { Range: string } } }>("WebUIAPI.GetDashboard", { ID });
    expect(stored.Dashboard.Content.Range).toBe("30d");
    await expect(page.getByTestId("settings-form").getByLabel("Default time range")).toHaveValue("30d");

    await page.goto(`/dashboard?id=${ID}`);
    await expect(page.locator("[data-testid=quick-ranges] a[aria-current]")).toHaveText("30 d");

    // Stored with the older 5 min (by a script, or before): still valid, and offered while it is the stored one.
    await rpc("WebUIAPI.SaveDashboard", { Dashboard: { ID, Name: name, Content: { Range: "5m", Widgets: [] } } });
    await page.goto(`/dashboardManager?edit=${ID}`);
    const again = page.getByTestId("settings-form").getByLabel("Default time range");
    await expect(again).toHaveValue("5m");
    expect(await again.locator("option").allTextContents()).toEqual(["5 min", "15 min", "1 h", "6 h", "24 h", "7 d", "30 d"]);
    await page.getByTestId("settings-form").getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Successfully saved changes")).toBeVisible();
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID });
  }
});
