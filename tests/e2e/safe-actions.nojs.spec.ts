import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { ADMIN_PASSWORD, createUser, expect, rpc, signIn, signInDirect, test } from "./fixtures";

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

test("writing an output shows old → new before writing; a bad value is refused next to its field", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/variableOverview?direction=O");
  const row = () => page.getByTestId("variables-table").locator('tr[data-variable="Lamp red"]');
  const field = () => row().getByLabel("New value for Lamp red");
  await expect(row().getByTestId("value")).toHaveText("0");

  // A bad value: the error is in the row, tied to the field, which keeps the text and has focus.
  await field().fill("maybe");
  await row().getByRole("button", { name: "Write" }).click();
  const error = row().getByTestId("field-error");
  await expect(error).toContainText("Enter a number");
  await expect(field()).toHaveValue("maybe");
  await expect(field()).toHaveAttribute("aria-invalid", "true");
  await expect(field()).toHaveAttribute("aria-describedby", (await error.getAttribute("id"))!);
  await expect(field()).toBeFocused();
  await accessible(page, "a write refused next to its field");
  await expect(page.getByTestId("form-error")).toHaveCount(0);

  await field().fill("on");
  await row().getByRole("button", { name: "Write" }).click();
  await expect(confirmForm(page)).toContainText("Write Lamp red: 0 → 1");
  // Nothing is written before the confirmation.
  await page.goto("/variableOverview?direction=O");
  await expect(row().getByTestId("value")).toHaveText("0");

  await field().fill("on");
  await row().getByRole("button", { name: "Write" }).click();
  await confirmForm(page).getByRole("button", { name: "Write" }).click();
  await expect(page.getByTestId("toast-success")).toHaveText("Lamp red set to on");
  await expect(row().getByTestId("value")).toHaveText("1");

  await field().fill("0");
  await row().getByRole("button", { name: "Write" }).click();
  await expect(confirmForm(page)).toContainText("Write Lamp red: 1 → 0");
  await confirmForm(page).getByRole("button", { name: "Write" }).click();
  await expect(row().getByTestId("value")).toHaveText("0");
});

test("a write without the permission is refused (403) also at the confirmation step", async ({ page, baseURL }) => {
  const viewer = await createUser("Viewer");
  await signIn(page, viewer.username, viewer.password);
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
  await signIn(page, "admin", ADMIN_PASSWORD);
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
