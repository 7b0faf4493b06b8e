import { useEffect, useMemo } from "react";
import { useT } from "~/ui/useT";
import { useLocation } from "react-router";
import type { RootData } from "./rootData";
import { MaintenanceBanner } from "./MaintenanceBanner";
import { HeaderAlerts } from "./HeaderAlerts";
import { DRAWER, HeaderMenu, Logo, SideMenu } from "./Navigation";
import { buildNav } from "./navTree";
import { PendingBar } from "./PendingBar";
import { Toast } from "./Toasts";
import { UserMenu } from "./UserMenu";

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
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}

export function AppShell({ data, bare, kiosk = false, children }: { data: RootData; bare: boolean; kiosk?: boolean; children: React.ReactNode }) {
  const t = useT();
  useMenuDismissal();
  const entries = useMemo(
    () => buildNav({ keys: data.nav, dashboards: data.dashboards, loginRequired: data.loginRequired, helpUrl: data.helpUrl }),
    [data.nav, data.dashboards, data.loginRequired, data.helpUrl],
  );
  const toast = <Toast key={data.toast?.id ?? "none"} toast={data.toast} />;
  if (bare) {
    return (
      <>
        <PendingBar />
        {data.banner && <MaintenanceBanner banner={data.banner} />}
        <main className={kiosk ? "min-h-screen p-2" : "min-h-screen"} data-kiosk={kiosk || undefined}>
          {children}
        </main>
        {toast}
      </>
    );
  }
  const vertical = data.layout === "vertical-default";
  return (
    <div className="group/shell flex min-h-screen flex-col">
      <PendingBar />
      <header className="sticky top-0 z-20 flex h-[76px] items-center gap-4 border-b border-slate-200 bg-white px-4 chrome-dark:border-slate-700 chrome-dark:bg-slate-800 chrome-dark:text-slate-100">
        <details id="nav-drawer" data-drawer className="md:hidden">
          <summary className="rounded p-2 hover:bg-black/5" aria-label={t("nav.openMenu")} data-testid="drawer-toggle">
            <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </summary>
        </details>
        <Logo src={data.theme.logo} />
        <div className="flex-1">{!vertical && <HeaderMenu entries={entries} />}</div>
        {data.alerts && <HeaderAlerts alerts={data.alerts} />}
        {data.loginRequired && data.authUser && <UserMenu user={data.authUser} />}
      </header>
      {data.banner && <MaintenanceBanner banner={data.banner} />}
      <div className="flex flex-1">
        {vertical && (
          <aside className={`${DRAWER} border-r border-slate-200 bg-white p-3 md:static md:block md:w-[var(--sidebar-width)] md:shrink-0 md:overflow-visible md:shadow-none chrome-dark:border-slate-700 chrome-dark:bg-slate-800 chrome-dark:text-slate-100`}>
            <SideMenu entries={entries} label={t("nav.sidebar")} />
          </aside>
        )}
        <main className="min-w-0 flex-1 p-4 md:p-6">{children}</main>
      </div>
      {toast}
    </div>
  );
}
