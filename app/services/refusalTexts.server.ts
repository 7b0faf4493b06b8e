import type { i18n as I18n } from "i18next";
import type { MiddlewareFunction } from "react-router";
import { stateIfAny } from "./context.server";
import { getInstance } from "./i18n.server";
import type { RefusalTexts } from "./logger/errors";

/**
 * The logger's refusals in the reader's language (issue 28 §5): a refusal with a code
 * (ReturnState.Code, docs/logger-api.md "Refusal codes") is said with its text in
 * app/locales/<lng>/refusals.json, its Args filled in; a code without a text here, and every
 * uncoded refusal, keeps the logger's Description (spec §8).
 */
const REFUSALS_FILE = "refusals";

export function refusalTextsOf(i18n: Pick<I18n, "exists" | "t">): RefusalTexts {
  return (refusal, fallback) => {
    // Server-side only (the server holds every text file): no browser loads refusals.json, so the
    // key is built from the file's name rather than spelled as a literal a screen would need.
    const key = `${REFUSALS_FILE}.${refusal.Code}`;
    if (!i18n.exists(key)) return fallback;
    // A variant by the refusal's `action` where there is one (lastAdmin: removed or moved).
    const context = typeof refusal.Args.action === "string" ? refusal.Args.action : undefined;
    return i18n.t(key, { ...refusal.Args, context, interpolation: { escapeValue: false } });
  };
}

/** Set on the request's logger client once its language is known: every screen shows refusals translated as they are. */
export const refusalTextsMiddleware: MiddlewareFunction<Response> = ({ context }, next) => {
  const state = stateIfAny(context);
  if (state) state.logger.refusalTexts = refusalTextsOf(getInstance(context));
  return next();
};
