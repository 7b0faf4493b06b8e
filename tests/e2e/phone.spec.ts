import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, expect, rpc, SCREENS, signInDirect, test } from "./fixtures";

// Issue 15 §7: on a 390 px phone no screen scrolls sideways; wide tables scroll inside their own
// box (DataTable) and forms wrap. Every routed screen of the feature table, signed in as the
// administrator (all permissions), plus the open add/edit panels of the list screens.

const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 } });

const PANELS = ["/userManagement?add", "/roleManagement?add", "/vncview?add", "/dashboardManager?add", "/alarming?period=30d"];

/** The page's own horizontal scroll width, and the widest elements sticking out (for the failure message). */
async function overflow(page: Page) {
  return page.evaluate((width) => {
    const culprits: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.right <= width + 0.5 || box.width === 0) continue;
      // Report what sticks out and is not clipped by an ancestor's scroll box (an absolutely
      // placed element escapes a box that is not its containing block, so it is reported).
      const style = getComputedStyle(el);
      let clipped = false;
      if (style.position === "absolute" || style.position === "fixed") {
        culprits.push(`${el.tagName.toLowerCase()}.${String(el.className).split(" ").slice(0, 4).join(".")} (${style.position}) → ${Math.round(box.right)}px`);
        if (culprits.length >= 5) break;
        continue;
      }
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== "visible") {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      const id = el.id ? `#${el.id}` : "";
      const testId = el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : "";
      culprits.push(`${el.tagName.toLowerCase()}${id}${testId}.${String(el.className).split(" ").slice(0, 4).join(".")} → ${Math.round(box.right)}px`);
      if (culprits.length >= 5) break;
    }
    return { scrollWidth: document.documentElement.scrollWidth, culprits };
  }, WIDTH);
}

async function settled(page: Page) {
  // Charts and maps draw on mount: wait for fonts and two frames after hydration, not a guess in ms.
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
}

test.beforeEach(async ({ page }) => {
  await signInDirect(page, "admin", ADMIN_PASSWORD);
});

test("the default dashboard's editor fits a phone", async ({ page }) => {
  const { List } = await rpc<{ List: { ID: string; IsDefault: boolean }[] }>("WebUIAPI.List", {});
  const id = (List.find((d) => d.IsDefault) ?? List[0])?.ID;
  test.skip(!id, "no dashboard to edit");
  await page.goto(`/dashboardManager?edit=${id}`);
  await settled(page);
  const result = await overflow(page);
  expect(result.scrollWidth, result.culprits.join("\n")).toBeLessThanOrEqual(WIDTH);
});

for (const path of [...SCREENS, ...PANELS]) {
  test(`no horizontal page overflow at ${WIDTH} px: ${path}`, async ({ page }) => {
    await page.goto(path);
    await settled(page);
    const result = await overflow(page);
    expect(result.scrollWidth, `${path} is ${result.scrollWidth}px wide; sticking out:\n${result.culprits.join("\n")}`).toBeLessThanOrEqual(WIDTH);
  });
}
