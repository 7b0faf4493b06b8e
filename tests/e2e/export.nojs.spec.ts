import { readFile } from "node:fs/promises";
import { createRole, createUser, expect, rpc, signInDirect, test } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

test("export a measurement as CSV: header, separators, row count and the user's time zone", async ({ page }) => {
  const role = await createRole(["UseExport", "UseMetaData"]);
  const user = await createUser(role.id); // Europe/Rome
  await signInDirect(page, user.username, user.password);
  const m = await recordMeasurement("Export ", 1000, [{ Key: "Operator", Value: "Anna, \"the boss\"" }]);
  const oilId = (await variableIds())["Oil temperature"]!;
  const { Devices } = await rpc<{ Devices: { ID: string; Name: string; Modules: { Variables: string[] }[] }[] }>("DeviceAPI.GetDevices", {});
  const device = Devices.find((d) => d.Modules.some((mod) => mod.Variables.includes(oilId)))!;
  await rpc("MetaDataAPI.SetMetaData", { Type: "variable", ID: oilId, MetaData: [{ Key: "Sensor", Value: "PT100" }] });
  await rpc("MetaDataAPI.SetMetaData", { Type: "device", ID: device.ID, MetaData: [{ Key: "Test cell", Value: "Cell 3; line\nbreak" }] });
  try {
    await exportAndCheck();
  } finally {
    await rpc("MetaDataAPI.SetMetaData", { Type: "variable", ID: oilId, MetaData: [{ Key: "Sensor", Value: "" }] });
    await rpc("MetaDataAPI.SetMetaData", { Type: "device", ID: device.ID, MetaData: [{ Key: "Test cell", Value: "" }] });
  }

  async function exportAndCheck() {
  await page.goto("/export");
  const form = page.getByTestId("export-form");
  await form.getByLabel("Oil temperature [°C]").check();
  await form.getByLabel("Voltage L1 [V]").check();
  await form.getByRole("radio", { name: "Measurement" }).check();
  await form.getByRole("combobox", { name: "Measurement", exact: true }).selectOption({ label: m.Name });
  await form.getByLabel("Separators").selectOption("semicolon");
  await form.getByLabel("Metadata (measurement, variables, devices) and notes as comment lines at the top").check();
  const [download] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`${m.Name.replace(/\s+/g, "-")}_Oil-temperature+Voltage-L1_raw.csv`);
  const text = await readFile((await download.path())!, "utf8");
  const lines = text.trimEnd().split("\r\n");
  expect(lines[0]).toBe(`# Measurement: ${m.Name}`);
  expect(lines).toContain('# Operator: Anna, "the boss"');
  expect(lines).toContain("# Variable Oil temperature: Sensor: PT100");
  // The device's metadata once (both variables may share it), a line break in a value folded into a space.
  expect(lines.filter((l) => l === `# Device ${device.Name}: Test cell: Cell 3; line break`)).toHaveLength(1);
  // Every comment line comes before the header row.
  const firstData = lines.findIndex((l) => !l.startsWith("# "));
  expect(lines[firstData]).toMatch(/^time;/);
  const header = lines.findIndex((l) => l.startsWith("time;"));
  expect(lines[header]).toBe("time;Oil temperature [°C];Voltage L1 [V]");
  const rows = lines.slice(header + 1);
  // 100 Hz over the measurement: one row per sample of the faster variable.
  expect(Math.abs(rows.length - (m.End - m.Start) / 10)).toBeLessThanOrEqual(2);
  // Wall time in Europe/Rome (the user's zone), decimal commas.
  expect(rows[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00;-?\d+(,\d+)?;(\d+(,\d+)?)?$/);
  const offset = rows[0]!.slice(23, 29);
  const first = Date.parse(rows[0]!.slice(0, 29));
  expect(Math.abs(first - m.Start)).toBeLessThan(20);
  expect(offset).toBe(new Date(m.Start).toLocaleString("en-GB", { timeZone: "Europe/Rome", timeZoneName: "longOffset" }).includes("+02:00") ? "+02:00" : "+01:00");
  }
});

test("a bad export request is explained on the form with the choices kept", async ({ page }) => {
  const role = await createRole(["UseExport"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  await page.goto("/export");
  const form = page.getByTestId("export-form");
  await form.getByRole("radio", { name: "Resampled" }).check();
  await form.getByLabel("Aggregate").selectOption("max");
  await form.getByLabel("Time column").selectOption("excel");
  await form.getByRole("button", { name: "Download CSV" }).click();
  await expect(page.getByText("Choose at least one variable.")).toBeVisible();
  // Next to the variables, not above the form.
  await expect(form.getByTestId("variable-picker").getByTestId("field-error")).toHaveText("Choose at least one variable.");
  await expect(form.getByRole("radio", { name: "Resampled" })).toBeChecked();
  await expect(form.getByLabel("Aggregate")).toHaveValue("max");
  await expect(form.getByLabel("Time column")).toHaveValue("excel");

  await form.getByLabel("Oil temperature [°C]").check();
  await form.getByLabel("Interval (seconds)").fill("0");
  await form.getByRole("button", { name: "Download CSV" }).click();
  await expect(page.getByText("Enter an interval between 0.001 and 86400 seconds.")).toBeVisible();
  await expect(form.getByLabel("Interval (seconds)")).toHaveValue("0");
  await expect(form.getByRole("spinbutton", { name: "Interval (seconds)" })).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#interval-error")).toHaveText("Enter an interval between 0.001 and 86400 seconds.");
  await expect(form.getByTestId("variable-picker").getByTestId("field-error")).toHaveCount(0);
  await form.getByRole("radio", { name: "Raw samples" }).check();

  await form.getByRole("radio", { name: "From – to" }).check();
  await form.getByLabel("From", { exact: true }).fill("2026-01-02T10:00");
  await form.getByLabel("To", { exact: true }).fill("2026-01-01T10:00");
  await form.getByRole("button", { name: "Download CSV" }).click();
  await expect(form.getByTestId("range-fields").getByTestId("field-error")).toHaveText("The end must be after the start.");
  await expect(form.getByLabel("Oil temperature [°C]")).toBeChecked();

  // A range before the oldest data kept (retention, or before the logger recorded anything).
  await form.getByLabel("From", { exact: true }).fill("01/01/2020 10:00");
  await form.getByLabel("To", { exact: true }).fill("01/01/2020 11:00");
  await form.getByRole("button", { name: "Download CSV" }).click();
  await expect(form.getByTestId("range-fields").getByTestId("field-error")).toContainText("The range ends before the oldest data kept");
  await expect(form.getByLabel("From", { exact: true })).toHaveValue("01/01/2020 10:00");
  await expect(form.getByLabel("Oil temperature [°C]")).toBeChecked();
});
