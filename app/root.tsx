import { useContext, useEffect } from "react";
import { I18nContext } from "react-i18next";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useSearchParams,
  useSubmit,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { LOCALE_IDS, type Language } from "./locales";
import { i18n as browserTexts } from "./locales/translator";
import { getAuth } from "./services/auth-state.server";
import { activeMaintenance, bannerVisible } from "./services/banner";
import { sessionMiddleware, stateOf } from "./services/context.server";
import { dateParamsMiddleware } from "./services/dateParams.server";
import { formBodyMiddleware } from "./services/formBody.server";
import { gateInputOf } from "./services/guards.server";
import { visibleFeatures } from "./services/gating";
import { loadHeaderAlerts } from "./services/header.server";
import { getInstance, getLocale, i18nextMiddleware } from "./services/i18n.server";
import { shellDashboardNames, shellMessages } from "./services/shellTexts.server";
import { isLoggerAway } from "./services/logger/client.server";
import { annunciatorSeverities } from "./schemas/annunciator";
import { dashboardListAnswer, messagesAnswer, userAnswer } from "./services/logger/schemas";
import { readClosedText, readMaintenanceInfo } from "./services/maintenance.server";
import { readPrefs } from "./services/prefs.server";
import { refusalTextsMiddleware } from "./services/refusalTexts.server";
import { navigationFromSameSite } from "./services/origin.server";
import { featureByKey } from "./features";
import { loadTheme } from "./services/theme.server";
import { effectiveZone } from "./services/timezone";
import { AppShell } from "./ui/AppShell";
import { Logo } from "./ui/Navigation";
import { ensureTexts } from "./ui/texts";
import { ErrorRetry } from "./ui/connection/ErrorRetry";
import { defaultShell } from "./ui/layout/defaultShell";
import { isDashboardPage, loggerAway, outageShell, rememberShell } from "./ui/kiosk/outage.server";
import { readableOn } from "./ui/contrast";
import { ErrorPage } from "./ui/ErrorPage";
import { useNonce } from "./ui/nonce";
import { useRootData } from "./ui/rootData";

export const middleware = [sessionMiddleware, i18nextMiddleware, refusalTextsMiddleware, dateParamsMiddleware, formBodyMiddleware];
// Browser navigation: the next screen's texts are there before it renders.
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }, next) => {
    // A text chunk that cannot be loaded (the console was updated meanwhile) must not stop the navigation.
    await ensureTexts(browserTexts.language, new URL(request.url).pathname).catch((error: unknown) => console.error("texts not loaded:", error));
    return next();
  },
];

export async function loader(args: Route.LoaderArgs) {
  try {
    const shell = await shellData(args);
    // A shell drawn from kept answers is not one to draw again from memory; the page says 503 (as
    // decision 0011's does), and a browser's data request for it is held and tried again by the
    // data guard rather than showing it (issue 26 §1: the last picture stays, reconnecting).
    if (shell.logger) return data(shell, { status: 503 });
    return data(rememberShell(args.context, args.request, shell));
  } catch (error) {
    // A dashboard (a wall display above all) stays up while the logger is away: app/ui/kiosk/outage.server.ts.
    if (!loggerAway(error) || !isDashboardPage(args.request)) throw error;
    return data((await outageShell(args.context, args.request)) as Awaited<ReturnType<typeof shellData>>, { status: 503 });
  }
}

