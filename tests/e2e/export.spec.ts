import { readFile } from "node:fs/promises";
import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";
import { variableIds } from "./history";

test("with JavaScript the export shows its progress, resamples and can be cancelled", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const ids = await variableIds();
  await page.goto(`/export?v=${ids["Oil temperature"]}&span=preset&range=5m&mode=resampled&interval=1&aggregate=last&time=epoch`);
  const form = page.getByTestId("export-form");
  const [download] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download CSV" }).click()]);
  await expect(page.getByTestId("export-progress")).toContainText("rows");
  expect(download.suggestedFilename()).toMatch(/_Oil-temperature_last-1s\.csv$/);
  const lines = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
  expect(lines[0]).toBe("time,Oil temperature [°C]");
  expect(lines.length - 1).toBeGreaterThanOrEqual(299);
  expect(lines.length - 1).toBeLessThanOrEqual(301);
  expect(Number(lines[2]!.split(",")[0]) - Number(lines[1]!.split(",")[0])).toBe(1000);
  // The count is of data rows: the file's lines less its header.
  await expect(page.getByTestId("export-progress")).toContainText(`${lines.length - 1} data rows`);

  // A long raw export, cancelled while it streams.
  await page.goto(`/export?v=${ids["Oil temperature"]}&v=${ids["Vibration"]}&span=preset&range=7d`);
  await form.getByRole("button", { name: "Download CSV" }).click();
  await expect(page.getByTestId("export-progress")).toContainText("so far");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("export-progress")).toHaveText("Export cancelled");
  await expect(form.getByRole("button", { name: "Download CSV" })).toBeEnabled();
});
