import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, createUser, expect, rpc, signInDirect, signOut, test, unique } from "./fixtures";
import { recordMeasurement, variableIds } from "./history";

// Issue 28 §6: operator annotations, with and without JavaScript — added from a chart panel's
// link and the annotations screen's form, drawn on the dashboard's chart, changed only by their
// author, removed by the author or an administrator, written into CSV exports, and in Analytics.

type Note = { ID: number; Start: number; End: number; Text: string; Author: string };

async function chartDashboard(): Promise<{ id: string; oil: string; remove(): Promise<void> }> {
  const oil = (await variableIds())["Oil temperature"]!;
  const widget = { ID: "oil", Type: "chart", Title: "Oil", X: 0, Y: 0, W: 12, H: 4, Variables: [oil] };
  const { ID } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", { Dashboard: { Name: unique("Notes "), Content: { Refresh: "off", Range: "1h", Widgets: [widget] } } });
  return { id: ID, oil, remove: () => rpc("WebUIAPI.RemoveDashboard", { ID }).then(() => undefined) };
}

const notesNow = async (text: string) => (await rpc<{ Annotations: Note[] }>("AnnotationAPI.List", { Start: Date.now() - 86_400_000, End: Date.now() + 60_000 })).Annotations.filter((a) => a.Text.startsWith(text));
const chart = (page: Page) => page.locator('[data-testid=widget][data-type=chart]');