async function shellData({ request, context }: Route.LoaderArgs) {
  const { logger, session } = stateOf(context);
  const locale = getLocale(context) as Language;
  const styling = new URL(request.url).pathname === featureByKey("globalSettings").path;
  const [auth, theme, prefs] = await Promise.all([getAuth(context), loadTheme(logger, styling), readPrefs(request)]);
  const toast = session.get("toast") ?? null;
  // Signed in and free to read: a user who must change the password first gets nothing else from the logger.
  const mayRead = (auth.signedIn && !auth.mustChangePassword) || !auth.loginRequired;
  const alerts = loadHeaderAlerts(logger, auth);

  // With the logger away (past the page's deadline) and nothing kept, a part is left out, not the page.
  const [user, dashboards, messages] = mayRead
    ? await Promise.all([
        auth.userId !== null ? logger.readRpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer).then((a) => a.User, awayOr(null)) : null,
        // The demo dashboards' names in the reader's language (app/ui/seedTexts.ts).
        logger.readRpc("WebUIAPI.List", {}, dashboardListAnswer).then((a) => shellDashboardNames(getInstance(context).t, a.List), awayOr([])),
        logger
          .readRpc(
            "GI.system/MessagingAPI.GetMessages",
            { Filter: { Sender: "Maintainer", Topic: "", Type: "" }, From: "", To: "", Limit: 5000, Offset: 0 },
            messagesAnswer,
          )
          .then((a) => a.Messages, awayOr([])),
      ])
    : [null, [], []];

  const banner = activeMaintenance(messages);
  const [maintenance, closedText] = await Promise.all([readMaintenanceInfo(request), readClosedText(request)]);
  const gate = gateInputOf(auth);
  const nav = mayRead ? visibleFeatures(gate).map((f) => f.key) : [];
  const timeZone = effectiveZone(user, prefs.browserZone, auth.settings?.DefaultTimezone || "UTC");

  return {
    locale,
    localeId: LOCALE_IDS[locale] ?? "en-US",
    loginRequired: auth.loginRequired,
    signedIn: auth.signedIn,
    mustChangePassword: auth.mustChangePassword,
    authUser: user ? { name: user.Username, email: user.EMail, roleID: user.Role } : null,
    nav,
    helpUrl: (gate.urls.help as string | undefined) ?? null,
    dashboards,
    theme: { mainColor: theme.mainColor, hoverColor: theme.hoverColor, lightColor: theme.lightColor, logo: theme.logo ? `/theme/logo?f=${encodeURIComponent(theme.logo)}` : null },
    themeMode: (user?.Theme as "light" | "dark" | "semi-dark" | undefined) || prefs.theme,
    layout: prefs.layout,
    layoutType: prefs.layoutType,
    sidebarWidth: prefs.sidebarWidth,
    timeZone,
    banner: banner && bannerVisible(banner, maintenance, closedText) ? banner : null,
    alerts: shellMessages(await alerts, getInstance(context).t, LOCALE_IDS[locale] ?? "en-US", timeZone),
    // The logger did not answer in time: the shell says so, and since when its data is (issue 26 §2).
    logger: logger.outage,
    // Alarm priorities the annunciator sounds for (Global Settings; an empty list: it is off).
    annunciator: annunciatorSeverities(auth.settings),
    toast,
    // Spec §4's access token in the hash, only on a page load that came from this site.
    hashToken: navigationFromSameSite(request.headers, new URL(request.url).origin),
  };
}

