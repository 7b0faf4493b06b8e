import { ADMIN_PASSWORD, expect, LOGGER, rpc, setGlobalSettings, signInDirect, test, token, unique } from "./fixtures";

// Issue 26 §4: an opt-in audible annunciator on dashboards and wall displays — browser audio,
// switched on per display, sounding only for the alarm priorities chosen in Global Settings,
// silenced by one click until another alarm comes. JavaScript only by nature.

async function oilId(): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  return ((await res.json()) as { Data: { Id: string; Name: string }[] }).Data.find((v) => v.Name === "Oil temperature")!.Id;
}
/** A rule that is always violated: it fires on the next samples. */
async function firing(severity: string): Promise<number> {
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: unique("Annunciator "), VariableId: await oilId(), Type: "high", High: -1000, Severity: severity } });
  return ID;
}

test("chosen in Global Settings, switched on at the display, it sounds for those priorities only and one click silences it", async ({ page }) => {
  test.setTimeout(90_000);
  const rules: number[] = [];
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    // Nothing chosen: no annunciator at all.
    await page.goto("/dashboard");
    await expect(page.getByTestId("live-state")).toBeVisible();
    await expect(page.getByTestId("annunciator")).toHaveCount(0);

    await page.goto("/globalSettings");
    const group = page.getByRole("group", { name: "Sound the alarm annunciator for" });
    await group.getByLabel("Critical").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Successfully set settings");
    const { Config } = await rpc<{ Config: { AnnunciatorSeverities?: string[] } }>("AdminAPI.GetGlobalSettings", {});
    expect(Config.AnnunciatorSeverities).toEqual(["critical"]);

    await page.goto("/dashboard");
    const annunciator = page.getByTestId("annunciator");
    await expect(annunciator).toHaveAttribute("data-state", "off");
    await annunciator.click();
    await expect(annunciator).toHaveAttribute("data-state", "on");
    await expect(annunciator).toHaveText("Alarm sound: on");

    // A high alarm is not a chosen priority: silence.
    rules.push(await firing("high"));
    await expect(page.getByTestId("alarm-banner")).toHaveAttribute("data-severity", "high", { timeout: 15_000 });
    await expect(annunciator).toHaveAttribute("data-state", "on");
    await expect(annunciator).toHaveAttribute("data-beeps", "0");

    // A critical one sounds, tone after tone, until one click silences it.
    rules.push(await firing("critical"));
    await expect(annunciator).toHaveAttribute("data-state", "sounding", { timeout: 15_000 });
    await expect.poll(async () => Number(await annunciator.getAttribute("data-beeps")), { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole("button", { name: "Silence alarm" }).click();
    await expect(annunciator).toHaveAttribute("data-state", "on");

    // Another critical alarm: it sounds again.
    rules.push(await firing("critical"));
    await expect(annunciator).toHaveAttribute("data-state", "sounding", { timeout: 15_000 });
    await page.getByRole("button", { name: "Silence alarm" }).click();
    await expect(annunciator).toHaveAttribute("data-state", "on");

    // Switched on at this display: after a reload it stays on (the browser remembers).
    await page.reload();
    await expect(page.getByTestId("annunciator")).toHaveAttribute("data-state", /on|blocked/);
  } finally {
    for (const ID of rules) await rpc("AlarmAPI.RemoveRule", { ID });
    await setGlobalSettings({ AnnunciatorSeverities: [] });
  }
});
