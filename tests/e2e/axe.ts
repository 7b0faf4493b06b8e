import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import type axeCore from "axe-core";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { ADMIN_PASSWORD, LOGGER, rpc, token, unique } from "./fixtures";

// Issue 15 §10: every screen has 0 serious or critical axe violations (WCAG 2.x A and AA rules),
// in the light and the dark theme. Minor and moderate findings are not gating.
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const GATING = new Set(["serious", "critical"]);

/**
 * The rules whose outcome depends on the colours a theme draws with; the others (names, roles,
 * structure, labels, focus order…) read the same document in every theme. A second theme's run
 * needs only these (issue 25).
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * axe's minified build (654 kB): the same rules as the `source` axe-core exports, which is its
 * unminified build (1.48 MB). Handing a script to a page through the protocol costs by its size
 * (the transfer, not the compile): 0.34 CPU-s a page for that one, 0.24 for this.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let axeUrl: Promise<string> | undefined;

/**
 * The worker's own address for axe's script, served as an immutable file: a page loads it by a
 * script element from the browser's HTTP cache (kept with the worker's context, with V8's code
 * cache), 0.06 CPU-s a page against 0.24 for the protocol's transfer.
 */
function axeScriptUrl(): Promise<string> {
  return (axeUrl ??= new Promise((resolve, reject) => {
    const server = createServer((_, res) => {
      res.writeHead(200, { "Content-Type": "text/javascript", "Cache-Control": "public, max-age=31536000, immutable", "Cross-Origin-Resource-Policy": "cross-origin", Connection: "close" });
      res.end(AXE_SOURCE);
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/axe.min.js`));
    server.unref();
  }));
}

/**
 * axe into the page: by a script element that carries the page's nonce (the console's CSP allows
 * scripts by nonce), else — no nonce on the page, the page's scripts off (the nojs project), an
 * HTTPS page, the browser offline, the file not loaded — handed over whole.
 */
async function loadAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(async (src) => {
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (!nonce || location.protocol !== "http:" || !navigator.onLine) return false;
    // An inserted inline script runs at once, or never where the page's scripts are off (no load
    // or error event would come for the file either).
    const probe = Object.assign(document.createElement("script"), { nonce, text: "document.currentScript.dataset.ran = ''" });
    document.head.append(probe);
    probe.remove();
    if (probe.dataset.ran === undefined) return false;
    const script = Object.assign(document.createElement("script"), { src, nonce });
    return new Promise<boolean>((done) => {
      script.onload = () => done(true);
      script.onerror = () => done(false);
      document.head.append(script);
    });
  }, await axeScriptUrl());
  if (!loaded) await page.evaluate(AXE_SOURCE);
}

/** Only the violations are read: axe then skips describing every passing element (their selectors). */
const RESULT_TYPES: axeCore.resultGroups[] = ["violations"];

export type AxeScope = { include?: string; exclude?: string[]; rules?: string[] };

/** One line per failing element: rule, impact, CSS target, axe's help text and the first fix hint. */
export async function axeFindings(page: Page, options: AxeScope = {}): Promise<string[]> {
  const runOnly = options.rules ? { type: "rule" as const, values: options.rules } : { type: "tag" as const, values: TAGS };
  const violations = await runAxe(page, { include: options.include, exclude: options.exclude ?? [] }, { runOnly });
  return violations
    .filter((v) => GATING.has(v.impact ?? ""))
    .flatMap((v) =>
      v.nodes.map((n) => {
        const hint = (n.any[0] ?? n.all[0] ?? n.none[0])?.message ?? "";
        return `${v.id} [${v.impact}] ${n.target.join(" ")} — ${v.help}${hint ? ` (${hint})` : ""}`;
      }),
    );
}

type Scope = { include?: string; exclude: string[] };
type Violations = axeCore.Result[];

/**
 * axe on the page as it is now. A page with frames gets @axe-core/playwright's run (axe in every
 * frame, the results put together in a blank page). A page without frames — every screen here
 * but those embedding another page — gets axe.run in the page itself, the same rules on the same
 * document, which is what that package does in its legacy mode; axe is loaded into the page once
 * and kept for its later checks (hover states, open menus), where the package hands its source
 * over twice per check and opens and closes a page for each.
 */
async function runAxe(page: Page, scope: Scope, options: axeCore.RunOptions): Promise<Violations> {
  if (page.frames().length > 1) {
    let builder = new AxeBuilder({ page, axeSource: AXE_SOURCE }).options({ ...options, resultTypes: RESULT_TYPES });
    if (scope.include) builder = builder.include(scope.include);
    for (const selector of scope.exclude) builder = builder.exclude(selector);
    return (await builder.analyze()).violations;
  }
  const run = () =>
    page.evaluate(
      async ({ scope, options }) => {
        const axe = (window as unknown as { axe?: typeof axeCore }).axe;
        if (!axe) return null;
        const context = scope.include ? { include: [scope.include], exclude: scope.exclude } : { exclude: scope.exclude };
        return (await axe.run(context, options)).violations;
      },
      { scope, options: { ...options, resultTypes: RESULT_TYPES } },
    );
  const first = await run();
  if (first) return first;
  await loadAxe(page);
  return (await run())!;
}

/** Fails with the list of serious/critical violations on the page as it is now. */
export async function expectAccessible(page: Page, where: string, options?: AxeScope) {
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
 * Every visible element that changes its colours on hover (a Tailwind `hover:bg-*` or
 * `hover:text-*` class) drawn in its hover state, and axe's contrast check inside them; one line
 * per failure. `limit` bounds the elements checked per page: the page's own (in <main>) first,
 * then the shell's (header, navigation), each in document order.
 *
 * The hover state is forced through the DevTools protocol (CSS.forcePseudoState, what DevTools'
 * ":hov" toggle does) on all of them at once, so one axe run checks them all: moving the pointer
 * to each in turn cost one axe run per element (30–130 ms each, most of the a11y spec's time).
 * Hover colours here depend only on the element's own :hover (and `group-hover` on an ancestor
 * that is in the list too), so forcing them together draws each as a pointer over it would.
 */
export async function hoverContrastFindings(page: Page, limit = 80): Promise<string[]> {
  // With JavaScript, an alarm banner's server markup is replaced by the browser's own once its
  // chunk is there (AlarmBannerSlot): elements marked before that are gone when their hover state
  // is forced ("Could not find node with given id", or one element fewer found than marked). Wait
  // for the browser's banner first: data-banner="live" (the page as sent says "server").
  if (await page.evaluate(() => "__reactRouterContext" in window && document.querySelector('[data-testid="alarm-banner"]') !== null)) {
    await expect(page.locator('[data-banner="live"] [data-testid="alarm-banner"]')).toBeVisible();
  }
  const count = await page.evaluate((max) => {
    const all = [...document.querySelectorAll<HTMLElement>('[class*="hover:bg-"], [class*="hover:text-"]')].sort((a, b) => Number(!a.closest("main")) - Number(!b.closest("main")));
    const shown = all.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden" && !el.closest("[aria-hidden=true]"));
    shown.slice(0, max).forEach((el, i) => (el.dataset.a11yHover = String(i)));
    return Math.min(shown.length, max);
  }, limit);
  if (count === 0) return [];
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodeIds } = await cdp.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector: "[data-a11y-hover]" });
    expect(nodeIds.length, "elements marked for the hover check").toBe(count);
    for (const nodeId of nodeIds) await cdp.send("CSS.forcePseudoState", { nodeId, forcedPseudoClasses: ["hover"] });
    const findings: string[] = [];
    for (const v of await runAxe(page, { include: "[data-a11y-hover]", exclude: [] }, { runOnly: { type: "rule", values: ["color-contrast"] } })) {
      for (const n of v.nodes) findings.push(`${v.id} hovered ${n.target.join(" ")}: ${(n.any[0]?.message ?? "").slice(0, 160)}`);
    }
    for (const nodeId of nodeIds) await cdp.send("CSS.forcePseudoState", { nodeId, forcedPseudoClasses: [] });
    return findings;
  } finally {
    await cdp.detach();
  }
}

/**
 * Issue 28 §4: an active, unacknowledged alarm of every priority (critical, high, medium, low) for
 * the axe runs, so every severity badge and alarm state is on the pages axe checks. Rules on the
 * simulated oil temperature that always hold; waits until all four are active. Returns their
 * removal (the alarms go with their rules).
 */
export async function raiseEveryPriority(): Promise<() => Promise<void>> {
  const { Data } = (await (await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } })).json()) as { Data: { Id: string; Name: string }[] };
  const oil = Data.find((v) => v.Name === "Oil temperature")!.Id;
  const ids: number[] = [];
  for (const severity of ["critical", "high", "medium", "low"]) {
    const { ID } = await rpc<{ ID: number }>("AlarmAPI.AddRule", { Rule: { Name: unique(`a11y ${severity} `), VariableId: oil, Type: "high", High: -1000, Severity: severity } });
    ids.push(ID);
  }
  await expect
    .poll(async () => (await rpc<{ Alarms: { ID: number; State: string }[] }>("AlarmAPI.GetAlarms", {})).Alarms.filter((a) => ids.includes(a.ID) && a.State === "ActiveUnacknowledged").length, { timeout: 15_000 })
    .toBe(ids.length);
  return async () => {
    for (const id of ids) await rpc("AlarmAPI.RemoveRule", { ID: id });
  };
}
