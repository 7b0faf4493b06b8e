import type { Page } from "@playwright/test";
import { expect, rpc, signInDirect, test, unique, ADMIN_PASSWORD } from "./fixtures";
import { variableIds } from "./history";

// Issue 28 §6 with JavaScript: one crosshair for all the charts of a dashboard (pointer and
// keyboard), and a note added on a chart in place by Shift-drag.

async function twoCharts(): Promise<{ id: string; remove(): Promise<void> }> {
  const v = await variableIds();
  const Widgets = [
    { ID: "temps", Type: "chart", Title: "Temps", X: 0, Y: 0, W: 12, H: 3, Variables: [v["Oil temperature"]] },
    { ID: "press", Type: "chart", Title: "Press", X: 0, Y: 3, W: 12, H: 3, Variables: [v["Oil pressure"]] },
  ];
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", { Dashboard: { Name: unique("Crosshair "), Content: { Refresh: "off", Range: "1h", Widgets } } });
  return { id: ID, remove: () => rpc("WebUIAPI.RemoveDashboard", { ID }).then(() => undefined) };
}

const plot = (page: Page, widget: string) => page.locator(`[data-widget=${widget}] [data-testid=uplot-chart]`);
const readout = (page: Page, widget: string) => page.locator(`[data-widget=${widget}] [data-testid=chart-readout]`);
/**
 * Both read-outs' times, read in one task: the range follows live samples, and a window that
 * slides between two separate reads moves both cursors to a new bucket (CI: 22:48:57 read, then 22:49:01).
 */
const readoutTimes = (page: Page) =>
  page.evaluate(() => ["temps", "press"].map((w) => document.querySelector(`[data-widget=${w}] [data-testid=readout-time]`)?.textContent ?? null));
const sameTimes = async (page: Page) => {
  await expect
    .poll(async () => {
      const [a, b] = await readoutTimes(page);
      return a !== null && a === b ? "one time" : `temps ${a}, press ${b}`;
    }, { message: "both charts' read-outs at one time" })
    .toBe("one time");
};

test("the charts of a dashboard share one crosshair, by pointer and by keyboard", async ({ page }) => {
  const dash = await twoCharts();
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/dashboard?id=${dash.id}`);
    await expect(page.locator("[data-widget=temps] [data-testid=chart][data-ready]")).toBeVisible();
    await expect(page.locator("[data-widget=press] [data-testid=chart][data-ready]")).toBeVisible();
    const box = (await plot(page, "temps").boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    // The chart under the pointer leads with its full read-out; the other follows at the same time, compact.
    await expect(readout(page, "temps")).toBeVisible();
    await expect(readout(page, "temps")).not.toHaveAttribute("data-following");
    await expect(readout(page, "press")).toHaveAttribute("data-following", "true");
    // A follower draws the time line only: a value line would point into another chart's scale.
    await expect(page.locator("[data-widget=temps] .u-cursor-y")).toBeVisible();
    await expect(page.locator("[data-widget=press] .u-cursor-y")).toBeHidden();
    await sameTimes(page);
    // The follower's read-out stays inside its plot.
    const follower = (await readout(page, "press").boundingBox())!;
    const pressPlot = (await plot(page, "press").boundingBox())!;
    expect(follower.x + follower.width).toBeLessThanOrEqual(pressPlot.x + pressPlot.width + 1);
    await page.mouse.move(0, 0);
    await expect(readout(page, "press")).toHaveCount(0);

    // The keyboard cursor of one chart moves the other's too.
    await page.locator("[data-widget=press] [data-testid=uplot-focus]").focus();
    await page.keyboard.press("Home");
    await expect(readout(page, "temps")).toHaveAttribute("data-following", "true");
    await sameTimes(page);
  } finally {
    await dash.remove();
  }
});

test("Shift-drag on a chart adds a note in place; its flag opens it", async ({ page }) => {
  const dash = await twoCharts();
  const text = unique("In place ");
  try {
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/dashboard?id=${dash.id}`);
    await expect(page.locator("[data-widget=temps] [data-testid=chart][data-ready]")).toBeVisible();
    const url = page.url();
    const box = (await plot(page, "temps").boundingBox())!;
    await page.keyboard.down("Shift");
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    // A note's span, not a zoom: the address (range) is unchanged.
    const draft = page.getByTestId("note-draft");
    await expect(draft).toBeVisible();
    expect(page.url()).toBe(url);
    await draft.getByLabel("Note").fill(text);
    await draft.getByLabel("Tags").fill("warm-up");
    await draft.getByRole("button", { name: "Save note" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Note added");
    await expect(draft).toHaveCount(0);
    const { Annotations } = await rpc<{ Annotations: { ID: number; Start: number; End: number; Text: string; Variables: string[] }[] }>("AnnotationAPI.List", { Start: Date.now() - 3_600_000, End: Date.now() });
    const note = Annotations.find((a) => a.Text === text)!;
    expect(note.End - note.Start).toBeGreaterThan(60_000);
    expect(note.Variables).toEqual([(await variableIds())["Oil temperature"]]);
    // Drawn on its chart (a flag to open it), not on the other one's.
    const flag = page.locator(`[data-widget=temps] button[data-annotation="${note.ID}"]`);
    await expect(flag).toBeVisible();
    await expect(page.locator(`[data-widget=press] [data-annotation="${note.ID}"]`)).toHaveCount(0);
    await flag.click();
    await expect(page.getByTestId("note-details")).toContainText(text);
    await expect(page.getByTestId("note-details")).toContainText("admin · warm-up");
    await rpc("AnnotationAPI.Remove", { ID: note.ID });
  } finally {
    await dash.remove();
  }
});
