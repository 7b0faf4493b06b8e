import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { rpc, unique } from "./fixtures";

// Issue 15 §10: every screen has 0 serious or critical axe violations (WCAG 2.x A and AA rules),
// in the light and the dark theme. Minor and moderate findings are not gating.
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const GATING = new Set(["serious", "critical"]);

/** One line per failing element: rule, impact, CSS target, axe's help text and the first fix hint. */
export async function axeFindings(page: Page, options: { include?: string; exclude?: string[] } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => GATING.has(v.impact ?? ""))
    .flatMap((v) =>
      v.nodes.map((n) => {
        const hint = (n.any[0] ?? n.all[0] ?? n.none[0])?.message ?? "";
        return `${v.id} [${v.impact}] ${n.target.join(" ")} — ${v.help}${hint ? ` (${hint})` : ""}`;
      }),
    );
}

/** Fails with the list of serious/critical violations on the page as it is now. */
export async function expectAccessible(page: Page, where: string, options?: { include?: string; exclude?: string[] }) {
  const findings = await axeFindings(page, options);
  expect(findings, `axe on ${where} (${page.url()})`).toEqual([]);
}

/** A user (of `role`) whose User Settings choose `theme`: the theme a signed-in page is drawn in. */
export async function userWithTheme(role: number, theme: "light" | "dark" | "semi-dark", opts: { mustChange?: boolean } = {}) {
  const username = unique(`a11y${theme.replace("-", "")}`);
  const password = `pw-${username}-1`;
  await rpc("GI.system/UserManagementAPI.AddUser", {
    User: { Username: username, EMail: `${username}@example.com`, Role: role, Timezone: "Europe/Rome", Theme: theme, MustChangePassword: !!opts.mustChange },
    Password: password,
  });
  return { username, password };
}

/** The text and background colours an element is drawn in now, and their WCAG contrast ratio. */
export async function drawnContrast(page: Page, selector: string): Promise<{ color: string; background: string; ratio: number }> {
  return page.locator(selector).evaluate((el) => {
    const rgb = (s: string) => (s.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const s = getComputedStyle(el);
    const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))];
    return { color: s.color, background: s.backgroundColor, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  });
}

/**
 * Hovers each visible element that changes its colours on hover (a Tailwind `hover:bg-*` or
 * `hover:text-*` class) and has axe check the contrast inside it while hovered; one line per
 * failure. `limit` bounds the elements checked per page: the page's own (in <main>) first, then
 * the shell's (header, navigation), each in document order.
 */
export async function hoverContrastFindings(page: Page, limit = 80): Promise<string[]> {
  const count = await page.evaluate((max) => {
    const all = [...document.querySelectorAll<HTMLElement>('[class*="hover:bg-"], [class*="hover:text-"]')].sort((a, b) => Number(!a.closest("main")) - Number(!b.closest("main")));
    const shown = all.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && !el.closest("[aria-hidden=true]"));
    shown.slice(0, max).forEach((el, i) => (el.dataset.a11yHover = String(i)));
    return Math.min(shown.length, max);
  }, limit);
  const findings: string[] = [];
  for (let i = 0; i < count; i++) {
    const selector = `[data-a11y-hover="${i}"]`;
    const target = page.locator(selector);
    if (!(await target.isVisible())) continue;
    await target.hover({ timeout: 2_000 }).catch(() => undefined); // covered by another element: not hoverable, nothing to check
    const { violations } = await new AxeBuilder({ page }).include(selector).withRules(["color-contrast"]).analyze();
    for (const v of violations) for (const n of v.nodes) findings.push(`${v.id} hovered ${selector} ${n.target.join(" ")}: ${(n.any[0]?.message ?? "").slice(0, 160)}`);
  }
  await page.mouse.move(0, 0);
  return findings;
}
