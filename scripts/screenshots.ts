// `node scripts/screenshots.ts`: the README's screenshots (dashboard, kiosk, analytics, analysis,
// phone), taken from a running console with Debian's Chromium. Start the product first (npm
// start) and pass where it runs and the admin's password:
//   BASE_URL=http://localhost:3000 ADMIN_PASSWORD=… node scripts/screenshots.ts
// SHOTS=phone,kiosk (names as below) takes only those.
import { resolve } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../tests/e2e/chromium.ts";

const base = process.env.BASE_URL ?? "http://localhost:3000";
const password = process.env.ADMIN_PASSWORD;
if (!password) {
  console.error("Set ADMIN_PASSWORD (and BASE_URL if not http://localhost:3000).");
  process.exit(2);
}
const docs = resolve(import.meta.dirname, "..", "docs");
const only = process.env.SHOTS?.split(",").filter(Boolean);
const wanted = (name: string) => !only || only.includes(name);

const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/signin`);
  await page.getByLabel(/username/i).fill("admin");
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));

  // Let a few live values and chart points arrive before each shot.
  const shoot = async (path: string, file: string, viewport = { width: 1440, height: 900 }, fullPage = false) => {
    await page.setViewportSize(viewport);
    await page.goto(`${base}${path}`);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    await page.waitForTimeout(3000);
    await page.screenshot({ path: resolve(docs, file), fullPage });
    console.log(`docs/${file}`);
  };
  if (wanted("dashboard")) await shoot("/dashboard", "screenshot.png");
  if (wanted("kiosk")) await shoot("/dashboard?kiosk", "screenshot-kiosk.png", { width: 1920, height: 1080 });
  // A phone (390×844): the users' list as cards, and a dashboard without JavaScript (server chart).
  if (wanted("phone")) {
    await shoot("/userManagement", "screenshot-phone.png", { width: 390, height: 844 });
    const nojs = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    await nojs.addCookies(await page.context().cookies());
    const still = await nojs.newPage();
    await still.goto(`${base}/dashboard`);
    await still.screenshot({ path: resolve(docs, "screenshot-phone-nojs.png") });
    console.log("docs/screenshot-phone-nojs.png");
    await nojs.close();
  }
  if (wanted("analytics")) {
    // Analytics with a few temperatures of the last hour.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}/analytics`);
    const ids = await page.locator('input[type="checkbox"][name="v"]').evaluateAll((boxes) =>
      boxes.filter((b) => /temperature/i.test(b.closest("label")?.textContent ?? "")).slice(0, 3).map((b) => (b as HTMLInputElement).value),
    );
    await shoot(`/analytics?${ids.map((id) => `v=${encodeURIComponent(id)}`).join("&")}&span=preset&range=1h`, "screenshot-analytics.png", { width: 1440, height: 900 }, true);
  }
  if (wanted("analysis")) {
    // Analysis on a dashboard: an operator's note over a span (posted as the annotations screen's
    // form does, unless one is there already) and the crosshair shared by the charts.
    const now = Date.now();
    const notes = await page.goto(`${base}/annotations?from=${now - 3_600_000}&to=${now}`).then(() => page.getByTestId("annotations-table").locator("tr[data-annotation]").count());
    if (notes === 0) {
      await page.request.post(`${base}/annotations`, {
        form: { intent: "add", start: String(now - 25 * 60_000), end: String(now - 15 * 60_000), text: "Warm-up run after changing the injector", tags: "maintenance", back: "/annotations" },
        headers: { Origin: new URL(base).origin },
      });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}/dashboard`);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    await page.waitForTimeout(3000);
    const chart = page.locator('[data-widget="temperatures"] [data-testid="uplot-chart"]');
    const box = await chart.boundingBox();
    if (box) await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5);
    await page.waitForTimeout(500);
    await page.screenshot({ path: resolve(docs, "screenshot-analysis.png"), clip: { x: 0, y: 0, width: 1440, height: 900 } });
    console.log("docs/screenshot-analysis.png");
  }
} finally {
  await browser.close();
}
