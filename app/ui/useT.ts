import type { TFunction } from "i18next";
import { useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import { I18nContext } from "react-i18next";

/**
 * `t` for the components every page renders many times (navigation entries, widgets).
 * useTranslation() copies the whole i18n instance once per component instance, and a server
 * render mounts every instance afresh: on a dashboard that was several ms per page. The one
 * hook for texts in the app: react-i18next's own hooks stay out of the browser's JavaScript.
 */
export function useT(): TFunction {
  const { i18n } = useContext(I18nContext);
  // Re-rendered when the browser switches language (the root loads the texts, then changes it).
  const subscribe = useCallback(
    (changed: () => void) => {
      i18n.on("languageChanged", changed);
      return () => i18n.off("languageChanged", changed);
    },
    [i18n],
  );
  const language = useSyncExternalStore(subscribe, () => i18n.language, () => i18n.language);
  return useMemo(() => rememberingT(i18n.getFixedT(language), i18n.store?.data, language), [i18n, language]);
}

type Texts = Map<string, string>;
/** Remembered translations per resource set (the server's request instances share theirs) and language. */
const remembered = new WeakMap<object, Map<string, Texts>>();
/** Interpolated values (names, counts) make keys without end: a full table starts over. */
const LIMIT = 5000;

/**
 * A translation depends only on the texts, the language, the key and the options, and the texts
 * only grow when a browser loads a screen's (forgetTranslations) — so each answer is computed once
 * instead of on every render (i18next's t() walks key paths, plural rules and interpolation: a
 * millisecond per dashboard page).
 */
export function rememberingT(t: TFunction, resources: object | undefined, language: string): TFunction {
  if (!resources) return t;
  let byLanguage = remembered.get(resources);
  if (!byLanguage) remembered.set(resources, (byLanguage = new Map()));
  let texts = byLanguage.get(language);
  if (!texts) byLanguage.set(language, (texts = new Map()));
  const cache = texts;
  return ((key: unknown, options?: unknown) => {
    const id = rememberKey(key, options);
    if (id === null) return (t as (k: unknown, o?: unknown) => unknown)(key, options);
    let text = cache.get(id);
    if (text === undefined) {
      const answer = (t as (k: unknown, o?: unknown) => unknown)(key, options);
      if (typeof answer !== "string") return answer;
      if (cache.size >= LIMIT) cache.clear();
      cache.set(id, (text = answer));
    }
    return text;
  }) as TFunction;
}

/** The memo key of a call, or null for calls that cannot be remembered (objects among the options). */
function rememberKey(key: unknown, options: unknown): string | null {
  if (typeof key !== "string") return null;
  if (options === undefined) return key;
  if (typeof options === "string") return `${key}\u0000=${options}`;
  if (typeof options !== "object" || options === null) return null;
  let id = key;
  for (const name in options) {
    const value = (options as Record<string, unknown>)[name];
    const type = typeof value;
    if (type !== "string" && type !== "number" && type !== "boolean" && value !== undefined) return null;
    id += `\u0000${name}=${type === "string" ? "s" : ""}${String(value)}`;
  }
  return id;
}

/** After texts were added to a language (browser): answers remembered before may have been missing keys. */
export function forgetTranslations(resources: object, language: string) {
  remembered.get(resources)?.get(language)?.clear();
}
