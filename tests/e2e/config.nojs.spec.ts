import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createRole, createUser, expect, rpc, signInDirect, test, token, unique } from "./fixtures";

// Simple Config with JavaScript on and off. The e2e logger is shared by every test: each test
// puts the project config back as it found it (in `finally`, through the logger API).

type Channel = { VariableId: string; Enabled: boolean; Name: string; Unit: string; RangeMin: number; RangeMax: number; Precision: number };
type ProjectConfig = { Config: { ProjectName: string; SampleRateHz: number; Channels: Channel[] }; Revision: number };

async function stored(): Promise<ProjectConfig> {
  return rpc<ProjectConfig>("ConfigAPI.GetProjectConfig", {});
}

/** Puts a config back, whatever was saved meanwhile (no Revision: overwrite). */
async function restore(original: ProjectConfig) {
  const { ProjectName, SampleRateHz, Channels } = original.Config;
  await rpc("ConfigAPI.SetProjectConfig", { Config: { ProjectName, SampleRateHz, Channels: Channels.map(({ VariableId, Enabled, Name, Unit, RangeMin, RangeMax, Precision }) => ({ VariableId, Enabled, Name, Unit, RangeMin, RangeMax, Precision })) } });
}

async function open(page: Page) {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto("/config");
  await expect(page.getByRole("heading", { name: "Simple Config", level: 1 })).toBeVisible();
}

const SAVED = "Successfully saved the project config";

/** Save, then apply at the confirmation that lists the changes (issue 26 §5). */
async function save(page: Page) {
  await page.getByRole("button", { name: "Save config" }).click();
  await page.getByTestId("confirm-form").getByRole("button", { name: "Apply changes" }).click();
}

