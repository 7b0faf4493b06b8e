import { useFormatters } from "~/ui/format";
import { useRootData } from "~/ui/rootData";
import { useT } from "~/ui/useT";
import { alarmMessageText, alarmText, type AlarmFields, type MessageFields } from "./alarmText";
import { seedText } from "~/ui/seedTexts";

/** Alarm texts and Alarming messages in the reader's language and number format. */
export function useAlarmText() {
  const t = useT();
  const locale = useRootData()?.localeId ?? "en-US";
  const { dateTime } = useFormatters();
  return {
    alarm: (a: { Text: string; Fields?: AlarmFields }) => alarmText(a.Fields, a.Text, { t, locale }),
    // Alarming's from its fields; the logger's seeding messages as seeded (app/ui/seedTexts.ts); others as written.
    message: (m: { Sender: string; Text: string; Fields?: MessageFields }) => (m.Sender === "Alarming" ? alarmMessageText(m.Fields, m.Text, { t, locale, dateTime }) : m.Sender === "Logger" ? seedText(t, m.Text) : m.Text),
  };
}
