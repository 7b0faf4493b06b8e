import { FEATURES } from "~/features";

// The languages and their texts. The server has all of them (i18n.server). A browser loads only
// the language it shows, and of it only the shell's texts (translation.json) and the files of
// the screens it visits (the feature table's `texts`): each file of each language is its own chunk.

export const LANGUAGES = ["en", "it"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec §1: en is the default (id en-US); it has id it-IT. */
export const LOCALE_IDS: Record<Language, string> = { en: "en-US", it: "it-IT" };

export type Texts = Record<string, unknown>;

/** The shell's texts: at the top level (t("nav.home")); every other file under its name (t("users.title")). */
const SHELL = "translation";
// refusals.json is the server's alone (app/services/refusalTexts.server.ts): no browser asks for it.
const files = import.meta.glob<Texts>(["./*/*.json", "!./*/refusals.json"], { import: "default" });

const loaded: Partial<Record<Language, Texts>> = {};
const loadedFiles = new Set<string>();

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** Text files of the pages outside the feature table. */
const PAGE_TEXTS: Record<string, readonly string[]> = { "/signin": ["signin"], "/changePassword": ["password"], "/annotations": ["annotations", "dashboards"] };

/** The text files a path's screen needs besides the shell's. */
export function textsFor(pathname: string): readonly string[] {
  const path = `/${pathname.split("/")[1] ?? ""}`;
  return FEATURES.find((f) => f.path === path)?.texts ?? PAGE_TEXTS[path] ?? [];
}

/**
 * Loads the shell's and the named files of a language that are not loaded yet, and returns
 * them merged as one resource bundle (null when nothing was missing).
 */
export async function loadTexts(lng: Language, names: readonly string[]): Promise<Texts | null> {
  const missing = [SHELL, ...names].filter((name) => !loadedFiles.has(`${lng}/${name}`) && files[`./${lng}/${name}.json`]);
  if (missing.length === 0) return null;
  const parts = await Promise.all(missing.map((name) => files[`./${lng}/${name}.json`]!()));
  const added: Texts = {};
  missing.forEach((name, i) => {
    if (name === SHELL) Object.assign(added, parts[i]);
    else added[name] = parts[i];
    loadedFiles.add(`${lng}/${name}`);
  });
  loaded[lng] = { ...loaded[lng], ...added };
  return added;
}

/** Texts already loaded (server: all; browser: the ones shown so far). */
export function textsIfLoaded(lng: Language): Texts | undefined {
  return loaded[lng];
}

/** The server's: every text of a language, bundled. */
export function registerTexts(lng: Language, texts: Texts) {
  loaded[lng] = texts;
  for (const path of Object.keys(files)) if (path.startsWith(`./${lng}/`)) loadedFiles.add(path.slice(2, -".json".length));
}
