// The languages and their texts. Each language is its own chunk: a browser loads only the one
// it shows (entry.client, and root when the user switches); the server has both (i18n.server).

export const LANGUAGES = ["en", "it"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec §1: en is the default (id en-US); it has id it-IT. */
export const LOCALE_IDS: Record<Language, string> = { en: "en-US", it: "it-IT" };

export type Texts = Record<string, unknown>;

const loaded: Partial<Record<Language, Texts>> = {};

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** A language's texts, loaded once. */
export async function loadTexts(lng: Language): Promise<Texts> {
  loaded[lng] ??= (await (lng === "it" ? import("./it/index") : import("./en/index"))).default;
  return loaded[lng];
}

/** Texts already loaded (server: both; browser: the ones shown so far). */
export function textsIfLoaded(lng: Language): Texts | undefined {
  return loaded[lng];
}

export function registerTexts(lng: Language, texts: Texts) {
  loaded[lng] = texts;
}
