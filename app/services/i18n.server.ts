import { initReactI18next } from "react-i18next";
import { createI18nextMiddleware } from "remix-i18next";
import { LANGUAGES, registerTexts } from "~/locales";
import en from "~/locales/en";
import it from "~/locales/it";
import { stateIfAny } from "./context.server";
import { localeCookie } from "./session.server";

registerTexts("en", en);
registerTexts("it", it);
const resources = { en: { translation: en }, it: { translation: it } };

// Locale: the signed-in user's setting (kept in the session) → the language cookie →
// Accept-Language → en.
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: "en",
    // The session the session middleware opened already (not a second cookie parse and HMAC check).
    findLocale: async ({ context }) => stateIfAny(context)?.session.get("lng") ?? null,
    cookie: localeCookie,
    order: ["custom", "cookie", "header"],
  },
  i18next: { resources, interpolation: { escapeValue: false } },
  plugins: [initReactI18next],
});
