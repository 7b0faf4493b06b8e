import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

// Issue 15 §9 / spec §4, §9: the eight layouts, the layout types and the sidebar widths are
// offered in User Settings (a plain form) and each draws a distinct, sensible shell.

async function choose(page: Page, options: { layout: string; type?: string; width?: string }) {
  await page.goto("/settings");
  await page.getByLabel("Menu layout").selectOption(options.layout);
  if (options.type) await page.getByLabel("Page width").selectOption(options.type);
  if (options.width) await page.getByLabel("Sidebar width").selectOption(options.width);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("saved").first()).toBeVisible();
  await page.goto("/versionInfo");
  await expect(page.locator("[data-layout]")).toHaveAttribute("data-layout", options.layout);
}

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

test("User Settings offers the eight layouts, three layout types and three sidebar widths with their defaults", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/settings");
  const values = (label: string) => page.getByLabel(label).locator("option").evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  expect(await values("Menu layout")).toEqual([
    "horizontal-minimal",
    "vertical-default",
    "vertical-minimal",
    "vertical-minimal-no-header",
    "vertical-modern-sidebar",
    "horizontal-default",
    "horizontal-dark",
    "horizontal-top-menu",
  ]);
  expect(await values("Page width")).toEqual(["full-width", "boxed", "framed"]);
  expect(await values("Sidebar width")).toEqual(["280", "304", "330"]);
  await expect(page.getByLabel("Menu layout")).toHaveValue("horizontal-minimal");
  await expect(page.getByLabel("Page width")).toHaveValue("full-width");
  await expect(page.getByLabel("Sidebar width")).toHaveValue("304");
  expect((await box(page, "header")).height).toBe(76);
});

test("vertical layouts draw a sidebar of the chosen width; the Dashboard menu stays inside it", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const name = unique("A dashboard with a rather long title ");
  await rpc("WebUIAPI.SaveDashboard", { Dashboard: { Name: name, Content: { Widgets: [] } } });
  for (const [layout, width] of [["vertical-default", 280], ["vertical-minimal", 330], ["vertical-modern-sidebar", 304]] as const) {
    await choose(page, { layout, width: String(width) });
    const sidebar = page.getByTestId("sidebar");
    await expect(sidebar).toBeVisible();
    expect(Math.round((await sidebar.boundingBox())!.width), layout).toBe(width);
    expect((await box(page, "header")).height).toBe(76);
    await expect(page.getByRole("navigation", { name: "Main menu" })).toHaveCount(0);
    // The Dashboard group with its Dashboard Selection opens inside the sidebar.
    await sidebar.getByText("Dashboard", { exact: true }).first().click();
    const list = sidebar.getByTestId("dashboard-selection");
    await expect(list).toBeVisible();
    const s = (await sidebar.boundingBox())!;
    const l = (await list.boundingBox())!;
    expect(l.x).toBeGreaterThanOrEqual(s.x);
    expect(l.x + l.width, layout).toBeLessThanOrEqual(s.x + s.width + 0.5);
  }
  // The modern sidebar is a dark floating panel.
  const bg = await page.getByTestId("sidebar").evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(bg).not.toBe("rgb(255, 255, 255)");
  expect(await page.getByTestId("sidebar").getAttribute("data-chrome")).toBe("dark");
});

test("vertical-minimal-no-header has no top bar on a wide screen and a bar with the drawer on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await choose(page, { layout: "vertical-minimal-no-header" });
  const header = await box(page, "header");
  const sidebar = (await page.getByTestId("sidebar").boundingBox())!;
  const main = await box(page, "main");
  // The logo and user menu head the sidebar; the page content starts at the top of the window.
  expect(header.width).toBeLessThanOrEqual(sidebar.width + 1);
  expect(main.y).toBe(0);
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.setViewportSize({ width: 420, height: 800 });
  await expect(page.getByTestId("sidebar")).toBeHidden();
  await page.getByTestId("drawer-toggle").click();
  await expect(page.getByTestId("sidebar")).toBeVisible();
});

test("horizontal layouts: menu in the header, on a bar under it, dark, or as a top menu", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const menu = page.getByRole("navigation", { name: "Main menu" });
  for (const layout of ["horizontal-minimal", "horizontal-top-menu", "horizontal-default", "horizontal-dark"]) {
    await choose(page, { layout });
    await expect(menu).toBeVisible();
    await expect(page.getByTestId("sidebar")).toHaveCount(0);
    const inHeader = (await page.locator("header nav").count()) > 0;
    expect(inHeader, layout).toBe(layout === "horizontal-minimal" || layout === "horizontal-top-menu");
    const header = await box(page, "header");
    expect(header.height).toBe(76);
    if (!inHeader) expect((await menu.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + 76);
    const headerBg = await page.locator("header").evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(headerBg === "rgb(255, 255, 255)", layout).toBe(layout !== "horizontal-dark");
  }
});

test("boxed and framed layout types", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.setViewportSize({ width: 1600, height: 900 });
  await choose(page, { layout: "horizontal-minimal", type: "boxed" });
  const shell = () => page.locator("[data-layout]").boundingBox();
  expect(Math.round((await shell())!.width)).toBe(1300);
  await page.setViewportSize({ width: 2000, height: 1000 });
  expect(Math.round((await shell())!.width)).toBe(1740);
  await choose(page, { layout: "horizontal-minimal", type: "framed" });
  await page.setViewportSize({ width: 1500, height: 900 });
  expect((await shell())!.x).toBeGreaterThan(0);
  await page.setViewportSize({ width: 1300, height: 900 });
  expect((await shell())!.x).toBe(0);
  expect(Math.round((await shell())!.width)).toBe(1300);
});
