import type { AlarmHistoryEntry } from "~/services/logger/schemas";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

const COLUMNS = ["time", "severity", "name", "event", "transition", "value", "user", "comment"];

/** The alarm history page: one row per raise, clear, acknowledgement or shelving. */
/** A history entry with its variable's decimals and unit, when known. */
type ShownEntry = AlarmHistoryEntry & { Precision?: number | null; VariableUnit?: string };

export function HistoryTable({ history }: { history: ShownEntry[] }) {
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
          {/* The value at this event (raised: at activation; cleared: when it returned), as a live tile shows it. */}
          <Cell className="whitespace-nowrap tabular-nums">
            {value(h.Value, h.Precision ?? undefined)}
            {h.Value !== null && h.VariableUnit ? ` ${h.VariableUnit}` : ""}
          </Cell>
          <Cell>{h.User}</Cell>
          <Cell>{h.Comment}</Cell>
        </Row>
      ))}
    </DataTable>
  );
}
