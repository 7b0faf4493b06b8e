import type { DashboardData } from "~/ui/dashboard/types";

// Apart from outage.server.ts, which the root loader imports: the text key below belongs to the
// dashboard's texts only (tests/unit/console/routeTexts.test.ts follows every route's imports).

/**
 * Remembered alarm lists are not shown: "no active alarms" from before the outage could be
 * untrue now. They say the alarms cannot be read instead (a forbidden one stays forbidden).
 */
export function withoutAlarmLists(data: DashboardData, alarmWidgets: readonly string[]): DashboardData {
  const widgets = { ...data.widgets };
  for (const id of alarmWidgets) if (widgets[id]?.state === "ok") widgets[id] = { state: "error", error: "dashboards.alarms.unreachable" };
  return { ...data, widgets };
}
