import { ADMIN_PASSWORD, expect, rpc, signInDirect, test } from "./fixtures";

// Issue 29: the Simple Config screen says how many days of history the disk holds at the
// configured rate, from the logger's ConfigAPI.GetStorage (with JavaScript on and off).

type Storage = { FreeBytes: number | null; StoreBytes: number; BytesPerSample: number; SamplesPerDay: number; RetentionSec: number | null };

test("Simple Config says how many days this disk holds at this rate", async ({ page }) => {
  const { Storage: s } = await rpc<{ Storage: Storage }>("ConfigAPI.GetStorage", {});
  expect(s.FreeBytes).toBeGreaterThan(0);
  expect(s.SamplesPerDay).toBeGreaterThan(0);
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/config");
  const estimate = page.getByTestId("disk-estimate");
  await expect(estimate).toContainText(/^At this rate this disk holds ~[\d,]+ days? of history: [\d.]+ [kMGT]?B a day at \d\.\d\d bytes per sample, [\d.]+ [kMGT]?B free\./);
  // The same figures the logger gives (they move a little as the store grows).
  const days = Number(/~([\d,]+) day/.exec((await estimate.textContent()) ?? "")![1]!.replaceAll(",", ""));
  const expected = ((s.FreeBytes ?? 0) + s.StoreBytes) / (s.SamplesPerDay * s.BytesPerSample);
  expect(Math.abs(days - expected)).toBeLessThanOrEqual(Math.max(2, expected * 0.02));
  await expect(estimate).toContainText(/The retention of 90 days (keeps about [\d.]+ [kMGT]?B: it fits|needs about [\d.]+ [kMGT]?B: the disk fills up first)\./);
});
