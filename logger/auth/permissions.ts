// Names fixed by console spec §6; the console compares them verbatim.
export const PERMISSIONS = {
  ViewStructure: "View the plant structure (Struct View)",
  ViewCockpit: "View the map (cockpit)",
  ViewDashboards: "View dashboards",
  ManageDashboards: "Create, edit and remove dashboards",
  ViewAnalytics: "Use analytics",
  UseExport: "Export data",
  ViewDevices: "View the project state and devices",
  UseFilebrowser: "Use the file browser",
  ManageUsers: "Manage user accounts",
  ManageRoles: "Manage roles and their permissions",
  UseRulesNotifications: "Use rules, notifications and alarming",
  UseMetaData: "Use metadata, the variable overview and the measurement explorer",
  UseJupyterLab: "Use Jupyter Lab",
  UseMonitor: "Use the monitor",
  ViewLogs: "View log messages",
  ManageProject: "Change the project configuration (Simple Config)",
  ManageGlobalSettings: "Change global settings and the web UI styling",
} as const;

export type PermissionName = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as PermissionName[];

export function isPermission(name: string): name is PermissionName {
  return Object.hasOwn(PERMISSIONS, name);
}
