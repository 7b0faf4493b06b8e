import { ADMIN_PASSWORD, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";
import { recordMeasurement } from "./history";

test("edit a device's metadata as a form, with keys suggested from existing ones", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
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

test("metadata form errors: next to the field, the logger's refusal above, what was typed kept", async ({ page, javaScriptEnabled }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const m = await recordMeasurement("Gone ", 300);
  await page.goto(`/metadata?type=measurement&id=${m.ID}`);
  const form = page.getByTestId("metadata-form");
  await form.getByLabel("Key").fill(" ");
  await form.getByLabel("Value").fill("kept value");
  await form.getByRole("button", { name: "Set" }).click();
  const key = page.getByTestId("metadata-form").getByLabel("Key");
  await expect(key).toHaveAttribute("aria-invalid", "true");
  const describedBy = await key.getAttribute("aria-describedby");
  await expect(page.locator(`[id="${describedBy}"]`)).toHaveText("Enter a key (1–64 characters).");
  await expect(page.getByTestId("metadata-form").getByLabel("Value")).toHaveValue("kept value");
  await expect(page.getByTestId("metadata-form").getByLabel("Value")).not.toHaveAttribute("aria-invalid", "true");

  // The measurement disappears meanwhile: the logger's answer is shown.
  const res = await fetch(`${LOGGER}/history/structure/measurements/${m.ID}`, { method: "DELETE", headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  expect(res.status).toBe(200);
  await page.getByTestId("metadata-form").getByLabel("Key").fill("Operator");
  await page.getByTestId("metadata-form").getByRole("button", { name: "Set" }).click();
  await expect(page.getByTestId("form-error")).toContainText(`Unknown measurement ${m.ID}`);
  if (javaScriptEnabled) {
    // The page stays as it was (no reload after a refusal): the entry is kept for another try.
    await expect(page.getByTestId("metadata-form").getByLabel("Key")).toHaveValue("Operator");
    await expect(page.getByTestId("metadata-form").getByLabel("Value")).toHaveValue("kept value");
  } else {
    // The reloaded page no longer finds the measurement and says so.
    await expect(page.getByText("This object does not exist (any more).")).toBeVisible();
  }
});
