import { readdirSync, readFileSync } from "node:fs";
import { FEATURES } from "../../app/features";
import { expect, test } from "./fixtures";
import { italian } from "./preferences";

// Issue 15 §9: no English left on Italian pages. Every screen is opened in Italian and its
// visible text, page title and control names (labels, titles, placeholders) are searched for the
// English texts that the Italian locale translates differently, and for raw i18n keys.

type Tree = { [key: string]: string | Tree };
const flat = (tree: Tree, prefix = ""): [string, string][] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === "string" ? [[`${prefix}${k}`, v] as [string, string]] : flat(v, `${prefix}${k}.`)));
const locale = (lng: string) =>
  new Map(readdirSync(`app/locales/${lng}`).filter((f) => f.endsWith(".json")).flatMap((f) => flat(JSON.parse(readFileSync(`app/locales/${lng}/${f}`, "utf8")) as Tree, `${f.replace(".json", "")}.`)));
const en = locale("en");
const it = locale("it");
/**
 * Data the logger writes, not interface texts: a CAN device's module name on Project State and
 * the logger's own event messages in the trace log and Log Messages (other tests leave them
 * behind: "Set output X = 42" is the audit line of an output written by the data-source tests,
 * "Request refused: …" the logger's line for a foreign page's request, foreign-page.spec's).
 */
const LOGGER_DATA = new Set(["Decoded signals", "Acquisition stopped", "Acquisition started", "Set output", "Request refused"]);
/** English phrases (two words or more, no placeholders) the Italian texts say otherwise. */
const english = [...en]
  .filter(([key, value]) => !LOGGER_DATA.has(value) && it.has(key) && it.get(key) !== value && !value.includes("{{") && /^[A-Za-z][A-Za-z' ]+[a-z]$/.test(value) && value.trim().split(/\s+/).length >= 2)
  .map(([, value]) => value);
const pattern = new RegExp(`\\b(${[...new Set(english)].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`);
const RAW_KEY = /\b(?:nav|history|dashboards|settings|globalSettings|validation|map|help|live|dateTime)\.[a-z][A-Za-z]+(?:\.[A-Za-z]+)*\b/;

test("every screen is in Italian when the user reads Italian", async ({ page }) => {
  test.setTimeout(180_000);
  expect(english.length).toBeGreaterThan(50);
  await italian(page);
  const paths = FEATURES.filter((f) => f.module).map((f) => f.path).concat(["/no-such-page"]);
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("lang", "it");
    const text = await page.evaluate(() => {
      // The log's audit records are the logger's own text, written once in its language
      // ("Changed dashboard Test cell dashboard: …" when another test of this worker edited the
      // demo dashboard); only the seeded ones are translated (app/ui/seedTexts.ts). The rest of the page counts.
      for (const record of document.querySelectorAll<HTMLElement>('[data-testid="message-text"]')) record.style.display = "none";
      const names = [...document.querySelectorAll("[aria-label],[title],[placeholder],[alt]")].flatMap((e) =>
        ["aria-label", "title", "placeholder", "alt"].map((a) => e.getAttribute(a) ?? ""),
      );
      return [document.title, document.body.innerText, ...names].join("\n");
    });
    const english = pattern.exec(text);
    if (english) found.push(`${path}: "${english[0]}"`);
    const key = RAW_KEY.exec(text);
    if (key) found.push(`${path}: key ${key[0]}`);
    if (!/Loggia · /.test(await page.title()) && path !== "/no-such-page") found.push(`${path}: title "${await page.title()}"`);
  }
  expect(found).toEqual([]);
});
