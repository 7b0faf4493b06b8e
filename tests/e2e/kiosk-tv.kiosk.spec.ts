import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, LOGGER, rpc, signInDirect, test, token, unique } from "./fixtures";

// Issue 28 §B1: TV mode. On the kiosk every text scales with the screen — none under 24 px at
// 1080p, 48 px at 4K — and nothing overprints, is cut off or crowds at 1366×768, 1920×1080 and
// 3840×2160. Measured in the page: every visible text node (HTML and SVG), the canvas charts'
// axis fonts as the chart reports them, text boxes overlapping within a tile, text outside the
// box of an ancestor that hides its overflow (a scrolled-away row of a scrolling list excepted).

const SIZES = [
  { width: 1366, height: 768, min: 0 },
  { width: 1920, height: 1080, min: 24 },
  { width: 3840, height: 2160, min: 48 },
] as const;

interface Finding {
  fonts: string[];
  overlaps: string[];
  clipped: string[];
  offscreen: string[];
  texts: number;
  smallest: number;
}

/** In the page: every visible text's size, overlaps within a tile (or the kiosk's chrome), clipping. */
function audit(min: number): Finding {
  const out: Finding = { fonts: [], overlaps: [], clipped: [], offscreen: [], texts: 0, smallest: Infinity };
  const label = (s: string) => JSON.stringify(s.trim().replace(/\s+/g, " ").slice(0, 40));
  const boxes = new Map<Element, { rect: DOMRect; text: string; node: Text }[]>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data;
    const el = node.parentElement;
    if (!text.trim() || !el) continue;
    if (el.closest("noscript, script, style, template, title, .sr-only, [hidden]")) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    // Chromium's checkVisibility does not see an SVG group's display: none (the chart's label tiers).
    if (hiddenInSvg(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (rects.length === 0) continue;
    // Rows of a scrolling list that are scrolled out of its view are not shown: not measured.
    const scroller = el.closest("[data-testid=widget] *") ? findScroller(el) : null;
    if (scroller) {
      const s = scroller.getBoundingClientRect();
      if (rects.every((r) => r.bottom <= s.top + 1 || r.top >= s.bottom - 1)) continue;
    }
    out.texts++;
    const svgText = el instanceof SVGElement ? (el.closest("text") as SVGTextElement | null) : null;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (svgText) {
      const m = svgText.getScreenCTM();
      if (m) px *= Math.hypot(m.a, m.b);
    }
    out.smallest = Math.min(out.smallest, px);
    if (px < min - 0.01) out.fonts.push(`${px.toFixed(1)} px ${label(text)}`);
    for (const r of rects) {
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) out.offscreen.push(label(text));
    }
    // Cut off: outside the box of any ancestor (or itself) that hides its overflow; a scrolling
    // list may run on below its view, never sideways.
    for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const box = a.getBoundingClientRect();
      const scrollsY = /auto|scroll/.test(s.overflowY);
      const cut = rects.some((r) => r.left < box.left - 1 || r.right > box.right + 1 || (!scrollsY && (r.top < box.top - 1 || r.bottom > box.bottom + 1)));
      if (cut) {
        out.clipped.push(`${label(text)} in <${a.tagName.toLowerCase()} ${a.getAttribute("data-testid") ?? a.getAttribute("class")?.slice(0, 40) ?? ""}>`);
        break;
      }
    }
    const group = el.closest("[data-testid=widget]") ?? el.closest("[data-testid=kiosk-chrome]") ?? el.closest("[data-testid=maintenance-banner]") ?? document.body;
    const list = boxes.get(group) ?? [];
    for (const rect of rects) list.push({ rect, text, node });
    boxes.set(group, list);
  }
  // Overprint: two text boxes of one tile sharing more than a sliver (a glyph box is ~1.16 em
  // high, so lines set at 1.1–1.2 touch by a few hundredths of an em; 15 % is well beyond that).
  for (const [, list] of boxes) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        if (a.node === b.node) continue;
        const w = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const h = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (w > 2 && h > 0.15 * Math.min(a.rect.height, b.rect.height)) out.overlaps.push(`${label(a.text)} × ${label(b.text)}`);
      }
    }
  }
  return out;

  function hiddenInSvg(el: Element): boolean {
    for (let a: Element | null = el; a instanceof SVGElement; a = a.parentElement) if (getComputedStyle(a).display === "none") return true;
    return false;
  }

  function findScroller(el: Element): Element | null {
    for (let a = el.parentElement; a && !a.matches("[data-testid=widget]"); a = a.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(a).overflowY)) return a;
    }
    return null;
  }
}

