import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { ADMIN_PASSWORD, expect, LOGGER, roleId, rpc, signInDirect, test, token, unique } from "./fixtures";

// Issue 28 §3: on a phone (390×844, below 640 px) every list is a column of cards: no sideways
// scrolling, each row's fields and actions within the screen's width, every action a target of
// at least 44×44 px, a destructive action at least 8 px from the others. A dashboard's alarm
// list comes first while alarms are active. With JavaScript and without.

const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 } });

async function variableId(name: string): Promise<string> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Data.find((v) => v.Name === name)!.Id;
}

/** A rule that fires on the next samples, and its alarm active. */
async function firingRule(): Promise<{ id: number; name: string }> {
  const name = unique("Phone check ");
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: name, VariableId: await variableId("Oil temperature"), Type: "high", High: -1000, Severity: "high" } });
  await expect.poll(async () => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.find((a) => a.ID === ID)?.State, { timeout: 15_000 }).toBe("ActiveUnacknowledged");
  return { id: ID, name };
}

type Box = { x: number; y: number; width: number; height: number; text: string; danger: boolean };

/** The boxes of a row's main fields and of its actions (links and buttons of its actions, every button, the alarm check box's target). */
async function rowBoxes(row: Locator) {
  return row.evaluate((tr) => {
    const box = (el: Element, danger = false): Box => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, text: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim(), danger };
    };
    // The fields: the row's header (its title) and every labelled cell with something in it.
    const fields = [...tr.querySelectorAll(":scope > th, :scope > td[data-label]:not([data-empty])")].map((td) => box(td));
    const actions = new Set<Element>([...tr.querySelectorAll("[data-row-actions] a, [data-row-actions] button, button")]);
    for (const input of tr.querySelectorAll('input[type="checkbox"]')) actions.add(input.closest("label") ?? input);
    const isDanger = (el: Element) => /\b(text-red-\d+)\b/.test(el.className) || /remove|delete/i.test(el.textContent ?? "");
    return { row: box(tr), fields, actions: [...actions].map((a) => box(a, isDanger(a))) };
  });
}

/** The gap between two boxes: the larger of their horizontal and vertical distances (0 when they touch or overlap). */
function gap(a: Box, b: Box) {
  const dx = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width), 0);
  const dy = Math.max(b.y - (a.y + a.height), a.y - (b.y + b.height), 0);
  return Math.max(dx, dy);
}