/** The fallback of a shell part that the logger could not give in time; any other failure still fails. */
function awayOr<T>(fallback: T) {
  return (error: unknown): T => {
    if (isLoggerAway(error)) return fallback;
    throw error;
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const { i18n } = useContext(I18nContext);
  // Inline scripts run only with this response's CSP nonce (app/services/csp.server.ts).
  const nonce = useNonce();
  // A page shown at another request's address (the request gate's refusals) runs no scripts.
  const scripts = !useMatches().some((m) => (m.handle as { noScripts?: boolean } | undefined)?.noScripts);
  // Said on <html> once the page is interactive, error pages too (end-to-end tests wait for it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const theme = root?.theme;
  const style = theme
    ? ({
        "--loggia-main": theme.mainColor,
        "--loggia-hover": theme.hoverColor,
        "--loggia-light": theme.lightColor,
        // Button text readable on whatever colours the site chose (app/ui/contrast.ts).
        "--loggia-main-text": readableOn(theme.mainColor),
        "--loggia-hover-text": readableOn(theme.hoverColor),
      } as React.CSSProperties)
    : undefined;
  return (
    <html lang={root?.locale ?? i18n.language ?? "en"} data-theme={root?.themeMode ?? "light"} style={style}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {/* Reports the browser's time zone for users who chose "browser zone" (spec §4). */}
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{
            __html: `try{document.cookie="loggia_tz="+encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)+";path=/;max-age=31536000;samesite=lax"}catch(e){}`,
          }}
        />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 dark:bg-slate-900 dark:text-slate-100">
        {children}
        {scripts && <ScrollRestoration nonce={nonce} />}
        {scripts && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useContext(I18nContext);
  useEffect(() => {
    const lng = loaderData.locale;
    if (i18n.language === lng) return;
    // The browser has only the language it started with: another one is loaded first.
    void (async () => {
      await ensureTexts(lng, window.location.pathname);
      await i18n.changeLanguage(lng);
    })();
  }, [loaderData.locale, i18n]);
  useHashToken(loaderData.hashToken);
  const matches = useMatches();
  const [params] = useSearchParams();
  const bare = matches.some((m) => (m.handle as { bare?: boolean } | undefined)?.bare);
  // ?kiosk: a wall display shows only the page itself (and a maintenance banner, which must be seen).
  const kiosk = params.has("kiosk");
  return (
    <AppShell data={loaderData} bare={bare || kiosk || (!loaderData.signedIn && loaderData.loginRequired)} kiosk={kiosk}>
      <Outlet />
    </AppShell>
  );
}

/**
 * Spec §4: hands an access token found in the URL hash to the server, then drops the hash —
 * only when this page was opened from the console itself or by the user (`accepted`), never
 * through another site's link (which could sign the user in as someone else).
 */
function useHashToken(accepted: boolean) {
  const submit = useSubmit();
  useEffect(() => {
    const match = /(?:^#|&)access_token=([^&]+)/.exec(window.location.hash);
    if (!match) return;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    // On the sign-in page the target is the one it remembers; elsewhere the page itself.
    const here = new URL(window.location.href);
    const target = here.pathname === "/signin" ? (here.searchParams.get("redirect_uri") ?? "") : here.pathname + here.search;
    if (accepted) void submit({ access_token: decodeURIComponent(match[1]), redirect_uri: target }, { method: "post", action: "/signin/token" });
  }, [submit, accepted]);
}

export function meta() {
  return [{ title: "Loggia" }];
}

/** The browser's fetch failing to reach the console (Chromium "Failed to fetch", Firefox "NetworkError…"). */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && /fetch|network/i.test(error.message);
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRootData();
  const [params] = useSearchParams();
  const kiosk = params.has("kiosk");
  // A write the browser could not send (the network away) is not a server fault: status 0.
  const status = isRouteErrorResponse(error) ? error.status : isNetworkError(error) ? 0 : 500;
  const reason = isRouteErrorResponse(error) ? (error.data as { reason?: string } | undefined)?.reason : undefined;
  if (!isRouteErrorResponse(error) && status !== 0) console.error(error);
  // Always inside the shell (issue 26 §1): without root data (the root loader failed) the app's
  // own logo and colours, in the language the page was served in; a page without the header (a
  // wall display, the signed-out pages) shows the logo above the message.
  const shell = root ?? defaultShell(typeof document === "undefined" ? "en" : document.documentElement.lang);
  const bare = kiosk || (!shell.signedIn && shell.loginRequired && !!root);
  return (
    <AppShell data={shell} bare={bare} kiosk={kiosk}>
      {bare && (
        <div className="flex justify-center pt-10">
          <Logo src={shell.theme.logo} />
        </div>
      )}
      <ErrorPage status={status} reason={reason} />
      <ErrorRetry status={status} />
    </AppShell>
  );
}