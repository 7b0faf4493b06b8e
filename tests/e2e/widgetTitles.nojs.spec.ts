import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

// Issue 15 §8, with and without JavaScript: the widget form's variable pickers group by the
// devices' names (not "Device <id>"), and an untitled text widget shows no title repeating its text.

type Device = { ID: string; Name: string; Modules: { Variables: string[] }[] };

async function seededDevices(): Promise<Device[]> {
  const { Devices } = await rpc<{ Devices: Device[] }>("DeviceAPI.GetDevices", {});
  return Devices.filter((d) => d.Modules.some((m) => m.Variables.length > 0));
}

async function dashboardWith(widgets: object[]): Promise<string> {
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: { Name: unique("Titles "), Content: { Columns: 12, RowHeight: 80, Range: "1h", Refresh: "off", Widgets: widgets } },
  });
  return ID;
}

test("the widget form's pickers group the variables by their device's name", async ({ page }) => {
  const devices = await seededDevices();
  expect(devices.length).toBeGreaterThan(1);
  const id = await dashboardWith([]);
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    // A chart takes several variables: the shared picker, one group per device.
    await page.goto(`/dashboardManager?edit=${id}&widget=new&type=chart`);
    const picker = page.getByTestId("widget-form").getByTestId("variable-picker");
    for (const d of devices) await expect(picker.getByRole("group", { name: d.Name, exact: true })).toBeVisible();
    await expect(picker.getByText(/^Device /)).toHaveCount(0);

    // A gauge takes one: a select whose option groups are the devices.
    await page.goto(`/dashboardManager?edit=${id}&widget=new&type=gauge`);
    const select = page.getByTestId("widget-form").getByLabel("Variable", { exact: true });
    const groups = await select.locator("optgroup").evaluateAll((els) => els.map((e) => e.getAttribute("label")));
    expect(groups).toEqual(expect.arrayContaining(devices.map((d) => d.Name)));
    expect(groups.filter((g) => /^Device /.test(g ?? ""))).toEqual([]);
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID: id });
  }
});

test("an untitled text widget shows its text once, without a title repeating it", async ({ page }) => {
  const id = await dashboardWith([
    { ID: "note", Type: "text", Title: "", X: 0, Y: 0, W: 6, H: 2, Variables: [], Options: { Text: "# Shift notes\nCheck the oil level." } },
    { ID: "named", Type: "text", Title: "Instructions", X: 6, Y: 0, W: 6, H: 2, Variables: [], Options: { Text: "Wear gloves." } },
  ]);
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/dashboard?id=${id}`);
    const note = page.locator('[data-widget="note"]');
    await expect(note).toContainText("Check the oil level.");
    await expect(note.getByText("Shift notes")).toHaveCount(1);
    await expect(note.getByRole("heading", { level: 2 })).toHaveCount(0);
    await expect(note).not.toHaveAttribute("aria-label");
    // A title that was given is still shown.
    await expect(page.locator('[data-widget="named"]').getByRole("heading", { level: 2, name: "Instructions" })).toBeVisible();

    // The manager still tells untitled text widgets apart by their first line; its title field says none is the default.
    await page.goto(`/dashboardManager?edit=${id}`);
    await expect(page.getByTestId("widget-list").locator('[data-widget="note"]')).toContainText("Shift notes");
    await page.getByTestId("widget-list").getByRole("link", { name: "Edit: Shift notes" }).click();
    await expect(page.getByTestId("widget-form").getByLabel("Title")).toHaveAttribute("placeholder", "Default: no title");
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID: id });
  }
});
