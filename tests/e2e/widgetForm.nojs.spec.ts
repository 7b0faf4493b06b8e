import { ADMIN_PASSWORD, createDashboardInManager, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// The widget form's threshold rows and the titles widgets take from their variables, with and without JavaScript.

async function variableIds(): Promise<Record<string, string>> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Object.fromEntries(Data.map((v) => [v.Name, v.Id]));
}

type Stored = { ID: string; Version: number; Name: string; Content: { Widgets: { ID: string; Title: string; Type: string; Variables: string[]; Options: { Thresholds?: { Value: number; Color: string }[] } }[] } };
const byName = async (name: string) => (await rpc<{ List: { ID: string; Name: string }[] }>("WebUIAPI.List", {})).List.find((d) => d.Name === name);
const stored = async (id: string) => (await rpc<{ Dashboard: Stored }>("WebUIAPI.GetDashboard", { ID: id })).Dashboard;

test("thresholds are rows of value and colour; an untitled widget is titled from its variables", async ({ page }) => {
  const noJs = test.info().project.name === "nojs";
  const name = unique("Widget rows ");
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await createDashboardInManager(page, name);
  const id = (await byName(name))!.ID;
  try {
    await page.getByTestId("dashboard-editor").getByLabel("Widget type").selectOption({ label: "Gauge" });
    await page.getByTestId("dashboard-editor").getByRole("button", { name: "Add widget" }).click();
    const form = page.getByTestId("widget-form");
    await form.getByLabel("Variable", { exact: true }).selectOption({ label: "Oil pressure [bar]" });
    if (!noJs) await expect(form.getByLabel("Title")).toHaveAttribute("placeholder", "Default: Oil pressure");
    const rows = form.getByTestId("threshold-row");
    // One blank row to start with; more on demand (a round trip without JavaScript, keeping the input).
    await expect(rows).toHaveCount(1);
    await form.getByLabel("Threshold 1: from value").fill("4");
    await form.getByLabel("Threshold 1: colour").selectOption({ label: "Red" });
    await form.getByRole("button", { name: "Add threshold" }).click();
    await expect(rows).toHaveCount(2);
    await expect(form.getByLabel("Threshold 1: from value")).toHaveValue("4");
    await form.getByLabel("Threshold 2: from value").fill("-0");
    await form.getByLabel("Threshold 2: colour").selectOption({ label: "Green" });
    await form.getByRole("button", { name: "Add threshold" }).click();
    await expect(rows).toHaveCount(3);
    // A half-filled row: the error is next to the missing colour, everything typed is kept.
    await form.getByLabel("Threshold 3: from value").fill("2");
    await form.getByRole("button", { name: "Save widget" }).click();
    await expect(rows.nth(2).getByText("Choose a colour for this threshold.")).toBeVisible();
    await expect(form.getByLabel("Threshold 1: colour")).toHaveValue("red");
    await expect(form.getByLabel("Variable", { exact: true })).toHaveValue((await variableIds())["Oil pressure"]!);
    await form.getByRole("button", { name: "Remove threshold 3" }).click();
    await expect(rows).toHaveCount(2);
    await form.getByRole("button", { name: "Save widget" }).click();
    await expect(page.getByText("Widget saved")).toBeVisible();
    const gauge = (await stored(id)).Content.Widgets[0]!;
    expect(gauge.Title).toBe("");
    expect(gauge.Options.Thresholds).toEqual([
      { Value: 0, Color: "green" },
      { Value: 4, Color: "red" },
    ]);

    // Editing shows the stored rows (sorted, "-0" as 0) plus a blank one.
    await page.getByTestId("widget-list").getByRole("link", { name: "Edit: Oil pressure" }).click();
    await expect(page.getByTestId("widget-form").getByTestId("threshold-row")).toHaveCount(3);
    await expect(page.getByTestId("widget-form").getByLabel("Threshold 1: from value")).toHaveValue("0");
    await expect(page.getByTestId("widget-form").getByLabel("Threshold 2: colour")).toHaveValue("red");

    // A chart of three variables without a title: the first two names and "+1", not "Chart".
    const v = await variableIds();
    const d = await stored(id);
    const chart = { ID: "c1", Type: "chart", Title: "", X: 0, Y: 2, W: 6, H: 3, Variables: [v["Oil temperature"], v["Vibration"], v["Shaft speed"]], Options: {} };
    await rpc("WebUIAPI.SaveDashboard", { Dashboard: { ID: id, Version: d.Version, Name: name, Content: { ...d.Content, Widgets: [...d.Content.Widgets, chart] } } });
    await page.goto(`/dashboardManager?edit=${id}`);
    await expect(page.getByTestId("widget-list")).toContainText("Oil temperature, Vibration +1");
    await page.goto(`/dashboard?id=${id}`);
    await expect(page.locator('[data-testid="widget"][data-type="chart"]').getByRole("heading", { level: 2 })).toHaveText("Oil temperature, Vibration +1");
    await expect(page.locator('[data-testid="widget"][data-type="gauge"]').getByRole("heading", { level: 2 })).toHaveText("Oil pressure");
  } finally {
    await rpc("WebUIAPI.RemoveDashboard", { ID: id });
  }
});
