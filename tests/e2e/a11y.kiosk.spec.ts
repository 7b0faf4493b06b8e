import { COLOUR_RULES, expectAccessible, raiseEveryPriority, userWithTheme } from "./axe";
import { expect, roleId, rpc, signInDirect, test, unique } from "./fixtures";

// Issue 15 §10 on the wall display (1920×1080, the kiosk project): no serious or critical axe
// violation on every kiosk page — the default dashboard, a named one, the rotation through the
// dashboards and the stale strip — in the light and the dark theme (each a user's choice).

type Stored = { ID: string; Name: string; IsDefault: boolean };
let named = "";
let lowerAlarms: (() => Promise<void>) | null = null;

test.beforeAll(async () => {
  // A named, non-default dashboard with every kind of widget: the default one's widgets, an
  // untitled text and an alarm list.
  const { List } = await rpc<{ List: Stored[] }>("WebUIAPI.List", {});
  const base = List.find((d) => d.IsDefault) ?? List[0]!;
  const { Dashboard } = await rpc<{ Dashboard: { Content: { Widgets: { Y: number; H: number }[] } & Record<string, unknown> } }>("WebUIAPI.GetDashboard", { ID: base.ID });
  const below = Math.max(0, ...Dashboard.Content.Widgets.map((w) => w.Y + w.H));
  const Widgets = [
    ...Dashboard.Content.Widgets,
    { ID: "a11y-note", Type: "text", Title: "", X: 0, Y: below, W: 6, H: 2, Variables: [], Options: { Text: "# Shift notes\nCheck the oil level." } },
    { ID: "a11y-alarms", Type: "alarms", Title: "", X: 6, Y: below, W: 6, H: 2, Variables: [], Options: {} },
  ];
  ({ ID: named } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", { Dashboard: { Name: unique("Kiosk a11y "), Content: { ...Dashboard.Content, Widgets } } }));
  // Every severity on the alarm strip and list (issue 28 §4).
  lowerAlarms = await raiseEveryPriority();
});

test.afterAll(async () => {
  if (named) await rpc("WebUIAPI.RemoveDashboard", { ID: named });
  await lowerAlarms?.();
});

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    // One user per theme for the file; signInDirect signs it in once per worker.
    let user: { username: string; password: string } | null = null;
    // The light theme runs every rule; the dark one only those its colours decide.
    const rules = theme === "light" ? undefined : COLOUR_RULES;
    test.beforeEach(async ({ page }) => {
      user ??= await userWithTheme(await roleId("Administrator"), theme);
      await signInDirect(page, user.username, user.password);
    });

    const pages = [
      ["the default dashboard", () => "/dashboard?kiosk"],
      ["a named dashboard", () => `/dashboard?kiosk&id=${named}`],
      ["the rotation through the dashboards", () => `/dashboard?kiosk&cycle=60&id=${named}`],
    ] as const;
    for (const [what, path] of pages) {
      test(`${what} has no serious or critical axe violations`, async ({ page }) => {
        await page.goto(path());
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await expect(page.locator("main[data-kiosk]")).toBeVisible();
        await expect(page.getByTestId("widget").first()).toBeVisible();
        await expectAccessible(page, `kiosk: ${what} (${theme})`, { rules });
      });
    }

    test("the stale strip has no serious or critical axe violations", async ({ page }) => {
      test.setTimeout(60_000);
      await page.goto(`/dashboard?kiosk&id=${named}`);
      await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
      try {
        await rpc("ProjectAPI.Stop", {});
        await expect(page.getByTestId("kiosk-outage")).toHaveAttribute("data-state", "stale", { timeout: 15_000 });
        await expectAccessible(page, `stale kiosk (${theme})`, { rules });
      } finally {
        await rpc("ProjectAPI.Start", {});
      }
      await expect(page.getByTestId("kiosk-outage")).toHaveCount(0, { timeout: 15_000 });
    });
  });
}
