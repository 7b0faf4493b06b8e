import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

test("the maintenance banner starts, can be dismissed, and stops", async ({ page }) => {
  const topic = unique("maint");
  const text = `Planned maintenance ${topic}`;
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic, Type: "Error", Text: text, Args: ["Start"] });
  try {
    await page.goto("/versionInfo");
    const banner = page.getByTestId("maintenance-banner");
    await expect(banner).toContainText(text);
    await expect(banner).toHaveAttribute("data-severity", "error");
    await banner.getByRole("button", { name: "Dismiss" }).click();
    await expect(page).toHaveURL(/\/versionInfo$/);
    await expect(page.getByTestId("maintenance-banner")).toHaveCount(0);
    await page.goto("/settings");
    await expect(page.getByTestId("maintenance-banner")).toHaveCount(0);
  } finally {
    await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic, Type: "Info", Text: text, Args: ["Stop"] });
  }
  // A new maintenance text shows again; a Stop on its topic ends it.
  const topic2 = unique("maint");
  await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic2, Type: "Warning", Text: `Second ${topic2}`, Args: ["Start"] });
  await page.goto("/settings");
  await expect(page.getByTestId("maintenance-banner")).toContainText(`Second ${topic2}`);
  await expect(page.getByTestId("maintenance-banner")).toHaveAttribute("data-severity", "warning");
  await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic2, Type: "Info", Text: "done", Args: ["Stop"] });
  await page.goto("/settings");
  await expect(page.getByTestId("maintenance-banner")).toHaveCount(0);
});

// Spec §4, §9: once dismissed, the same text comes back (in the next browser session) until it
// has been shown 3 times in total — the count of dismissals starts at 0 and suppresses at 2.
test("a dismissed maintenance text comes back in the next session until shown 3 times", async ({ page }) => {
  const topic = unique("maint");
  const text = `Maintenance window ${topic}`;
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic, Type: "Warning", Text: text, Args: ["Start"] });
  try {
    const banner = page.getByTestId("maintenance-banner");
    for (let shown = 1; shown <= 3; shown++) {
      await page.goto("/versionInfo");
      await expect(banner, `showing ${shown}`).toContainText(text);
      await banner.getByRole("button", { name: "Dismiss" }).click();
      await expect(page).toHaveURL(/\/versionInfo$/);
      await expect(banner).toHaveCount(0);
      // The rest of this session stays quiet.
      await page.goto("/settings");
      await expect(banner).toHaveCount(0);
      // A new browser session: the session cookie is gone, the count (persistent) stays.
      const closed = (await page.context().cookies()).find((c) => c.name === "loggia_maintenance_closed");
      expect(closed?.expires).toBe(-1);
      await page.context().clearCookies({ name: "loggia_maintenance_closed" });
    }
    await page.goto("/versionInfo");
    await expect(banner).toHaveCount(0);
  } finally {
    await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic, Type: "Info", Text: text, Args: ["Stop"] });
  }
});
