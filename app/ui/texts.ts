import { isLanguage, loadTexts, textsFor } from "~/locales";
import { i18n } from "~/locales/translator";
import { forgetTranslations } from "./useT";

/**
 * Browser: makes sure the texts of a language the page at `pathname` needs are in the translator
 * entry.client hydrates with before it renders — at start, on each navigation (root's
 * client middleware) and on a language switch.
 */
export async function ensureTexts(lng: string, pathname: string): Promise<void> {
  if (!isLanguage(lng)) return;
  const added = await loadTexts(lng, textsFor(pathname));
  if (!added) return;
  if (i18n.isInitialized) {
    i18n.addResourceBundle(lng, "translation", added, true, true);
    forgetTranslations(i18n.store.data, lng);
  }
}
