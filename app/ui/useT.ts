import type { TFunction } from "i18next";
import { useContext, useMemo } from "react";
import { I18nContext } from "react-i18next";

/**
 * `t` for the components every page renders many times (navigation entries, widgets).
 * useTranslation() copies the whole i18n instance once per component instance, and a server
 * render mounts every instance afresh: on a dashboard that was several ms per page. A language
 * change re-renders the page from the root loader anyway, and the memo follows the language.
 */
export function useT(): TFunction {
  const { i18n } = useContext(I18nContext);
  const language = i18n.language;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => i18n.getFixedT(language), [i18n, language]);
}
