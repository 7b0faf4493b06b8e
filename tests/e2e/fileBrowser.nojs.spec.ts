import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createRole, createUser, expect, signInDirect, test, unique } from "./fixtures";

// Runs with JavaScript (XHR upload with progress, dialog confirmation) and without (plain
// multipart form, confirmation page): the same clicks work in both.

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

function rowOf(page: Page, name: string) {
  return page.locator(`tr[data-entry="${name}"]`);
}

async function newFolder(page: Page, name: string) {
  await page.getByLabel("Folder name").fill(name);
  await page.getByRole("button", { name: "Create folder" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText(`Folder ${name} created`);
}

async function upload(page: Page, name: string, mimeType: string, buffer: Buffer, stored = name) {
  await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType, buffer });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("toast-success")).toHaveText(`${stored} uploaded`);
}

test("creates a folder, uploads, previews, downloads, renames and deletes files", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/fileBrowser");
  await expect(page.getByRole("heading", { name: "File browser" })).toBeVisible();
  const folder = unique("run");
  await newFolder(page, folder);
  await rowOf(page, folder).getByRole("link", { name: folder }).click();
  await expect(page.getByTestId("breadcrumbs")).toContainText(folder);
  await expect(page.getByText("This folder is empty.")).toBeVisible();

  await upload(page, "values.csv", "text/csv", Buffer.from("time,temperature\n1,20.5\n2,21.25\n"));
  await expect(rowOf(page, "values.csv").getByRole("cell").nth(2)).toHaveText("32 B");
  await rowOf(page, "values.csv").getByRole("link", { name: "values.csv" }).click();
  const csv = page.getByTestId("csv-preview");
  await expect(csv.getByRole("row")).toHaveCount(3);
  await expect(csv.getByRole("row").nth(2)).toHaveText("221.25");

  await upload(page, "notes.txt", "text/plain", Buffer.from("hello <b>there</b>"));
  await rowOf(page, "notes.txt").getByRole("link", { name: "notes.txt" }).click();
  await expect(page.getByTestId("preview").locator("pre")).toHaveText("hello <b>there</b>");

  await upload(page, "dot.png", "image/png", PNG);
  await rowOf(page, "dot.png").getByRole("link", { name: "dot.png" }).click();
  const img = page.getByTestId("preview").getByRole("img", { name: "dot.png" });
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);

  const [download] = await Promise.all([page.waitForEvent("download"), rowOf(page, "notes.txt").getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe("notes.txt");

  // A name with a separator is refused with the rule, keeping what was typed.
  await rowOf(page, "notes.txt").getByRole("link", { name: "Rename" }).click();
  await page.getByLabel("New name").fill("../escape.txt");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText(/Names may not be \. or \.\., nor contain \//)).toBeVisible();
  await expect(page.getByLabel("New name")).toHaveValue("../escape.txt");
  await page.getByLabel("New name").fill("renamed.txt");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Renamed to renamed.txt");
  await expect(rowOf(page, "renamed.txt")).toBeVisible();
  await expect(rowOf(page, "notes.txt")).toHaveCount(0);

  // The same name again is a clear error.
  await upload(page, "other.txt", "text/plain", Buffer.from("x"));
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "other.txt", mimeType: "text/plain", buffer: Buffer.from("y") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("A file or folder named other.txt already exists here.")).toBeVisible();

  await rowOf(page, "renamed.txt").getByRole("link", { name: "Remove" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("renamed.txt deleted");
  await expect(rowOf(page, "renamed.txt")).toHaveCount(0);

  await page.getByTestId("breadcrumbs").getByRole("link", { name: "Data root" }).click();
  await rowOf(page, folder).getByRole("link", { name: "Remove" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText(`${folder} deleted`);
});

test("uploaded names are sanitised and paths leaving the root are refused", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/fileBrowser");
  const folder = unique("safe");
  await newFolder(page, folder);
  await page.goto(`/fileBrowser?path=${folder}`);
  await upload(page, "a:b?.txt", "text/plain", Buffer.from("z"), "a_b_.txt");
  await expect(rowOf(page, "a_b_.txt")).toBeVisible();

  for (const path of ["../", "/etc", "..%2f..", `${folder}/../..`]) {
    await page.goto(`/fileBrowser?path=${encodeURIComponent(path)}`);
    await expect(page.getByTestId("form-error")).toContainText(/not allowed|Invalid path/);
  }
  const raw = await page.request.get("/fileBrowser/raw?path=../logger.db");
  expect(raw.status()).toBe(400);
});

test("needs UseFilebrowser", async ({ page }) => {
  const role = await createRole(["ViewDashboards"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  const res = await page.goto("/fileBrowser");
  expect(res?.status()).toBe(403);
  const allowed = await createRole(["UseFilebrowser"]);
  const other = await createUser(allowed.id);
  await page.context().clearCookies();
  await signInDirect(page, other.username, other.password);
  expect((await page.goto("/fileBrowser"))?.status()).toBe(200);
});
