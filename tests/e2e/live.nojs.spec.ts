import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createUser, expect, signInDirect, test } from "./fixtures";

// The four live-data screens against the simulated rig of the embedded logger, with and
// without JavaScript.
async function admin(page: Page) {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
}

test("Struct View shows devices, modules and variables with a details panel", async ({ page }) => {
  await admin(page);
  await page.goto("/structView");
  const tree = page.getByTestId("struct-tree");
  await tree.getByRole("link", { name: "Test bench controller" }).click();
  await expect(page.getByTestId("struct-details").getByRole("heading", { name: "Test bench controller" })).toBeVisible();
  await expect(page.getByTestId("struct-details")).toContainText("192.168.10.20");
  await tree.getByText("Analog inputs").click();
  await tree.getByRole("link", { name: "Oil temperature" }).click();
  const details = page.getByTestId("struct-details");
  await expect(details.getByRole("heading", { name: "Oil temperature" })).toBeVisible();
  await expect(details).toContainText("°C");
  await expect(details).toContainText("Input");
  // The selected variable's branch stays open after the page load.
  await expect(tree.getByRole("link", { name: "Oil temperature" })).toHaveAttribute("aria-current", "true");
});

test("Variable Overview lists values, filters, pages, and writes an output", async ({ page }) => {
  await admin(page);
  await page.goto("/variableOverview?q=pressure");
  const table = page.getByTestId("variables-table");
  await expect(table.locator('tr[data-variable="Oil pressure"]')).toBeVisible();
  await expect(table.locator('tr[data-variable="Oil temperature"]')).toHaveCount(0);
  await expect(table.locator('tr[data-variable="Oil pressure"] [data-testid=value]')).not.toHaveText("—");

  await page.goto("/variableOverview?direction=O");
  const horn = () => table.locator('tr[data-variable="Horn"]');
  await expect(horn().getByTestId("value")).toHaveText("Off");
  // A switch: On and Off (issue 26 §5), confirmed first (issue 15 §2; safe-actions.nojs.spec.ts tests the steps).
  await horn().getByRole("button", { name: "Switch Horn on" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Write" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Horn set to On");
  await expect(horn().getByTestId("value")).toHaveText("On");
  await horn().getByRole("button", { name: "Switch Horn off" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Write" }).click();
  await expect(horn().getByTestId("value")).toHaveText("Off");
});

test("Monitor shows tiles of the chosen variables, kept in the URL", async ({ page }) => {
  await admin(page);
  await page.goto("/monitor");
  await page.getByLabel("Oil temperature").check();
  await page.getByLabel("Active power").check();
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/[?&]v=/);
  const tiles = page.getByTestId("monitor-tile");
  await expect(tiles).toHaveCount(2);
  await expect(page.locator('[data-variable="Oil temperature"] [data-testid=tile-value]')).toContainText("°C");
  await expect(page.locator('[data-variable="Oil temperature"] [data-testid=tile-value]')).not.toContainText("—");
  await page.reload();
  await expect(tiles).toHaveCount(2);
});

test("Project State shows devices and starts and stops measurements and the project", async ({ page }) => {
  await admin(page);
  await page.goto("/devices");
  const devices = page.getByTestId("devices-table");
  for (const name of ["Test bench controller", "Power meter", "Weather station"]) await expect(devices.locator(`tr[data-device="${name}"]`)).toBeVisible();
  await expect(devices.locator('tr[data-device="Power meter"]')).toContainText("192.168.10.31");

  const measurement = page.getByTestId("measurement-card");
  await page.getByLabel("Name of the new measurement").fill("Endurance run 7");
  await page.getByRole("button", { name: "Start measurement" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Measurement started");
  await expect(measurement).toContainText("Endurance run 7");
  // Ending a recording run asks first (issue 26 §5), with the run's name; nothing ends on one click.
  await measurement.getByRole("button", { name: "Stop measurement" }).click();
  await expect(page.getByTestId("confirm-form")).toContainText("Measurement “Endurance run 7”, recording since");
  await expect(measurement).toContainText("Endurance run 7");
  await page.getByTestId("confirm-form").getByRole("button", { name: "Stop measurement" }).click();
  await expect(measurement).toContainText("No measurement is recording.");

  await page.getByTestId("project-card").getByRole("button", { name: "Stop project" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Stop project" }).click();
  await expect(page.getByTestId("project-running")).toContainText("Acquisition stopped");
  await page.getByTestId("project-card").getByRole("button", { name: "Start project" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Start project" }).click();
  await expect(page.getByTestId("project-running")).toContainText("Acquisition running");
});

test("a Viewer watches but cannot write outputs or start and stop (403)", async ({ page, baseURL }) => {
  const viewer = await createUser("Viewer");
  await signInDirect(page, viewer.username, viewer.password);
  await page.goto("/devices");
  await expect(page.getByRole("button", { name: /Stop project|Start project/ })).toHaveCount(0);
  const stop = await page.request.post("/devices", { form: { intent: "projectStop" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(stop.status()).toBe(403);
  // Variable Overview needs UseMetaData, which a Viewer lacks.
  expect((await page.goto("/variableOverview"))?.status()).toBe(403);
  const write = await page.request.post("/variableOverview", { form: { intent: "write", variable: "x", value: "1" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(write.status()).toBe(403);
});
