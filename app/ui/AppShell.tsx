import { useEffect, useMemo } from "react";
import { useT } from "~/ui/useT";
import { useLocation, useMatches } from "react-router";
import type { RootData } from "./rootData";
import { MaintenanceBanner } from "./MaintenanceBanner";
import { HeaderAlerts } from "./HeaderAlerts";
import { DRAWER, HeaderMenu, Logo, SideMenu } from "./Navigation";
import { buildNav } from "./navTree";
import { LAYOUT_TYPE_CLASS, SHELL_LAYOUTS } from "./layout/shellLayout";
import { PendingBar } from "./PendingBar";
import { Toast } from "./Toasts";
import { UserMenu } from "./UserMenu";
import { AlarmBannerSlot } from "./alarms/AlarmBannerSlot";
import { AlarmFeedContext } from "./alarms/alarmFeedContext";
import { useAlarmFeed } from "./alarms/useAlarmFeed";
import { ConnectionStrip, LoggerAwayStrip } from "./connection/ConnectionStrip";

/** Closes open popup menus on navigation and on a click elsewhere (they open without JS too). */
function useMenuDismissal() {
  const location = useLocation();
  useEffect(() => {
    for (const d of document.querySelectorAll<HTMLDetailsElement>("details[data-menu], details[data-drawer]")) d.open = false;
  }, [location.pathname, location.search]);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      for (const d of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) {
        if (!d.contains(event.target as Node)) d.open = false;
      }
    };
    // Escape closes the open menu and gives the focus back to its toggle (keyboard users).
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      for (const d of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open], details[data-drawer][open]")) {
        d.open = false;
        if (d.contains(document.activeElement)) d.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
    };
  }, []);
}

// Where the sidebar sits from md: under the 76 px header, as a floating panel, or in the grid of the no-header layout.
const SIDEBAR_PLACE = {
  plain: "md:bottom-auto md:top-[76px] md:h-[calc(100vh-76px)] md:shadow-none",
  modern: "md:bottom-auto md:top-[calc(76px+0.75rem)] md:m-3 md:h-[calc(100vh-76px-1.5rem)] md:rounded-2xl md:border-0 md:shadow-lg",
  noHeader: "md:bottom-auto md:top-0 md:col-start-1 md:row-start-2 md:h-auto md:shadow-none",
} as const;

