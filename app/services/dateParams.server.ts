import { redirect, type MiddlewareFunction } from "react-router";
import { LOCALE_IDS, type Language } from "~/locales";
import { canonicalQuery } from "~/ui/dateTimeInput";
import { getLocale } from "./i18n.server";
import { safePath } from "./redirects";

/**
 * A GET form's date-time fields are plain text in the user's locale ("23/11/2026 14:05", works
 * without JavaScript): the address is turned into the canonical wall time the screens' parsers
 * read ("2026-11-23T14:05") by a redirect, so links stay shareable across languages. A value
 * that is no real date stays as typed, and the field says so (app/ui/DateTimeField.tsx).
 */
export const dateParamsMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method !== "GET") return next();
  const url = new URL(request.url);
  const localeId = LOCALE_IDS[getLocale(context) as Language] ?? "en-US";
  const query = canonicalQuery(url.searchParams, localeId);
  if (!query) return next();
  query.delete("_routes");
  throw redirect(canonicalTarget(url.pathname, query));
};

/**
 * Where the canonical address is: the page (not its `.data` request) with the rewritten query.
 * One leading slash only: "//host/…" would be a protocol-relative redirect off the site. Like
 * every redirect target it is decided by safePath (issue 14 §3): a path that normalises to
 * another origin (encoded dots and slashes) goes to "/" instead.
 */
export function canonicalTarget(pathname: string, query: URLSearchParams): string {
  const path = `/${pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/").replace(/^\/+/, "")}`;
  const search = query.toString();
  return safePath(`${path}${search ? `?${search}` : ""}`) ?? "/";
}
