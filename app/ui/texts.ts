import i18next from "i18next";
import { isLanguage, loadTexts, textsFor } from "~/locales";
import { forgetTranslations } from "./useT";

/**
 * Browser: makes sure the texts of a language the page at `pathname` needs are in i18next (the
 * instance entry.client hydrates with) before it renders — at start, on each navigation (root's
 * client middleware) and on a language switch.
 */
export async function ensureTexts(lng: string, pathname: string): Promise<void> {
  if (!isLanguage(lng)) return;
  const added = await loadTexts(lng, textsFor(pathname));
  if (!added) return;
  if (i18next.isInitialized) {
    i18next.addResourceBundle(lng, "translation", added, true, true);
    forgetTranslations(i18next.store.data, lng);
  }
}