/** The seeded demo dashboards' ids: the test cell's (the default one) first. */
async function demoIds(): Promise<string[]> {
  const list = (await rpc<{ List: { ID: string; Name: string }[] }>("WebUIAPI.List", {})).List;
  return ["Test cell dashboard", "Energy and weather dashboard"].map((name) => list.find((d) => d.Name === name)!.ID);
}
const testCellId = async () => (await demoIds())[0]!;

/** An alarm that is active as long as the test runs, so the strip and the list have a row to measure. */
async function withAlarm(run: () => Promise<void>) {
  const vars = (await (await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } })).json()) as { Data: { Id: string; Name: string }[] };
  const oil = vars.Data.find((v) => v.Name === "Oil temperature")!;
  const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: unique("TV check "), VariableId: oil.Id, Type: "high", High: -1000, Severity: "high" } });
  try {
    await run();
  } finally {
    await rpc("AlarmAPI.RemoveRule", { ID });
  }
}

async function expectReadable(page: Page, size: (typeof SIZES)[number], what: string) {
  const found = await page.evaluate(audit, size.min);
  expect(found.texts, `${what}: texts measured`).toBeGreaterThan(30);
  expect(found.fonts, `${what}: texts under ${size.min} px`).toEqual([]);
  expect(found.overlaps, `${what}: overprinted texts`).toEqual([]);
  expect(found.clipped, `${what}: cut-off texts`).toEqual([]);
  expect(found.offscreen, `${what}: texts off the screen`).toEqual([]);
  const scroll = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));
  expect(scroll.h, `${what}: no scrolling`).toBeLessThanOrEqual(size.height);
  expect(scroll.w, `${what}: no scrolling`).toBeLessThanOrEqual(size.width);
  // Gauges keep a readable arc: a good part of their tile, never a sliver.
  for (const g of await page.locator("[data-type=gauge]").evaluateAll((els) =>
    els.map((tile) => ({ tile: tile.getBoundingClientRect().height, arc: tile.querySelector("svg path")!.getBoundingClientRect().height })),
  )) {
    expect(g.arc, `${what}: gauge arc against its tile`).toBeGreaterThan(g.tile * 0.3);
  }
  return found;
}

