import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { ADMIN_PASSWORD, createUser, expect, rpc, signInDirect, test } from "./fixtures";

// Issue 15 §2 and §1, with JavaScript (a dialog) and without (a confirmation panel rendered by
// the first post): starting/stopping the project and writing outputs ask first, showing what
// changes; errors sit next to the field; values are marked stale from their timestamps.

const running = async () => (await rpc<{ State: { Running: boolean } }>("ProjectAPI.GetState", {})).State.Running;
const confirmForm = (page: Page) => page.getByTestId("confirm-form");

/** axe runs inside the page, so only where JavaScript is on (the markup checked is the same). */
async function accessible(page: Page, where: string) {
  if (test.info().project.name !== "nojs") await expectAccessible(page, where);
}

// A failed or timed-out test must not leave acquisition stopped for the tests after it.
test.afterEach(async () => {
  if (!(await running())) await rpc("ProjectAPI.Start", {});
});

test("stopping and starting the project asks first, and only the confirmation acts", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/devices");
  expect(await running()).toBe(true);
  const card = page.getByTestId("project-card");

  // The first post only asks; Cancel leaves acquisition running.
  await card.getByRole("button", { name: "Stop project" }).click();
  await expect(confirmForm(page)).toContainText("Acquisition running → Acquisition stopped");
  expect(await running()).toBe(true);
  await accessible(page, "the project's confirmation");
  await confirmForm(page).getByRole("button", { name: "Cancel" }).or(confirmForm(page).getByRole("link", { name: "Cancel" })).click();
  await expect(confirmForm(page)).toHaveCount(0);
  expect(await running()).toBe(true);
  await expect(page.getByTestId("project-running")).toContainText("Acquisition running");

  try {
    await card.getByRole("button", { name: "Stop project" }).click();
    await confirmForm(page).getByRole("button", { name: "Stop project" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Project stopped");
    await expect(page.getByTestId("project-running")).toContainText("Acquisition stopped");
    expect(await running()).toBe(false);

    await card.getByRole("button", { name: "Start project" }).click();
    await expect(confirmForm(page)).toContainText("Acquisition stopped → Acquisition running");
    expect(await running()).toBe(false);
    await confirmForm(page).getByRole("button", { name: "Start project" }).click();
    await expect(page.getByTestId("project-running")).toContainText("Acquisition running");
    expect(await running()).toBe(true);
  } finally {
    if (!(await running())) await rpc("ProjectAPI.Start", {});
  }
});

test("a switch is set with On or Off, shown old → new before writing (issue 26 §5)", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/variableOverview?direction=O");
  const row = () => page.getByTestId("variables-table").locator('tr[data-variable="Lamp red"]');
  await expect(row().getByTestId("value")).toHaveText("Off");
  // No field to type "5" into: two buttons, the current state pressed.
  await expect(row().getByRole("textbox")).toHaveCount(0);
  await expect(row().getByRole("button", { name: "Switch Lamp red off" })).toHaveAttribute("aria-pressed", "true");

  await row().getByRole("button", { name: "Switch Lamp red on" }).click();
  await expect(confirmForm(page)).toContainText("Write Lamp red: Off → On");
  await accessible(page, "a switch's confirmation");
  // Nothing is written before the confirmation.
  await page.goto("/variableOverview?direction=O");
  await expect(row().getByTestId("value")).toHaveText("Off");

  await row().getByRole("button", { name: "Switch Lamp red on" }).click();
  await confirmForm(page).getByRole("button", { name: "Write" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Lamp red set to On");
  await expect(row().getByTestId("value")).toHaveText("On");
  await expect(row().getByRole("button", { name: "Switch Lamp red on" })).toHaveAttribute("aria-pressed", "true");

  await row().getByRole("button", { name: "Switch Lamp red off" }).click();
  await expect(confirmForm(page)).toContainText("Write Lamp red: On → Off");
  await confirmForm(page).getByRole("button", { name: "Write" }).click();
  await expect(row().getByTestId("value")).toHaveText("Off");
});

test("a number is refused outside its output's range, and the refusal names the range, next to the field", async ({ page }) => {
  // A numeric output of a data source (the simulated rig's outputs are all switches); its broker
  // need not exist: the value is checked before anything is sent.
  const name = `Setpoint ${Date.now().toString(36)}`;
  const { Source } = await rpc<{ Source: { ID: number } }>("DataSourceAPI.Set", {
    Source: {
      ID: -1,
      Name: `Range check ${Date.now().toString(36)}`,
      Protocol: "mqtt",
      Enabled: false,
      PeriodMs: 1000,
      Connection: { Url: "mqtt://127.0.0.1:1", Username: "", Password: "", ClientId: "" },
      Variables: [{ VariableId: "", Name: name, Unit: "°C", RangeMin: 0, RangeMax: 100, Precision: 1, Direction: "O", Address: { Topic: "cell/setpoint", JsonPath: "", TimestampPath: "", Qos: 1 } }],
    },
  });
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/variableOverview?direction=O&q=${encodeURIComponent(name)}`);
    const row = page.getByTestId("variables-table").locator(`tr[data-variable="${name}"]`);
    const field = () => row.getByLabel(`New value for ${name}`);
    // The list shows no field: typing a value opens a form of its own, which never reloads itself.
    await expect(field()).toHaveCount(0);
    await row.getByRole("link", { name: `Write a new value to ${name}` }).click();
    await expect(page).toHaveURL(/[?&]write=/);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await expect(row).toContainText("Range 0.0 … 100.0 °C");

    await field().fill("150");
    await row.getByRole("button", { name: "Write" }).click();
    const error = row.getByTestId("field-error");
    await expect(error).toHaveText("Enter a value within 0.0 … 100.0 °C.");
    await expect(field()).toHaveValue("150");
    await expect(field()).toHaveAttribute("aria-invalid", "true");
    await expect(field()).toHaveAttribute("aria-describedby", (await error.getAttribute("id"))!);
    await expect(field()).toBeFocused();
    await accessible(page, "a write refused next to its field");

    await field().fill("maybe");
    await row.getByRole("button", { name: "Write" }).click();
    await expect(row.getByTestId("field-error")).toHaveText("Enter a number, such as 12.5.");

    // Within the range it is asked, as every write is (the broker is not there: cancelled).
    await field().fill("40");
    await row.getByRole("button", { name: "Write" }).click();
    await expect(confirmForm(page)).toContainText(`Write ${name}: — → 40.0 °C`);
  } finally {
    await rpc("DataSourceAPI.Delete", { ID: Source.ID });
  }
});

test("a write without the permission is refused (403) also at the confirmation step", async ({ page, baseURL }) => {
  const viewer = await createUser("Viewer");
  await signInDirect(page, viewer.username, viewer.password);
  const posts: Record<string, string>[] = [{ intent: "projectStop" }, { intent: "projectStop", confirm: "yes" }];
  for (const form of posts) {
    const res = await page.request.post("/devices", { form, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(res.status()).toBe(403);
  }
  const write = await page.request.post("/variableOverview", { form: { intent: "write", variable: "x", value: "1", confirm: "yes" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(write.status()).toBe(403);
  expect(await running()).toBe(true);
});

test("values that stop updating are shown stale with their age, from the server's timestamps", async ({ page }) => {
  test.setTimeout(60_000);
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const oil = page.getByTestId("variables-table").locator('tr[data-variable="Oil temperature"]');
  await page.goto("/variableOverview?q=Oil%20temperature");
  await expect(oil).toHaveAttribute("data-freshness", "live");
  await expect(oil.getByTestId("freshness-badge")).toHaveCount(0);
  try {
    await rpc("ProjectAPI.Stop", {});
    // No samples any more: once older than 3 sample periods (at least 2 s) the value is stale.
    await expect(async () => {
      await page.goto("/variableOverview?q=Oil%20temperature");
      await expect(oil).toHaveAttribute("data-freshness", "stale", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(oil.getByTestId("freshness-badge")).toHaveText(/^Stale · \d+ sec$/);
    await expect(oil.getByTestId("value")).toHaveClass(/loggia-not-live/);
    await accessible(page, "a stale value");

    await page.goto("/structView");
    await page.getByTestId("struct-tree").getByRole("link", { name: "Test bench controller" }).click();
    await page.getByTestId("struct-tree").getByText("Analog inputs").click();
    await page.getByTestId("struct-tree").getByRole("link", { name: "Oil temperature" }).click();
    const value = page.getByTestId("struct-value");
    await expect(value).toHaveAttribute("data-freshness", "stale");
    await expect(value.getByTestId("freshness-badge")).toHaveText(/^Stale · \d+ sec$/);
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
  await expect(async () => {
    await page.goto("/variableOverview?q=Oil%20temperature");
    await expect(oil).toHaveAttribute("data-freshness", "live", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  // Heartbeats go on while the project is stopped or running: devices are live.
  await page.goto("/devices");
  await expect(page.getByTestId("devices-table").locator('tr[data-device="Test bench controller"]')).toHaveAttribute("data-freshness", "live");
});
