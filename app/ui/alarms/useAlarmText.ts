import { useFormatters } from "~/ui/format";
import { useRootData } from "~/ui/rootData";
import { useT } from "~/ui/useT";
import { alarmMessageText, alarmText, type AlarmFields, type MessageFields } from "./alarmText";

/** Alarm texts and Alarming messages in the reader's language and number format. */
export function useAlarmText() {
  const t = useT();
  const locale = useRootData()?.localeId ?? "en-US";
  const { dateTime } = useFormatters();
  return {
    alarm: (a: { Text: string; Fields?: AlarmFields }) => alarmText(a.Fields, a.Text, { t, locale }),
    message: (m: { Sender: string; Text: string; Fields?: MessageFields }) => (m.Sender === "Alarming" ? alarmMessageText(m.Fields, m.Text, { t, locale, dateTime }) : m.Text),
  };
}
