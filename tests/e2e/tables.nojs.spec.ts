import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

// Issue 15 §8: every list screen uses the one DataTable — a named table, the same header look,
// column sorting through links (no JavaScript needed) — and the same content width rule.

const LISTS = ["/userManagement", "/roleManagement", "/alarming", "/fileBrowser", "/dashboardManager", "/vncview", "/log", "/measurementUI", "/traceLog", "/metadata"];

test.beforeEach(async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
});

test("list screens share one table look and one width rule", async ({ page }) => {
  const looks = new Set<string>();
  const widths = new Set<string>();
  for (const path of LISTS) {
    await page.goto(path);
    const table = page.locator("main table").first();
    await expect(table, path).toBeVisible();
    // Named by a caption, read by screen readers.
    await expect(table.locator("caption"), path).toHaveCount(1);
    const head = table.locator("thead");
    looks.add(await head.evaluate((el) => `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el.querySelector("th")!).fontWeight} ${getComputedStyle(el.querySelector("th")!).paddingLeft}`));
    // The table scrolls inside its own box, never the page.
    expect(await table.evaluate((el) => getComputedStyle(el.parentElement!).overflowX), path).toBe("auto");
    widths.add(await page.locator("main > *").first().evaluate((el) => getComputedStyle(el).maxWidth));
  }
  expect([...looks], "one header style").toHaveLength(1);
  expect([...widths], "one content width").toHaveLength(1);
});

test("a sortable column sorts through its header link", async ({ page }) => {
  await page.goto("/userManagement");
  const header = page.getByRole("columnheader", { name: /E-mail/ });
  await expect(header).toHaveAttribute("aria-sort", "none");
  await header.getByRole("link").click();
  await expect(page).toHaveURL(/sort=email&dir=asc/);
  await expect(page.getByRole("columnheader", { name: /E-mail/ })).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("columnheader", { name: /E-mail/ }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=email&dir=desc/);
  await expect(page.getByRole("columnheader", { name: /E-mail/ })).toHaveAttribute("aria-sort", "descending");
});
