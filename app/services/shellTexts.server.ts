import type { TFunction } from "i18next";
import { alarmMessageText } from "~/ui/alarms/alarmText";
import { formatDateTime } from "~/ui/format";
import { seededContent, seedText } from "~/ui/seedTexts";
import type { HeaderAlerts } from "./header.server";

// The shell's data in the reader's language, said on the server (issue 28 §5): the demo
// dashboards' names in the menu and the header's latest messages. Here rather than in the
// browser, so every page's JavaScript carries neither the seeded texts nor the alarm texts.

// For loaders that say the demo content on the server (the dashboard page): the browser then needs
// neither app/ui/seedTexts.ts nor its texts (seed.json) for them.
export { seededContent, seedText };

export function shellDashboardNames<D extends { Name: string }>(t: TFunction, dashboards: D[]): D[] {
  return dashboards.map((d) => ({ ...d, Name: seedText(t, d.Name) }));
}

/** Alarming's messages from their fields, the logger's seeding messages as seeded, others as written. */
export function shellMessages(alerts: HeaderAlerts, t: TFunction, localeId: string, timeZone: string): HeaderAlerts {
  if (!alerts.messages) return alerts;
  const say = { t, locale: localeId, dateTime: (v: string) => formatDateTime(localeId, timeZone, v) };
  return {
    ...alerts,
    messages: alerts.messages.map((m) => ({ ...m, Text: m.Sender === "Alarming" ? alarmMessageText(m.Fields, m.Text, say) : m.Sender === "Logger" ? seedText(t, m.Text) : m.Text })),
  };
}
