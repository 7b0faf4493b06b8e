import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import type { i18n as I18n } from "i18next";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { isLanguage, loadTexts, textsFor } from "./locales";
import { i18n } from "./locales/translator";
import { guardRouterReads, quietAbandonedReads } from "./ui/connection/dataGuard";

// A network blip keeps the page and says so, instead of an error page (issue 26 §1).
guardRouterReads();
quietAbandonedReads();

// The server's choice of language is on <html lang>; only that language's texts are loaded, and
// of them the shell's and the screen's (root's client middleware loads more on navigation).
async function main() {
  const lng = isLanguage(document.documentElement.lang) ? document.documentElement.lang : "en";
  // i18next's answers without i18next's 15 KB (app/locales/translator.ts; the server renders with i18next).
  await i18n.init({
    resources: { [lng]: { translation: (await loadTexts(lng, textsFor(window.location.pathname))) ?? {} } },
    lng,
    fallbackLng: "en",
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n as unknown as I18n}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error) => console.error(error));
