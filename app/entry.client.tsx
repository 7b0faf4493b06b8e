import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { resources } from "./locales";

// Both languages are small, so they ship in the bundle; the server's choice is on <html lang>.
async function main() {
  await i18next.use(initReactI18next).init({
    resources,
    lng: document.documentElement.lang || "en",
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