test("a renamed channel with a new unit shows in Variable Overview, and the change is in Log Messages", async ({ page }) => {
  const original = await stored();
  const last = original.Config.Channels.length;
  const was = original.Config.Channels[last - 1]!.Name;
  const name = unique("Vib ");
  try {
    await open(page);
    await expect(page.getByLabel(`Name of channel ${last}`)).toHaveValue(was);
    await page.getByLabel(`Name of channel ${last}`).fill(name);
    await page.getByLabel(`Unit of channel ${last}`).fill("g");
    await save(page);
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await page.waitForURL((u) => u.pathname === "/config");
    await expect(page.getByLabel(`Name of channel ${last}`)).toHaveValue(name);
    await expect(page.getByLabel(`Unit of channel ${last}`)).toHaveValue("g");

    await page.goto(`/variableOverview?q=${encodeURIComponent(name)}`);
    const row = page.getByTestId("variables-table").locator(`tr[data-variable="${name}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText("g");

    await page.goto(`/log?sender=admin&topic=Audit&text=${encodeURIComponent(name)}`);
    await expect(page.getByTestId("messages-table")).toContainText(`Renamed channel ${was} to ${name}`);
    await expect(page.getByTestId("messages-table")).toContainText(`Changed the unit of channel ${name}`);
  } finally {
    await restore(original);
  }
});

test("duplicate names and an empty range are refused next to the field, and the input is kept", async ({ page }) => {
  const original = await stored();
  try {
    await open(page);
    const first = original.Config.Channels[0]!.Name;
    await page.getByLabel("Name of channel 2").fill(first.toUpperCase());
    await page.getByLabel("Range min of channel 3").fill("50");
    await page.getByLabel("Range max of channel 3").fill("50");
    await page.getByLabel("Decimals of channel 4").fill("9");
    await page.getByLabel("Project name").fill("");
    await page.getByRole("button", { name: "Save config" }).click();
    await expect(page.getByText("Another channel already has this name.")).toBeVisible();
    await expect(page.getByText("Must be greater than the range min.")).toBeVisible();
    await expect(page.getByText("Enter a whole number from 0 to 6.")).toBeVisible();
    await expect(page.getByText("Enter a project name.")).toBeVisible();
    await expect(page.getByLabel("Name of channel 2")).toHaveValue(first.toUpperCase());
    await expect(page.getByLabel("Range min of channel 3")).toHaveValue("50");
    await expect(page.getByLabel("Range max of channel 3")).toHaveValue("50");
    await expect(page.getByLabel("Decimals of channel 4")).toHaveValue("9");
    await expect(page.getByLabel("Name of channel 2")).toHaveAttribute("aria-invalid", "true");
    // Nothing was stored.
    expect((await stored()).Revision).toBe(original.Revision);
  } finally {
    await restore(original);
  }
});

test("a new sample rate is applied at once and shows on Project State", async ({ page }) => {
  const original = await stored();
  const rate = original.Config.SampleRateHz === 50 ? 200 : 50;
  try {
    await open(page);
    await page.getByLabel("Sample rate").selectOption({ label: `${rate} Hz` });
    await save(page);
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    await expect(page.getByLabel("Sample rate")).toHaveValue(String(rate));
    await page.goto("/devices");
    await expect(page.locator('tr[data-device="Test bench controller"]')).toContainText(`${rate} Hz`);
    await page.goto(`/log?sender=admin&topic=Audit&text=${encodeURIComponent("sample rate of Test bench controller")}`);
    await expect(page.getByTestId("messages-table").locator("tr[data-message]").first()).toContainText(`to ${rate} Hz`);
  } finally {
    await restore(original);
  }
});

test("a change based on an old revision is refused with a clear message, input kept", async ({ page }) => {
  const original = await stored();
  try {
    await open(page);
    await page.getByLabel("Project name").fill("Mine");
    // Someone else saves meanwhile.
    await rpc("ConfigAPI.SetProjectConfig", { Config: { ...original.Config, ProjectName: "Theirs", Channels: original.Config.Channels.map(({ VariableId, Enabled, Name, Unit, RangeMin, RangeMax, Precision }) => ({ VariableId, Enabled, Name, Unit, RangeMin, RangeMax, Precision })) }, Revision: original.Revision });
    await save(page);
    await expect(page.getByTestId("form-error")).toContainText("Someone else changed the project config meanwhile");
    await expect(page.getByLabel("Project name")).toHaveValue("Mine");
    // A second save knowingly overwrites.
    await save(page);
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    expect((await stored()).Config.ProjectName).toBe("Mine");
  } finally {
    await restore(original);
  }
});

test("a save lists every change old → new and applies nothing until it is confirmed", async ({ page }) => {
  const original = await stored();
  const rate = original.Config.SampleRateHz === 50 ? 100 : 50;
  const third = original.Config.Channels[2]!;
  try {
    await open(page);
    await page.getByLabel("Sample rate").selectOption({ label: `${rate} Hz` });
    await page.getByLabel("Channel 3 enabled", { exact: true }).uncheck();
    await page.getByLabel("Range max of channel 1", { exact: true }).fill(String(original.Config.Channels[0]!.RangeMax + 10));
    await page.getByRole("button", { name: "Save config" }).click();
    const confirm = page.getByTestId("confirm-form");
    const changes = confirm.getByTestId("config-changes");
    await expect(changes.locator("li")).toHaveCount(3);
    await expect(changes.locator("[data-change=sampleRate]")).toHaveText(`Sample rate of Test bench controller: ${original.Config.SampleRateHz} Hz → ${rate} Hz`);
    await expect(changes.locator("[data-change=enabled]")).toHaveText(`Channel 3 (${third.Name}): recording → disabled`);
    await expect(changes.locator("[data-change=range]")).toContainText("Range of channel 1");
    // Nothing applied yet: the running acquisition keeps its rate and channels.
    expect((await stored()).Revision).toBe(original.Revision);
    await confirm.getByRole("link", { name: "Cancel" }).or(confirm.getByRole("button", { name: "Cancel" })).click();
    expect((await stored()).Revision).toBe(original.Revision);

    await page.goto("/config");
    await page.getByLabel("Sample rate").selectOption({ label: `${rate} Hz` });
    await save(page);
    await expect(page.getByTestId("toast-success")).toHaveText(SAVED);
    expect((await stored()).Config.SampleRateHz).toBe(rate);
  } finally {
    await restore(original);
  }
});

test("without ManageProject the screen and its action answer 403", async ({ page }) => {
  const role = await createRole(["ViewDevices", "UseMetaData"]);
  const user = await createUser(role.id);
  await signInDirect(page, user.username, user.password);
  const res = await page.goto("/config");
  expect(res?.status()).toBe(403);
  await expect(page.getByTestId("error-403")).toBeVisible();
  const post = await page.request.post("/config", { form: { projectName: "x", revision: "0" }, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 });
  expect(post.status()).toBe(403);
  // The logger refuses the call itself too.
  const bearer = await token(user.username, user.password);
  await expect(rpc("ConfigAPI.SetProjectConfig", { Config: { ProjectName: "x", SampleRateHz: 100, Channels: [] } }, bearer)).rejects.toThrow(/403/);
  await expect(rpc("ConfigAPI.GetProjectConfig", {}, bearer)).rejects.toThrow(/403/);
});
