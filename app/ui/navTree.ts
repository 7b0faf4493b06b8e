import { FEATURES, type IconName } from "~/features";

export interface NavLink {
  key: string;
  to: string;
  /** i18n key, or `text` for names that are data (dashboards). */
  label?: string;
  text?: string;
  icon?: IconName;
  bold?: boolean;
  external?: boolean;
  /** Posts to /logout instead of linking. */
  logout?: boolean;
}
export interface NavGroup {
  id: string;
  label: string;
  icon: IconName;
  items: NavLink[];
  /** A titled section inside the group (the Dashboard Selection list). */
  section?: { label: string; items: NavLink[] };
  sub?: NavGroup[];
}
export type NavEntry = { kind: "link"; link: NavLink } | { kind: "group"; group: NavGroup };

interface Input {
  keys: readonly string[];
  dashboards: readonly { ID: string; Name: string; IsDefault: boolean }[];
  loginRequired: boolean;
  helpUrl: string | null;
}

/** The navigation of spec §2 from the features the caller may use. */
export function buildNav({ keys, dashboards, loginRequired, helpUrl }: Input): NavEntry[] {
  const has = new Set(keys);
  const link = (key: string): NavLink | null => {
    if (!has.has(key)) return null;
    const f = FEATURES.find((x) => x.key === key)!;
    return { key, to: f.external && helpUrl ? helpUrl : f.path, label: f.label, icon: f.icon, external: f.external };
  };
  const links = (ks: string[]) => ks.map(link).filter((l): l is NavLink => l !== null);
  const entries: NavEntry[] = [];

  const dashboardItems = links(["dashboard", "dashboardManager"]);
  if (dashboardItems.length) {
    entries.push({
      kind: "group",
      group: {
        id: "dashboard",
        label: "nav.group.dashboard",
        icon: "dashboard",
        items: dashboardItems,
        section: has.has("dashboard")
          ? {
              label: "nav.dashboardSelection",
              items: dashboards.map((d) => ({ key: `dashboard-${d.ID}`, to: `/${d.ID}`, text: d.Name, bold: d.IsDefault })),
            }
          : undefined,
      },
    });
  }
  for (const l of links(["analytics", "export", "devices"])) entries.push({ kind: "link", link: l });

  const tools = links(["alarming", "fileBrowser", "cockpit", "measurementUI", "config", "structView", "variableOverview", "dataSources", "vncview"]);
  const advanced = links(["log", "metadata", "monitor", "traceLog", "jupyterlab", "canscanner"]);
  if (tools.length || advanced.length) {
    entries.push({
      kind: "group",
      group: {
        id: "tools",
        label: "nav.group.tools",
        icon: "sliders",
        items: tools,
        sub: advanced.length ? [{ id: "advanced", label: "nav.group.advanced", icon: "trace", items: advanced }] : undefined,
      },
    });
  }
  if (loginRequired) {
    const user = links(["settings", "globalSettings", "roleManagement", "userManagement"]);
    user.push({ key: "logout", to: "/logout", label: "nav.logout", icon: "logout", logout: true });
    entries.push({ kind: "group", group: { id: "user", label: "nav.group.user", icon: "user", items: user } });
  }
  const help = links(["versionInfo", "changelogUI", "help"]);
  if (help.length) entries.push({ kind: "group", group: { id: "help", label: "nav.group.help", icon: "help", items: help } });
  return entries;
}

export function linkMatches(to: string, pathname: string): boolean {
  if (to.startsWith("http")) return false;
  const path = to.split(/[?#]/)[0];
  return pathname === path || pathname.startsWith(path.endsWith("/") ? path : `${path}/`);
}

/** Spec §2: a parent is active when any nested child link matches the current path. */
export function groupActive(group: NavGroup, pathname: string): boolean {
  return (
    group.items.some((l) => !l.logout && linkMatches(l.to, pathname)) ||
    (group.section?.items.some((l) => linkMatches(l.to, pathname)) ?? false) ||
    (group.sub?.some((g) => groupActive(g, pathname)) ?? false)
  );
}