export function AppShell({ data, bare, kiosk = false, children }: { data: RootData; bare: boolean; kiosk?: boolean; children: React.ReactNode }) {
  const t = useT();
  useMenuDismissal();
  const entries = useMemo(
    () => buildNav({ keys: data.nav, dashboards: data.dashboards, loginRequired: data.loginRequired, helpUrl: data.helpUrl }),
    [data.nav, data.dashboards, data.loginRequired, data.helpUrl],
  );
  const toast = <Toast key={data.toast?.id ?? "none"} toast={data.toast} />;
  // The alarm state, kept current with JavaScript (the banner, the bell; issue 26 §4).
  const alarms = useAlarmFeed(data.alerts?.alarms ?? null, data.signedIn || !data.loginRequired);
  const away = useLoggerAway(data);
  if (bare) {
    return (
      <>
        <PendingBar />
        {!kiosk && <ConnectionStrip />}
        {data.banner && <MaintenanceBanner banner={data.banner} kiosk={kiosk} />}
        <main className={kiosk ? "min-h-screen p-2" : "min-h-screen"} data-kiosk={kiosk || undefined}>
          <AlarmFeedContext.Provider value={alarms}>{children}</AlarmFeedContext.Provider>
        </main>
        {toast}
      </>
    );
  }
  const L = SHELL_LAYOUTS[data.layout];
  const dark = L.darkChrome ? "dark" : undefined;
  const bar = "border-slate-200 bg-white text-slate-900 chrome-dark:border-slate-700 chrome-dark:bg-slate-800 chrome-dark:text-slate-100";
  const header = (
    <header
      data-chrome={dark}
      className={`sticky top-0 z-20 flex h-[76px] shrink-0 items-center gap-4 border-b px-4 ${bar} ${L.topMenu ? "border-b-4 border-b-brand" : ""} ${
        L.noHeader ? "md:static md:col-start-1 md:row-start-1 md:h-auto md:flex-wrap md:gap-2 md:border-r md:p-3" : ""
      }`}
    >
      <details id="nav-drawer" data-drawer className="md:hidden">
        <summary className="rounded p-2 hover:bg-black/5" aria-label={t("nav.openMenu")} data-testid="drawer-toggle">
          <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
            <path d="M4 6h16M4 12h16M4 18h16" />
          </svg>
        </summary>
      </details>
      <Logo src={data.theme.logo} className={L.noHeader ? "md:w-full" : ""} />
      <div className={`flex-1 ${L.topMenu ? "flex justify-center" : ""}`}>
        {!L.vertical && !L.menuBar && <HeaderMenu entries={entries} compact={L.compact} className={L.topMenu ? "md:flex md:justify-center" : ""} />}
      </div>
      {data.alerts && <HeaderAlerts alerts={data.alerts} alarms={alarms} />}
      {data.loginRequired && data.authUser && <UserMenu user={data.authUser} />}
    </header>
  );
  const sidebar = L.vertical && (
    <aside
      data-chrome={L.modernSidebar ? "dark" : undefined}
      data-testid="sidebar"
      className={`${DRAWER} border-r p-3 ${bar} md:sticky md:block md:w-[var(--sidebar-width)] md:shrink-0 md:overflow-y-auto ${SIDEBAR_PLACE[L.noHeader ? "noHeader" : L.modernSidebar ? "modern" : "plain"]}`}
    >
      <SideMenu entries={entries} label={t("nav.sidebar")} compact={L.compact} />
    </aside>
  );
  // One content width (issue 28 §7): every screen as wide as the window up to the xl breakpoint
  // (1920 px, spec §9); only the screens that show the plant itself (dashboards, the Map, Jupyter)
  // say data-wide and fill a wider one. (The context provider adds no element: the route's own
  // element stays main's child.)
  const main = (
    <main id="main" tabIndex={-1} className={`min-w-0 flex-1 p-4 outline-none md:p-6 [&>:not([data-wide])]:w-full [&>:not([data-wide])]:max-w-screen-xl ${L.noHeader ? "md:col-start-2 md:row-span-2 md:row-start-1" : ""}`}>
      <AlarmFeedContext.Provider value={alarms}>{children}</AlarmFeedContext.Provider>
    </main>
  );
  // Below the header: the connection, the logger, alarms, then the maintenance notice.
  const banner = (
    <>
      <ConnectionStrip />
      {away && <LoggerAwayStrip since={away.since} />}
      <AlarmBannerSlot alarms={alarms} />
      {data.banner && <MaintenanceBanner banner={data.banner} />}
    </>
  );
  return (
    <div
      className={`group/shell flex min-h-screen flex-col ${LAYOUT_TYPE_CLASS[data.layoutType]} ${data.layoutType === "framed" ? "min-[1366px]:min-h-[calc(100vh-3rem)]" : ""}`}
      style={{ "--sidebar-width": `${data.sidebarWidth}px` } as React.CSSProperties}
      data-layout={data.layout}
      data-layout-type={data.layoutType}
    >
      <PendingBar />
      {/* The first Tab stop: past the header and menus straight to the page (WCAG 2.4.1). */}
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-slate-900 focus:shadow-lg focus:ring-2 focus:ring-brand">
        {t("nav.skipToContent")}
      </a>
      {L.noHeader ? (
        <>
          {banner}
          {/* One header: a top bar below md, the head of the sidebar from md (no top bar). */}
          <div className="flex flex-1 flex-col md:grid md:grid-cols-[var(--sidebar-width)_minmax(0,1fr)] md:grid-rows-[auto_1fr]">
            {header}
            {sidebar}
            {main}
          </div>
        </>
      ) : (
        <>
          {header}
          {L.menuBar && (
            <div data-chrome={dark} className={`md:sticky md:top-[76px] md:z-10 md:border-b md:px-4 md:py-1 ${bar}`}>
              <HeaderMenu entries={entries} compact={L.compact} />
            </div>
          )}
          {banner}
          <div className="flex flex-1">
            {sidebar}
            {main}
          </div>
        </>
      )}
      {toast}
    </div>
  );
}

/**
 * The shell's and the screen's word that kept answers are shown (keptData), whichever met the
 * outage: the age of the oldest kept answer shown, if any was (what an operator must weigh).
 */
function useLoggerAway(data: RootData): { since: number | null } | null {
  const matches = useMatches();
  const aways = [data.logger, ...matches.map((m) => (m.loaderData as { loggerAway?: { since: number | null } | null } | undefined)?.loggerAway)].filter((a) => a != null);
  if (aways.length === 0) return null;
  const sinces = aways.map((a) => a.since).filter((since) => since !== null);
  return { since: sinces.length ? Math.min(...sinces) : null };
}
