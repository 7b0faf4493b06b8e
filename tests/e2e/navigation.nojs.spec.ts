import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

// The one menu of the page: a bar from md up, the drawer the ☰ toggle opens below it (a
// <details>, so with and without JavaScript). With JavaScript its entries navigate in the app and
// the next screen's texts are loaded first.

test("on a phone the menu is a drawer that opens, leads to a screen and closes", async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/versionInfo");
  const nav = page.getByRole("navigation", { name: "Main menu" });
  await expect(nav).toBeHidden();
  await page.getByTestId("drawer-toggle").click();
  await expect(nav).toBeVisible();
  await nav.locator("summary", { hasText: "Tools" }).click();
  await nav.locator("summary", { hasText: "Advanced" }).click();
  await nav.getByRole("link", { name: "Monitor" }).click();
  await page.waitForURL((url) => url.pathname === "/monitor");
  await expect(page.getByRole("heading", { level: 1, name: "Monitor" })).toBeVisible();
  await expect(page.getByText("Variables to watch", { exact: true })).toBeVisible();
  await expect(nav).toBeHidden();
});

test("on a wide screen the menu is a bar; the current screen's entry is marked", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/versionInfo");
  const nav = page.getByRole("navigation", { name: "Main menu" });
  await expect(nav).toBeVisible();
  await expect(page.getByTestId("drawer-toggle")).toBeHidden();
  await nav.getByRole("link", { name: "Analytics" }).click();
  await page.waitForURL((url) => url.pathname === "/analytics");
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Analytics" })).toHaveAttribute("aria-current", "page");
  // The screen's own texts are there (no raw keys such as history.range.label).
  await expect(page.locator("main")).not.toContainText(/\b(history|dashboards)\.[a-z]+\.[a-z]/i);
  await expect(page.getByText("Time range").first()).toBeVisible();
});

test("with the sidebar layout the sidebar is the menu on a wide screen and the drawer on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/settings");
  await page.getByLabel("Menu layout").selectOption("vertical-default");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("saved").first()).toBeVisible();
  await page.goto("/versionInfo");
  const sidebar = page.getByRole("navigation", { name: "Sidebar" });
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main menu" })).toHaveCount(0);
  await page.setViewportSize({ width: 420, height: 800 });
  await expect(sidebar).toBeHidden();
  await page.getByTestId("drawer-toggle").click();
  await expect(sidebar).toBeVisible();
  await sidebar.getByRole("link", { name: "Analytics" }).click();
  await page.waitForURL((url) => url.pathname === "/analytics");
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await expect(sidebar).toBeHidden();
});
