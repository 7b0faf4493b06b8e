import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { isLanguage, loadTexts, textsFor } from "./locales";

// The server's choice of language is on <html lang>; only that language's texts are loaded, and
// of them the shell's and the screen's (root's client middleware loads more on navigation).
async function main() {
  const lng = isLanguage(document.documentElement.lang) ? document.documentElement.lang : "en";
  await i18next.init({
    resources: { [lng]: { translation: (await loadTexts(lng, textsFor(window.location.pathname))) ?? {} } },
    lng,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error) => console.error(error));
