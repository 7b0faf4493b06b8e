import { ADMIN_PASSWORD, expect, rpc, signIn, test, unique } from "./fixtures";

test("edit a device's metadata as a form, with keys suggested from existing ones", async ({ page }) => {
  await signIn(page, "admin", ADMIN_PASSWORD);
  const { Devices } = await rpc<{ Devices: { ID: string; Name: string }[] }>("DeviceAPI.GetDevices", {});
  const device = Devices[0]!;
  const key = unique("Cell");
  try {
    await page.goto("/metadata");
    await page.getByTestId("metadata-target").getByLabel("Object").selectOption({ label: device.Name });
    await page.getByRole("button", { name: "Open" }).click();
    await expect(page.getByRole("heading", { name: `Device: ${device.Name}` })).toBeVisible();
    const form = page.getByTestId("metadata-form");
    await form.getByLabel("Key").fill(key);
    await form.getByLabel("Value").fill("Modena");
    await form.getByRole("button", { name: "Set" }).click();
    await expect(page.getByText("Metadata saved")).toBeVisible();
    await expect(page.getByTestId("metadata").locator(`tr[data-key="${key}"]`)).toContainText("Modena");
    await expect(page.locator(`#metadata-keys option[value="${key}"]`)).toHaveCount(1);
    await expect(page.getByTestId("metadata-all")).toContainText(key);
    await page.getByRole("button", { name: `Remove ${key}` }).click();
    await expect(page.getByText(`Key ${key} removed`)).toBeVisible();
    await expect(page.getByTestId("metadata").locator(`tr[data-key="${key}"]`)).toHaveCount(0);
  } finally {
    await rpc("MetaDataAPI.SetMetaData", { Type: "device", ID: device.ID, MetaData: [{ Key: key, Value: "" }] });
  }
});
