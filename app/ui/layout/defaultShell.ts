import { LOCALE_IDS, isLanguage } from "~/locales";
import type { RootData } from "~/ui/rootData";

// The shell drawn when nothing about the caller is known (the logger away and nothing kept, or
// the root loader failed): the app's logo, colours and layout, no menus that could not work
// anyway. Error pages and the outage page render inside it, never as a bare page (issue 26 §1).

/** Spec §9's default sidebar width (DEFAULT_SIDEBAR_WIDTH of schemas/preferences.ts, which brings zod to the browser). */
const SIDEBAR_WIDTH = 304;
/** Spec §9's default colours (theme.server.ts has the same as DEFAULT_THEME, for the server). */
export const DEFAULT_COLOURS = { mainColor: "#3056a8", hoverColor: "#4c85ff", lightColor: "#e8eefb" } as const;

export function defaultShell(language: string, overrides: Partial<RootData> = {}): RootData {
  const locale = isLanguage(language) ? language : "en";
  return {
    locale,
    localeId: LOCALE_IDS[locale],
    // Unknown: the bare page a signed-out caller gets.
    loginRequired: true,
    signedIn: false,
    mustChangePassword: false,
    authUser: null,
    nav: [],
    helpUrl: null,
    dashboards: [],
    theme: { ...DEFAULT_COLOURS, logo: null },
    themeMode: "light",
    layout: "horizontal-minimal",
    layoutType: "full-width",
    sidebarWidth: SIDEBAR_WIDTH,
    timeZone: "UTC",
    banner: null,
    alerts: { alarms: null, messages: null },
    toast: null,
    hashToken: false,
    logger: null,
    annunciator: [],
    ...overrides,
  };
}
