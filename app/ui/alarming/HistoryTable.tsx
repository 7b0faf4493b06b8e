import type { AlarmHistoryEntry } from "~/services/logger/schemas";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

const COLUMNS = ["time", "severity", "name", "event", "transition", "value", "user", "comment"];

/** The alarm history page: one row per raise, clear, acknowledgement or shelving. */
export function HistoryTable({ history }: { history: AlarmHistoryEntry[] }) {
  const t = useT();
  const { dateTime, value } = useFormatters();
  return (
    <DataTable
      label={t("alarming.historyTitle")}
      testId="history-table"
      columns={COLUMNS.map((c) => ({ label: t(`alarming.columns.${c}`) }))}
      empty={history.length === 0 ? t("alarming.noHistory") : undefined}
    >
      {history.map((h) => (
        <Row key={h.ID} data-event={h.Event} data-rule={h.RuleName}>
          <Cell className="whitespace-nowrap">{dateTime(h.Timestamp)}</Cell>
          <Cell>
            <SeverityBadge severity={h.Severity} />
          </Cell>
          <Cell>{h.RuleName}</Cell>
          <Cell>{t(`alarming.event.${h.Event}`, { defaultValue: h.Event })}</Cell>
          <Cell className="text-xs">
            {t(`alarmState.${h.FromState}`, { defaultValue: h.FromState })} → {t(`alarmState.${h.ToState}`, { defaultValue: h.ToState })}
          </Cell>
          <Cell className="tabular-nums">{value(h.Value)}</Cell>
          <Cell>{h.User}</Cell>
          <Cell>{h.Comment}</Cell>
        </Row>
      ))}
    </DataTable>
  );
}
