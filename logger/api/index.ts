import { adminMethods } from "./admin.ts";
import { annotationMethods } from "./annotations.ts";
import { alarmMethods } from "./alarms.ts";
import { configMethods } from "./config.ts";
import { dashboardMethods } from "./dashboards.ts";
import { deviceMethods } from "./devices.ts";
import { messagingMethods } from "./messaging.ts";
import { notificationMethods } from "./notifications.ts";
import { metadataMethods } from "./metadata.ts";
import { projectConfigMethods } from "./project-config.ts";
import type { Registry } from "./registry.ts";
import { roleMethods } from "./roles.ts";
import { settingsMethods } from "./settings.ts";
import { systemMethods } from "./system.ts";
import { traceMethods } from "./trace.ts";
import { userMethods } from "./users.ts";
import { vncMethods } from "./vnc.ts";
import { webuiMethods } from "./webui.ts";
import { canMethods } from "./can.ts";
import { dataSourceMethods } from "./data-sources.ts";

export const registry: Registry = {
  ...systemMethods,
  ...adminMethods,
  ...configMethods,
  ...settingsMethods,
  ...userMethods,
  ...roleMethods,
  ...messagingMethods,
  ...webuiMethods,
  ...dashboardMethods,
  ...deviceMethods,
  ...alarmMethods,
  ...notificationMethods,
  ...traceMethods,
  ...metadataMethods,
  ...vncMethods,
  ...canMethods,
  ...projectConfigMethods,
  ...dataSourceMethods,
  ...annotationMethods,
};