async function assertCards(page: Page, table: Locator, what: string) {
  const width = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(width.scroll, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(width.inner);
  const rows = table.locator(":scope > tbody > tr:not(:has([data-testid=table-empty]))");
  expect(await rows.count(), `${what}: rows to look at`).toBeGreaterThan(0);
  const count = Math.min(await rows.count(), 3);
  for (let k = 0; k < count; k++) {
    const { row, fields, actions } = await rowBoxes(rows.nth(k));
    const where = `${what}, row ${k + 1} (${row.text.slice(0, 40)})`;
    expect(row.x, where).toBeGreaterThanOrEqual(0);
    expect(row.x + row.width, where).toBeLessThanOrEqual(WIDTH);
    expect(fields.length, `${where}: labelled fields`).toBeGreaterThan(1);
    for (const f of fields) {
      expect(f.width, `${where}: field ${f.text.slice(0, 30)} shown`).toBeGreaterThan(0);
      expect(f.x + f.width, `${where}: field ${f.text.slice(0, 30)} within the width`).toBeLessThanOrEqual(WIDTH);
    }
    for (const a of actions) {
      expect(a.x, `${where}: ${a.text} within the width`).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width, `${where}: ${a.text} within the width`).toBeLessThanOrEqual(WIDTH);
      expect(a.width, `${where}: ${a.text} is ${a.width}×${a.height}`).toBeGreaterThanOrEqual(44);
      expect(a.height, `${where}: ${a.text} is ${a.width}×${a.height}`).toBeGreaterThanOrEqual(44);
    }
    for (const d of actions.filter((a) => a.danger)) {
      for (const o of actions.filter((a) => !a.danger)) expect(gap(d, o), `${where}: ${d.text} next to ${o.text}`).toBeGreaterThanOrEqual(8);
    }
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });
    let rule: { id: number; name: string };
    test.beforeAll(async () => {
      rule = await firingRule();
    });
    test.afterAll(async () => {
      await rpc("AlarmAPI.RemoveRule", { ID: rule.id });
    });
    test.beforeEach(async ({ page }) => {
      await signInDirect(page, "admin", ADMIN_PASSWORD);
    });

    test("every list is a column of cards with large, separated actions", async ({ page }) => {
      // A long address (as other tests' users have in a full run) breaks inside its card.
      const long = unique("a-user-with-a-rather-long-name-");
      await rpc("GI.system/UserManagementAPI.AddUser", { User: { Username: long, EMail: `${long}@plant-maintenance.example.com`, Role: await roleId("Viewer"), Timezone: "Europe/Rome", TimezoneDiffSec: 0, TimezoneUseDST: true }, Password: `pw-${long}-1` });
      // Each list, and the primary action above it (a large target too).
      const screens: [string, string, string | null][] = [
        ["/alarming", "alarms-table", null],
        // Choosing several to acknowledge: each check box in a 44 px target.
        ["/alarming?ack=select", "alarms-table", null],
        ["/userManagement", "users-table", "Add user"],
        ["/roleManagement", "roles-table", "Add role"],
        ["/rulesNotifications", "rules-table", null],
        ["/dashboardManager", "dashboards-table", "New dashboard"],
        ["/fileBrowser", "files-table", null],
        // Variables: value, badge and an output's Write… or On/Off within the card.
        ["/variableOverview?sort=direction&dir=desc", "variables-table", null],
      ];
      for (const [path, testId, primary] of screens) {
        await page.goto(path);
        if (path === "/fileBrowser") {
          // A folder of our own, so the list has a row with its actions.
          await page.getByLabel("Folder name").fill(unique("phone"));
          await page.getByRole("button", { name: "Create folder" }).click();
          await expect(page.getByTestId("toast-success")).toBeVisible();
        }
        await assertCards(page, page.getByTestId(testId), path);
        if (primary) {
          const box = (await page.getByRole("link", { name: primary, exact: true }).boundingBox())!;
          expect(box.height, `${path}: ${primary} is ${box.width}×${box.height}`).toBeGreaterThanOrEqual(44);
          expect(box.width).toBeGreaterThanOrEqual(44);
        }
        if (javaScriptEnabled) await expectAccessible(page, `${path} at ${WIDTH} px`);
      }
      // Sorting stays: the header's sort links are a row of large targets above the cards.
      await page.goto("/userManagement");
      const sort = page.getByTestId("users-table").getByRole("link", { name: "Username" });
      const sortBox = (await sort.boundingBox())!;
      expect(sortBox.height).toBeGreaterThanOrEqual(44);
      expect(sortBox.x + sortBox.width).toBeLessThanOrEqual(WIDTH);
      await sort.click();
      await expect(page).toHaveURL(/sort=username/);

      // The alarm's card: its value, since and acknowledgement in sight.
      const card = page.getByTestId("alarms-table").locator(`tr[data-alarm="${rule.name}"]`);
      await page.goto("/alarming");
      const ack = card.getByRole("button", { name: `Acknowledge ${rule.name}` });
      await ack.scrollIntoViewIfNeeded();
      await expect(ack).toBeInViewport({ ratio: 1 });
      for (const label of ["Value", "Since"]) {
        const field = card.locator(`td[data-label="${label}"]`);
        await expect(field).toBeInViewport({ ratio: 1 });
        // Its label is drawn beside the value (CSS, from data-label).
        expect(await field.evaluate((td) => getComputedStyle(td, "::before").content)).toContain(label);
      }
    });

    test("a dashboard's alarm list comes first while alarms are active", async ({ page }) => {
      const name = unique("Phone wall ");
      const widgets = [
        { ID: "chart", Type: "chart", X: 0, Y: 0, W: 12, H: 4, Variables: [await variableId("Oil temperature")] },
        { ID: "alarms", Type: "alarms", X: 0, Y: 4, W: 12, H: 4, Variables: [] },
      ];
      const { ID: id } = await rpc<{ ID: string }>("WebUIAPI.SaveDashboard", { Dashboard: { Name: name, Content: { Refresh: "off", Range: "1h", Widgets: widgets } } });
      try {
        await page.goto(`/dashboard?id=${id}`);
        const alarms = page.locator('[data-testid="widget"][data-type="alarms"]');
        await expect(alarms.locator(`[data-alarm="${rule.name}"]`)).toBeAttached();
        const chart = page.locator('[data-testid="widget"][data-type="chart"]');
        const a = (await alarms.boundingBox())!;
        const c = (await chart.boundingBox())!;
        expect(a.y + a.height, "the alarm list above the chart").toBeLessThanOrEqual(c.y);
        // Its acknowledge button is a large target too.
        const ack = (await alarms.getByRole("button", { name: new RegExp(rule.name) }).boundingBox())!;
        expect(ack.width).toBeGreaterThanOrEqual(44);
        expect(ack.height).toBeGreaterThanOrEqual(44);
        // On a wide screen the stored layout holds: the chart (row 0) above the alarm list.
        await page.setViewportSize({ width: 1280, height: 900 });
        const wideA = (await alarms.boundingBox())!;
        const wideC = (await chart.boundingBox())!;
        expect(wideC.y + wideC.height).toBeLessThanOrEqual(wideA.y);
      } finally {
        await rpc("WebUIAPI.RemoveDashboard", { ID: id });
      }
    });
  });
}
