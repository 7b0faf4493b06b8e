import type { TFunction } from "i18next";

// A permission's description names the screens it opens by their menu names (issue 28 §5), in
// the reader's language: the texts take the names from the navigation's labels.

const SCREENS = ["dashboardSelection", "dashboardManager", "analytics", "export", "structView", "cockpit", "devices", "monitor", "fileBrowser", "alarming", "variableOverview", "measurementUI", "jupyterlab", "log", "config", "userManagement", "roleManagement", "globalSettings"] as const;

export function permissionText(t: TFunction, permission: string): string {
  return t(`roles.perm.${permission}`, Object.fromEntries(SCREENS.map((s) => [s, t(`nav.${s}`)])));
}
