// The one feature table (spec §2, §6): route, menu entry, icon, permission and feature key of
// every screen. It drives app/routes.ts, the navigation and the server-side guards.
// `module` is set only for screens that exist; the others are neither routed nor linked.

export const PERMISSIONS = [
  "ViewStructure",
  "ViewCockpit",
  "ViewDashboards",
  "ManageDashboards",
  "ViewAnalytics",
  "UseExport",
  "ViewDevices",
  "UseFilebrowser",
  "ManageUsers",
  "ManageRoles",
  "UseRulesNotifications",
  "UseMetaData",
  "UseJupyterLab",
  "UseMonitor",
  "ViewLogs",
  "ManageProject",
  "ManageGlobalSettings",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type NavGroup = "dashboard" | "main" | "tools" | "advanced" | "user" | "help";

export type IconName =
  | "dashboard" | "grid" | "chart" | "download" | "devices" | "bell" | "folder" | "map"
  | "table" | "sliders" | "tree" | "list" | "screen" | "log" | "tag" | "pulse" | "trace"
  | "notebook" | "bus" | "user" | "settings" | "shield" | "users" | "info" | "history"
  | "help" | "logout" | "rules" | "plug" | "upload";

export interface Feature {
  /** Feature key: the key in ConstantsLocal.json's urls map and in the no-login Features list. */
  key: string;
  path: string;
  /** Route module relative to app/, present only once the screen is built. */
  module?: string;
  permission: Permission | null;
  group: NavGroup | null;
  icon: IconName;
  /** i18n key of the menu label. */
  label: string;
  /** Always available (About, User Settings): never gated by the URL map or Features list. */
  always?: boolean;
  /** Shown only on a service, never on a controller (spec §6). */
  serviceOnly?: boolean;
  /** The entry links outside the console (Help). */
  external?: boolean;
  /** Text files (app/locales/<lng>/<name>.json) the screen uses besides the shell's; checked by tests/unit/console/routeTexts.test.ts. */
  texts?: readonly string[];
}

export const FEATURES: readonly Feature[] = [
  { key: "dashboard", path: "/dashboard", module: "routes/dashboard.tsx", permission: "ViewDashboards", group: "dashboard", icon: "dashboard", label: "nav.dashboard", texts: ["dashboards", "kiosk", "operator"] },
  { key: "dashboardManager", path: "/dashboardManager", module: "routes/dashboardManager.tsx", permission: "ManageDashboards", group: "dashboard", icon: "grid", label: "nav.dashboardManager", texts: ["dashboardManager", "dashboards", "picker", "seed", "widgetForm"] },
  { key: "analytics", path: "/analytics", module: "routes/analytics.tsx", permission: "ViewAnalytics", group: "main", icon: "chart", label: "nav.analytics", texts: ["dashboards", "history", "picker"] },
  { key: "export", path: "/export", module: "routes/export.tsx", permission: "UseExport", group: "main", icon: "download", label: "nav.export", texts: ["dashboards", "history", "picker"] },
  { key: "import", path: "/import", module: "routes/import.tsx", permission: "UseExport", group: "main", icon: "upload", label: "nav.import", texts: ["dashboards", "import"] },
  { key: "devices", path: "/devices", module: "routes/devices.tsx", permission: "ViewDevices", group: "main", icon: "devices", label: "nav.devices", texts: ["dataSources", "devices", "live", "operator"] },
  { key: "alarming", path: "/alarming", module: "routes/alarming.tsx", permission: "UseRulesNotifications", group: "tools", icon: "bell", label: "nav.alarming", texts: ["alarmText", "alarming", "live", "seed"] },
  { key: "fileBrowser", path: "/fileBrowser", module: "routes/fileBrowser.tsx", permission: "UseFilebrowser", group: "tools", icon: "folder", label: "nav.fileBrowser", texts: ["dashboards", "fileBrowser", "import"] },
  { key: "cockpit", path: "/cockpit", module: "routes/cockpit.tsx", permission: "ViewCockpit", group: "tools", icon: "map", label: "nav.cockpit", texts: ["map"] },
  { key: "measurementUI", path: "/measurementUI", module: "routes/measurementUI.tsx", permission: "UseMetaData", group: "tools", icon: "table", label: "nav.measurementUI", texts: ["dashboards", "history", "live", "seed"] },
  { key: "config", path: "/config", module: "routes/config.tsx", permission: "ManageProject", group: "tools", icon: "sliders", label: "nav.config", texts: ["config"] },
  { key: "structView", path: "/structView", module: "routes/structView.tsx", permission: "ViewStructure", group: "tools", icon: "tree", label: "nav.structView", texts: ["devices", "live", "operator"] },
  { key: "variableOverview", path: "/variableOverview", module: "routes/variableOverview.tsx", permission: "UseMetaData", group: "tools", icon: "list", label: "nav.variableOverview", texts: ["live", "operator"] },
  { key: "dataSources", path: "/dataSources", module: "routes/dataSources.tsx", permission: "ManageProject", group: "tools", icon: "plug", label: "nav.dataSources", texts: ["dataSources"] },
  { key: "vncview", path: "/vncview", module: "routes/vncview.tsx", permission: null, group: "tools", icon: "screen", label: "nav.vncview", texts: ["vnc"] },
  { key: "log", path: "/log", module: "routes/log.tsx", permission: "ViewLogs", group: "advanced", icon: "log", label: "nav.log", texts: ["alarmText", "live", "log", "seed"] },
  { key: "metadata", path: "/metadata", module: "routes/metadata.tsx", permission: "UseMetaData", group: "advanced", icon: "tag", label: "nav.metadata", texts: ["dashboards", "history", "seed"] },
  { key: "monitor", path: "/monitor", module: "routes/monitor.tsx", permission: "UseMonitor", group: "advanced", icon: "pulse", label: "nav.monitor", texts: ["live", "picker"] },
  { key: "traceLog", path: "/traceLog", module: "routes/traceLog.tsx", permission: null, group: "advanced", icon: "trace", label: "nav.traceLog", texts: ["trace"] },
  { key: "jupyterlab", path: "/jupyterlab", module: "routes/jupyterlab.tsx", permission: "UseJupyterLab", group: "advanced", icon: "notebook", label: "nav.jupyterlab", texts: ["jupyter"] },
  { key: "canscanner", path: "/canscanner", module: "routes/canscanner.tsx", permission: null, group: "advanced", icon: "bus", label: "nav.canscanner", texts: ["can"] },
  { key: "rulesNotifications", path: "/rulesNotifications", module: "routes/rulesNotifications.tsx", permission: "UseRulesNotifications", group: null, icon: "rules", label: "nav.rulesNotifications", texts: ["picker", "rules"] },
  { key: "settings", path: "/settings", module: "routes/settings.tsx", permission: null, group: "user", icon: "settings", label: "nav.settings", always: true, texts: ["password", "settings"] },
  { key: "globalSettings", path: "/globalSettings", module: "routes/globalSettings.tsx", permission: "ManageGlobalSettings", group: "user", icon: "shield", label: "nav.globalSettings", texts: ["globalSettings"] },
  { key: "roleManagement", path: "/roleManagement", module: "routes/roleManagement.tsx", permission: "ManageRoles", group: "user", icon: "shield", label: "nav.roleManagement", texts: ["roles", "seed"] },
  { key: "userManagement", path: "/userManagement", module: "routes/userManagement.tsx", permission: "ManageUsers", group: "user", icon: "users", label: "nav.userManagement", texts: ["password", "users"] },
  { key: "versionInfo", path: "/versionInfo", module: "routes/versionInfo.tsx", permission: null, group: "help", icon: "info", label: "nav.versionInfo", always: true, texts: ["about"] },
  { key: "changelogUI", path: "/changelogUI", module: "routes/changelogUI.tsx", permission: null, group: "help", icon: "history", label: "nav.changelogUI" },
  { key: "help", path: "/help", module: "routes/help.tsx", permission: null, group: "help", icon: "help", label: "nav.help", serviceOnly: true, texts: ["help"] },
];

export function featureByKey(key: string): Feature {
  const feature = FEATURES.find((f) => f.key === key);
  if (!feature) throw new Error(`Unknown feature ${key}`);
  return feature;
}
