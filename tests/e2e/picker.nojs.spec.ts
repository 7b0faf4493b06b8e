import { ADMIN_PASSWORD, expect, signInDirect, test } from "./fixtures";

// The one variable picker (here on the export form): search, groups by device, chosen ones in view.

test("the variable picker filters, groups by device and keeps the chosen ones in view", async ({ page }) => {
  const noJs = test.info().project.name === "nojs";
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/export");
  const picker = page.getByTestId("variable-picker");
  await expect(picker.getByRole("group", { name: "Test bench controller" })).toBeVisible();
  await picker.getByLabel("Oil temperature [°C]").check();
  await picker.getByLabel("Voltage L1 [V]").check();
  const search = picker.getByRole("searchbox", { name: "Search variables" });

  if (noJs) {
    // Without JavaScript: Filter re-renders the form from the address, the chosen ones listed first.
    await search.fill("temp");
    await picker.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]q=temp/);
    // Both stay chosen, the one the filter does not match too.
    const chosen = page.getByTestId("picker-selected");
    await expect(chosen.getByLabel("Oil temperature [°C]")).toBeChecked();
    await expect(chosen.getByLabel("Voltage L1 [V]")).toBeChecked();
    await expect(page.getByTestId("picker-list").getByLabel("Oil pressure [bar]")).toHaveCount(0);
    await expect(page.getByTestId("picker-list").getByLabel("Coolant inlet temperature", { exact: false })).toBeVisible();
    await expect(page.getByTestId("picker-search")).toHaveValue("temp");
    return;
  }

  // With JavaScript: chips for the chosen ones, the list filtered as one types.
  const chips = picker.getByTestId("picker-chip");
  await expect(chips).toHaveText(["Remove Oil temperature [°C]Oil temperature [°C]×", "Remove Voltage L1 [V]Voltage L1 [V]×"]);
  await expect(picker.getByRole("button", { name: "Remove Oil temperature [°C]" })).toBeVisible();
  await search.fill("volt");
  await expect(picker.getByLabel("Oil pressure [bar]")).toBeHidden();
  await expect(picker.getByLabel("Voltage L1 [V]")).toBeVisible();
  await expect(picker.getByTestId("picker-shown")).toContainText("shown");
  // Hidden by the filter but still chosen (and still posted).
  await expect(picker.getByLabel("Oil temperature [°C]")).toBeChecked();
  await expect(chips).toHaveCount(2);
  // Enter in the search box does not submit the form; Escape clears it.
  await search.press("Enter");
  await expect(page.getByTestId("export-progress")).toHaveText("");
  await search.press("Escape");
  await expect(picker.getByLabel("Oil pressure [bar]")).toBeVisible();
  // Removing a chip by keyboard unticks the variable and keeps the focus on the chips.
  await picker.getByRole("button", { name: "Remove Oil temperature [°C]" }).focus();
  await page.keyboard.press("Enter");
  await expect(picker.getByLabel("Oil temperature [°C]")).not.toBeChecked();
  await expect(chips).toHaveCount(1);
  await expect(picker.getByRole("button", { name: "Remove Voltage L1 [V]" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(picker.getByText("None chosen yet")).toBeVisible();
  await expect(search).toBeFocused();
});