test("an operator adds a note from a chart panel; it is drawn on the chart, changed by its author only, removed by an administrator", async ({ page, browser, javaScriptEnabled, baseURL }) => {
  const dash = await chartDashboard();
  const text = unique("Changed injector ");
  const operator = await createUser("Operator");
  try {
    await signInDirect(page, operator.username, operator.password);
    await page.goto(`/dashboard?id=${dash.id}`);
    await chart(page).getByRole("link", { name: "Add note: Oil" }).click();
    await expect(page).toHaveURL(/\/annotations\?/);
    const form = page.getByTestId("annotation-add-form");
    // The panel's variable is ticked: the note is about it.
    await expect(form.getByRole("checkbox", { name: "Oil temperature" })).toBeChecked();
    await form.getByLabel("Note", { exact: true }).fill(text);
    await form.getByLabel("Tags").fill("maintenance, injector");
    await form.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Note added");
    // Back on the dashboard it came from, the note on its chart.
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?id=${dash.id}`));
    const [note] = await notesNow(text);
    expect(note).toMatchObject({ Author: operator.username, Text: text });
    expect(note!.End).toBe(note!.Start);
    await expect(chart(page).locator(`[data-annotation="${note!.ID}"]`).first()).toBeAttached();

    // Its author edits it on the annotations screen.
    await page.goto(`/annotations?from=${note!.Start - 60_000}&to=${note!.Start + 60_000}`);
    const row = page.getByTestId("annotations-table").locator(`tr[data-annotation="${note!.ID}"]`);
    await expect(row).toContainText("maintenance, injector");
    await expect(row).toContainText("Oil temperature");
    await row.getByRole("link", { name: /^Edit/ }).click();
    const edit = page.getByTestId("annotation-edit-form");
    await edit.getByLabel("Note", { exact: true }).fill(`${text} and nozzle`);
    await edit.getByRole("button", { name: "Save note" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Note saved");
    await expect(row).toContainText(`${text} and nozzle`);

    // Another operator may neither change nor remove it; an administrator may remove it, not change it.
    const other = await createUser("Operator");
    const otherPage = await (await browser.newContext({ javaScriptEnabled, baseURL })).newPage();
    await signInDirect(otherPage, other.username, other.password);
    await otherPage.goto(`/annotations?from=${note!.Start - 60_000}&to=${note!.Start + 60_000}`);
    const theirs = otherPage.getByTestId("annotations-table").locator(`tr[data-annotation="${note!.ID}"]`);
    await expect(theirs).toBeVisible();
    await expect(theirs.getByRole("link")).toHaveCount(0);
    await otherPage.context().close();

    await signOut(page);
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.goto(`/annotations?from=${note!.Start - 60_000}&to=${note!.Start + 60_000}`);
    await expect(row.getByRole("link", { name: /^Edit/ })).toHaveCount(0);
    await row.getByRole("link", { name: "Remove" }).click();
    await page.getByTestId("confirm-form").getByRole("button", { name: "Remove" }).click();
    await expect(page.getByTestId("toast-success")).toHaveText("Note removed");
    await expect(row).toHaveCount(0);
    expect(await notesNow(text)).toEqual([]);
    const { Messages } = await rpc<{ Messages: { Sender: string; Text: string }[] }>("GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 20 });
    expect(Messages.some((m) => m.Sender === "admin" && m.Text.startsWith(`Removed annotation ${note!.ID} by ${operator.username}`))).toBe(true);
  } finally {
    for (const n of await notesNow(text)) await rpc("AnnotationAPI.Remove", { ID: n.ID });
    await dash.remove();
  }
});

test("a viewer sees notes but is offered no adding, and may not post one", async ({ page }) => {
  const dash = await chartDashboard();
  const viewer = await createUser("Viewer");
  const text = unique("Viewer sees ");
  const at = Date.now() - 10 * 60_000;
  const { ID } = await rpc<{ ID: number }>("AnnotationAPI.Add", { Annotation: { Start: at, End: at + 5 * 60_000, Text: text, Variables: [dash.oil] } });
  try {
    await signInDirect(page, viewer.username, viewer.password);
    await page.goto(`/dashboard?id=${dash.id}`);
    await expect(chart(page).locator(`[data-annotation="${ID}"]`).first()).toBeAttached();
    await expect(chart(page).getByRole("link", { name: /^Add note/ })).toHaveCount(0);
    await expect(chart(page).getByRole("link", { name: "Analyse Oil in Analytics" })).toBeVisible();
    const res = await page.request.post("/annotations", { form: { intent: "add", start: String(at), text: "not allowed" }, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 });
    expect(res.status()).toBe(403);
  } finally {
    await rpc("AnnotationAPI.Remove", { ID });
    await dash.remove();
  }
});

test("a CSV export with metadata carries the notes of its range as comment lines", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const m = await recordMeasurement("Noted ", 1200);
  const oil = (await variableIds())["Oil temperature"]!;
  const text = unique("Warm-up ");
  const { ID } = await rpc<{ ID: number }>("AnnotationAPI.Add", { Annotation: { Start: m.Start + 100, End: m.End - 100, Text: text, Tags: ["run"], Variables: [oil] } });
  try {
    await page.goto("/export");
    const form = page.getByTestId("export-form");
    await form.getByLabel("Oil temperature [°C]").check();
    await form.getByRole("radio", { name: "Measurement" }).check();
    await form.getByRole("combobox", { name: "Measurement", exact: true }).selectOption({ label: m.Name });
    await form.getByLabel("Metadata (measurement, variables, devices) and notes as comment lines at the top").check();
    const [download] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download CSV" }).click()]);
    const lines = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
    expect(lines).toContain(`# Annotation ${new Date(m.Start + 100).toISOString()} – ${new Date(m.End - 100).toISOString()} (admin): ${text} [run]`);
    expect(lines.findIndex((l) => l.startsWith("# Annotation"))).toBeLessThan(lines.findIndex((l) => !l.startsWith("# ")));
  } finally {
    await rpc("AnnotationAPI.Remove", { ID });
  }
});

test("Analytics draws the notes of its range on the charts of their variables", async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  const oil = (await variableIds())["Oil temperature"]!;
  const at = Date.now() - 20 * 60_000;
  const text = unique("Analysed ");
  const { ID } = await rpc<{ ID: number }>("AnnotationAPI.Add", { Annotation: { Start: at, Text: text, Variables: [oil] } });
  try {
    await page.goto(`/analytics?v=${oil}&span=preset&range=1h`);
    await expect(page.locator(`[data-annotation="${ID}"]`).first()).toBeAttached();
    // Other tests' notes may share the hour: at least this one is counted.
    await expect(page.getByTestId("analytics-notes")).toHaveText(/^[1-9]\d* notes? in this range$/);
    await page.getByTestId("analytics-notes").click();
    await expect(page.getByTestId("annotations-table").locator(`tr[data-annotation="${ID}"]`)).toContainText(text);
  } finally {
    await rpc("AnnotationAPI.Remove", { ID });
  }
});
