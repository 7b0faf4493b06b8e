// The browser translates with app/locales/translator.ts, the server with i18next (remix-i18next):
// a page hydrates only if both give the same text. This asks both for every key of every text
// file in both languages — bare, with counts for every plural category, with and without the
// values it interpolates — and for the odd calls the app makes (defaultValue, key lists,
// missing keys, a key naming a group of texts).
import { createInstance, type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/locales";
import en from "~/locales/en";
import itTexts from "~/locales/it";
import { Translator } from "~/locales/translator";

const resources = { en: { translation: en }, it: { translation: itTexts } };

/** Every leaf's key (dotted), with any plural suffix taken off. */
function keysOf(texts: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(texts).flatMap(([k, v]) =>
    v && typeof v === "object" ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k.replace(/_(zero|one|two|few|many|other)$/, "")}`],
  );
}

/** The names a text interpolates. */
const varsOf = (text: unknown) => (typeof text === "string" ? [...text.matchAll(/\{\{-?\s*([^},]+?)\s*\}\}/g)].map((m) => m[1]!) : []);

async function pair(lng: string) {
  const reference = createInstance();
  await reference.init({ resources, lng, fallbackLng: "en", interpolation: { escapeValue: false } });
  const ours = new Translator();
  await ours.init({ resources: { [lng]: resources[lng as "en"] }, lng, fallbackLng: "en" });
  if (lng !== "en") ours.addResourceBundle("en", "translation", en, true, true);
  return { theirs: reference.getFixedT(lng) as TFunction, mine: ours.getFixedT(lng) };
}

describe("the browser's translator gives i18next's texts", () => {
  for (const lng of LANGUAGES) {
    it(`every key in ${lng}, with counts and values`, async () => {
      const { theirs, mine } = await pair(lng);
      const ask = (key: unknown, options?: unknown) => {
        const a = (theirs as (k: unknown, o?: unknown) => unknown)(key, options);
        const b = (mine as (k: unknown, o?: unknown) => unknown)(key, options);
        expect(b, `${String(key)} ${JSON.stringify(options)}`).toEqual(a);
      };
      const keys = [...new Set(keysOf(resources[lng].translation))];
      expect(keys.length).toBeGreaterThan(500);
      for (const key of keys) {
        const sample = [key, `${key}_one`, `${key}_other`].map((k) => theirs(k)).find((t) => t !== undefined);
        const names = [...new Set([...varsOf(sample), ...varsOf(theirs(`${key}_other`, { defaultValue: "" }))])];
        const values = Object.fromEntries(names.map((n, i) => [n, i % 2 ? 12.5 : `v{{${n}}}<b>&`]));
        ask(key);
        ask(key, values);
        ask(key, { [names[0] ?? "x"]: undefined });
        ask(key, { [names[0] ?? "x"]: null });
        for (const count of [0, 1, 2, 5, 1.5, 1_000_000, -1]) ask(key, { ...values, count });
      }
      ask("no.such.key");
      ask("no.such.key", { defaultValue: "Fallback {{n}}", n: 3 });
      ask("no.such.key", "Plain default");
      ask(["no.such.key", keys[0]]);
      ask("nav");
      ask("deliveryEvent:Sent");
      ask("some sentence: with a colon");
      ask("");
    });
  }

  it("follows a language change and merges texts added later", async () => {
    const ours = new Translator();
    await ours.init({ resources: { en: { translation: { a: "A", group: { b: "B" } } } }, lng: "en" });
    const changed: string[] = [];
    const listener = (lng: string) => changed.push(lng);
    ours.on("languageChanged", listener);
    ours.addResourceBundle("en", "translation", { group: { c: "C" } }, true, true);
    expect(ours.getFixedT("en")("group.b")).toBe("B");
    expect(ours.getFixedT("en")("group.c")).toBe("C");
    ours.addResourceBundle("it", "translation", { a: "A-it" }, true, true);
    await ours.changeLanguage("it");
    expect(changed).toEqual(["it"]);
    expect(ours.language).toBe("it");
    expect(ours.t("a")).toBe("A-it");
    expect(ours.t("group.b")).toBe("B");
    ours.off("languageChanged", listener);
    await ours.changeLanguage("en");
    expect(changed).toEqual(["it"]);
  });
});