test.describe("with JavaScript", () => {
  test("every kiosk text scales with the screen and none overprints or is cut off, at 1366×768, 1080p and 4K", async ({ page }) => {
    test.setTimeout(90_000);
    const ids = await demoIds();
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await withAlarm(async () => {
      for (const [size, id] of SIZES.flatMap((size) => ids.map((id) => [size, id] as const))) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.goto(`/dashboard?kiosk&id=${id}`);
        await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
        await expect(page.getByTestId("kiosk-alarm").first()).toBeVisible({ timeout: 25_000 });
        const charts = page.locator("[data-testid=chart]");
        await expect(page.locator("[data-testid=chart][data-ready]")).toHaveCount(await charts.count());
        const what = `${size.width}×${size.height} ${await page.getByRole("heading", { level: 1 }).textContent()}`;
        await expectReadable(page, size, what);
        // The canvas charts: axis text at the kiosk's size, and enough value labels to read off.
        const axes = await page.getByTestId("uplot-chart").evaluateAll((els) => els.map((e) => ({ font: Number(e.getAttribute("data-axis-px")), labels: Number(e.getAttribute("data-y-labels")), height: Number(e.getAttribute("data-plot-height")) })));
        expect(axes.length).toBeGreaterThan(0);
        for (const a of axes) {
          expect(a.font, `${what}: chart axis font`).toBeGreaterThanOrEqual(Math.max(size.min, 12));
          // Four value labels where the plot has the height for them (labels at least 1.2 lines and
          // at most an eighth of a plot of ten lines apart; a step of the scale at most doubles), else two.
          expect(a.labels, `${what}: y labels of a plot ${a.height} px high`).toBeGreaterThanOrEqual(a.height >= 10 * a.font ? 4 : 2);
        }
      }
    });
  });

  test("a window resized on the wall re-scales the charts' axes", async ({ page }) => {
    const id = await testCellId();
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/dashboard?kiosk&id=${id}`);
    const chart = page.getByTestId("uplot-chart").first();
    await expect(chart).toHaveAttribute("data-axis-px", /\d/);
    const before = Number(await chart.getAttribute("data-axis-px"));
    await page.setViewportSize({ width: 3840, height: 2160 });
    await expect.poll(async () => Number(await page.getByTestId("uplot-chart").first().getAttribute("data-axis-px"))).toBeCloseTo(before * 2, 0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("every kiosk text scales with the screen and none overprints or is cut off, at 1366×768, 1080p and 4K", async ({ page }) => {
    test.setTimeout(90_000);
    const ids = await demoIds();
    await signInDirect(page, "admin", ADMIN_PASSWORD);
    await withAlarm(async () => {
      for (const [size, id] of SIZES.flatMap((size) => ids.map((id) => [size, id] as const))) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.goto(`/dashboard?kiosk&id=${id}`);
        await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", /live|stale/);
        await expect(page.getByTestId("kiosk-alarm").first()).toBeVisible({ timeout: 25_000 });
        await expect(page.getByTestId("svg-chart").first()).toBeVisible();
        await expectReadable(page, size, `${size.width}×${size.height} ${await page.getByRole("heading", { level: 1 }).textContent()} without JavaScript`);
      }
    });
  });
});

test("the maintenance banner on the kiosk is large and read-only", async ({ page }) => {
  const topic = unique("maint");
  const text = `Planned maintenance of the test cell ${topic}`;
  const id = await testCellId();
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic, Type: "Warning", Text: text, Args: ["Start"] });
  try {
    for (const size of SIZES.slice(1)) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`/dashboard?kiosk&id=${id}`);
      const banner = page.getByTestId("maintenance-banner");
      await expect(banner).toContainText(text);
      // Nobody stands at a wall display to dismiss it: no button, no form.
      await expect(banner.getByRole("button")).toHaveCount(0);
      await expect(banner.locator("form")).toHaveCount(0);
      const px = await banner.getByText(text).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(px, `banner text at ${size.width}×${size.height}`).toBeGreaterThanOrEqual(size.min * 1.25);
      await expectReadable(page, size, `${size.width}×${size.height} with a banner`);
    }
    // Elsewhere it can still be dismissed.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/dashboard?id=${id}`);
    await expect(page.getByTestId("maintenance-banner").getByRole("button", { name: "Dismiss" })).toBeVisible();
  } finally {
    await rpc("GI.system/MessagingAPI.PostMessage", { Sender: "Maintainer", Topic: topic, Type: "Info", Text: text, Args: ["Stop"] });
  }
});

test("the kiosk's stale strip and greyed tiles stay readable and in place at 1080p and 4K", async ({ page }) => {
  test.setTimeout(60_000);
  const id = await testCellId();
  await signInDirect(page, "admin", ADMIN_PASSWORD);
  await page.goto(`/dashboard?kiosk&id=${id}`);
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  try {
    await rpc("ProjectAPI.Stop", {});
    for (const size of SIZES.slice(1)) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`/dashboard?kiosk&id=${id}`);
      const strip = page.getByTestId("kiosk-outage");
      await expect(strip).toHaveAttribute("data-state", "stale", { timeout: 10_000 });
      // Measured as it stays: the interactive charts in place of the server's first picture.
      await expect(page.locator("[data-testid=chart][data-ready]")).toHaveCount(await page.getByTestId("chart").count());
      const px = await strip.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(px, `stale strip at ${size.width}×${size.height}`).toBeGreaterThanOrEqual(size.min * 1.25);
      await expectReadable(page, size, `${size.width}×${size.height} stale`);
    }
  } finally {
    await rpc("ProjectAPI.Start", {});
  }
  await expect(page.getByTestId("kiosk-outage")).toHaveCount(0, { timeout: 15_000 });
});
