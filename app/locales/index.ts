import en from "./en/translation.json";
import it from "./it/translation.json";

export const resources = { en: { translation: en }, it: { translation: it } };
export const LANGUAGES = ["en", "it"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec §1: en is the default (id en-US); it has id it-IT. */
export const LOCALE_IDS: Record<Language, string> = { en: "en-US", it: "it-IT" };
