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
