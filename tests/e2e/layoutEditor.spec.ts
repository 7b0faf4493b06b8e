import { ADMIN_PASSWORD, expect, rpc, signInDirect, test, unique } from "./fixtures";

// With JavaScript: the Dashboard Manager's layout grid moves and resizes widgets by pointer and
// by keyboard, and "Save layout" stores every position at once.

type Box = { ID: string; X: number; Y: number; W: number; H: number };

async function layoutOf(id: string): Promise<Record<string, Box>> {
  const { Dashboard } = await rpc<{ Dashboard: { Content: { Widgets: Box[] } } }>("WebUIAPI.GetDashboard", { ID: id });
  return Object.fromEntries(Dashboard.Content.Widgets.map(({ ID, X, Y, W, H }) => [ID, { ID, X, Y, W, H }]));
}

test("drag, resize and keyboard moves in the layout editor are saved together", async ({ page }) => {
  const name = unique("Layout ");
  const text = (ID: string, X: number, Y: number) => ({ ID, Type: "text", X, Y, W: 3, H: 2, Variables: [], Options: { Text: ID } });
  const { ID: id } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", {
    Dashboard: { Name: name, Content: { Columns: 12, RowHeight: 80, Range: "1h", Refresh: "off", Widgets: [text("a", 0, 0), text("b", 6, 0), text("c", 0, 4)] } },
  });
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto(`/dashboardManager?edit=${id}`);
  const editor = page.getByTestId("layout-editor");
  await expect(editor.getByText(/Drag a widget/)).toBeVisible(); // the hint appears once hydrated
  const box = (w: string) => editor.locator(`[data-testid="layout-box"][data-widget="${w}"]`);

  // Pointer: move "a" three columns right and one row down.
  const a = (await box("a").boundingBox())!;
  const grid = (await editor.locator(".grid").boundingBox())!;
  const col = (grid.width - 8) / 12;
  await page.mouse.move(a.x + 10, a.y + 10);
  await page.mouse.down();
  await page.mouse.move(a.x + 10 + col * 3, a.y + 10 + 40, { steps: 5 });
  await page.mouse.up();
  await expect(box("a")).toHaveAttribute("aria-label", /3.*1.*3.*2/);

  // Pointer: widen "b" by two columns with the corner handle.
  const handle = (await box("b").getByTestId("layout-resize").boundingBox())!;
  await page.mouse.move(handle.x + 4, handle.y + 4);
  await page.mouse.down();
  await page.mouse.move(handle.x + 4 + col * 2, handle.y + 4, { steps: 5 });
  await page.mouse.up();

  // Keyboard: "c" one column right (arrow), one row taller (Shift+arrow); the grid's edges hold.
  await box("c").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");

  // Nothing is stored before "Save layout".
  expect((await layoutOf(id)).a).toEqual({ ID: "a", X: 0, Y: 0, W: 3, H: 2 });
  await expect(page.getByRole("status").filter({ hasText: /not saved|unsaved|changed/i })).toBeVisible();
  await page.getByRole("button", { name: "Save layout" }).click();
  await expect.poll(async () => (await layoutOf(id)).a).toEqual({ ID: "a", X: 3, Y: 1, W: 3, H: 2 });
  const saved = await layoutOf(id);
  expect(saved.b).toEqual({ ID: "b", X: 6, Y: 0, W: 5, H: 2 });
  expect(saved.c).toEqual({ ID: "c", X: 0, Y: 4, W: 3, H: 3 });

  // The dashboard draws the widgets where the editor put them.
  await page.goto(`/dashboard?id=${id}`);
  const cell = page.locator('[data-widget="a"]').locator("xpath=..");
  await expect(cell).toHaveAttribute("style", /--x:\s*4 \/ span 3/);
  await rpc("WebUIAPI.RemoveDashboard", { ID: id });
});
