import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

test.beforeEach(async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
});

test("edit a measurement's metadata, find it by that metadata, open it in Analytics, delete it", async ({ page }) => {
  const m = await recordMeasurement("Meta ", 800, [{ Key: "Operator", Value: "Anna" }]);
  // Newest first: the shared logger holds other specs' measurements too (imports of old
  // recordings among them), and the list shows 25 a page.
  await page.goto("/measurementUI?sort=start&dir=desc");
  const table = page.getByTestId("measurements-table");
  const row = table.locator(`tr[data-measurement="${m.Name}"]`);
  await expect(row).toContainText("100 Hz");
  await row.getByRole("link", { name: "Details" }).click();
  const details = page.getByTestId("measurement-details");
  await expect(details.getByRole("heading", { name: m.Name })).toBeVisible();
  await expect(details.getByTestId("metadata").locator('tr[data-key="Operator"]')).toContainText("Anna");

  const engine = unique("E-");
  const form = details.getByTestId("metadata-form");
  await form.getByLabel("Key").fill("Engine");
  await form.getByLabel("Value").fill(engine);
  await form.getByRole("button", { name: "Set" }).click();
  await expect(page.getByText("Metadata saved")).toBeVisible();
  await expect(details.getByTestId("metadata").locator('tr[data-key="Engine"]')).toContainText(engine);
  // A key without a name is refused on the form, the value kept.
  await form.getByLabel("Value").fill("orphan");
  await form.getByLabel("Key").fill(" ");
  await form.getByRole("button", { name: "Set" }).click();
  await expect(page.getByText("Enter a key (1–64 characters).")).toBeVisible();
  await expect(page.getByTestId("metadata-form").getByLabel("Value")).toHaveValue("orphan");

  // Find it by the metadata value.
  await page.goto("/measurementUI");
  await page.getByLabel("Metadata key").fill("Engine");
  await page.getByLabel("Metadata value").fill(engine);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("measurements-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("measurements-table").locator(`tr[data-measurement="${m.Name}"]`)).toBeVisible();

  await page.getByRole("link", { name: "Details" }).click();
  await page.getByRole("link", { name: "Open in Analytics" }).click();
  await expect(page).toHaveURL(new RegExp(`/analytics\\?.*m=${m.ID}`));
  await expect(page.getByTestId("statistics")).toBeVisible();

  await page.goBack();
  await page.getByTestId("measurement-details").getByRole("link", { name: "Delete" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(`Measurement ${m.Name} deleted`)).toBeVisible();
  await expect(page.getByTestId("measurements-table").locator(`tr[data-measurement="${m.Name}"]`)).toHaveCount(0);
});

test("find measurements by the metadata of their variables and device, with where it matched and suggested keys", async ({ page }) => {
  const { Devices } = await rpc<{ Devices: { ID: string; Modules: { Variables: string[] }[] }[] }>("DeviceAPI.GetDevices", {});
  const ids = await variableIds();
  const variable = ids["Oil temperature"]!;
  const device = Devices.find((d) => d.Modules.some((mod) => mod.Variables.includes(variable)))!;
  const sensorKey = unique("Sensor");
  const sensor = unique("PT100-");
  const siteKey = unique("Site");
  const set = (Type: string, ID: string, Key: string, Value: string) => rpc("MetaDataAPI.SetMetaData", { Type, ID, MetaData: [{ Key, Value }] });
  await set("variable", variable, sensorKey, sensor);
  await set("device", device.ID, siteKey, "Hall 7 north");
  try {
    const m = await recordMeasurement("VarMeta ", 600);
    await page.goto("/measurementUI");
    // Keys of variables and devices are suggested too.
    await expect(page.locator(`#meta-keys option[value="${sensorKey}"]`)).toBeAttached();
    await expect(page.locator(`#meta-keys option[value="${siteKey}"]`)).toBeAttached();
    await page.getByLabel("Metadata key").fill(sensorKey);
    await page.getByLabel("Metadata value").fill(sensor.toLowerCase());
    await page.getByRole("button", { name: "Apply" }).click();
    const table = page.getByTestId("measurements-table");
    const row = table.locator(`tr[data-measurement="${m.Name}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("matched-on")).toHaveText("(metadata of the variable)");
    // The filter stays in the form and the URL.
    await expect(page.getByLabel("Metadata key")).toHaveValue(sensorKey);
    expect(new URL(page.url()).searchParams.get("key")).toBe(sensorKey);

    // Any key, a part of the device's value.
    await page.getByLabel("Metadata key").fill("");
    await page.getByLabel("Metadata value").fill("hall 7");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(row).toBeVisible();
    await expect(row.getByTestId("matched-on")).toHaveText("(metadata of the device)");

    // Nothing matches: the list is empty, not unfiltered.
    await page.getByLabel("Metadata value").fill(unique("no-such-"));
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(table.getByText("No measurements match the filter.")).toBeVisible();
  } finally {
    await set("variable", variable, sensorKey, "");
    await set("device", device.ID, siteKey, "");
  }
});
