import type { Alarm } from "~/services/logger/schemas";
import { AlarmValues } from "~/ui/alarms/AlarmValues";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { useAlarmText } from "~/ui/alarms/useAlarmText";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { actionClass, RowActions, RowLink } from "~/ui/RowActions";
import { useT } from "~/ui/useT";

/** An alarm the operator still has to acknowledge. */
export const awaitsAck = (a: Alarm) => a.State === "ActiveUnacknowledged" || a.State === "ReturnedUnacknowledged";

const COLUMNS = ["severity", "name", "state", "value", "since", "ack"];
const buttonLink = `cursor-pointer ${actionClass}`;

/**
 * The active alarms, inside the page's acknowledge form: the per-row Acknowledge buttons and,
 * while several are being chosen (`selectable`), the check boxes post to it; Unshelve posts to a hidden per-alarm form (`unshelve-ID`).
 */
/** An alarm with its variable's decimals and current value (issue 26 §4). */
export type ShownAlarm = Alarm & { Precision: number | null; Current?: number | null };

export function ActiveAlarmsTable({ alarms, selectable, shelveHref }: { alarms: ShownAlarm[]; selectable: boolean; shelveHref: (a: Alarm) => string }) {
  const t = useT();
  return (
    <DataTable
      label={t("alarming.activeTitle")}
      testId="alarms-table"
      columns={[...(selectable ? [{ label: t("alarming.select"), srOnly: true }] : []), ...COLUMNS.map((c) => ({ label: t(`alarming.columns.${c}`) })), { label: t("common.actions"), srOnly: true }]}
      empty={alarms.length === 0 ? t("alarming.noActive") : undefined}
    >
      {alarms.map((a) => (
        <AlarmRow key={a.ID} alarm={a} selectable={selectable} shelveHref={shelveHref(a)} />
      ))}
    </DataTable>
  );
}

function AlarmRow({ alarm: a, selectable, shelveHref }: { alarm: ShownAlarm; selectable: boolean; shelveHref: string }) {
  const t = useT();
  const { dateTime } = useFormatters();
  const texts = useAlarmText();
  return (
    <Row data-alarm={a.Name} data-state={a.State}>
      {selectable && (
        <Cell>
          {/* On a phone the box sits in a 44×44 px target (issue 28 §3). */}
          {awaitsAck(a) && (
            <label className="phone:inline-flex phone:size-11 phone:cursor-pointer phone:items-center phone:justify-center">
              <input type="checkbox" name="id" value={a.ID} aria-label={t("alarming.selectOne", { name: a.Name })} className="phone:size-5" />
            </label>
          )}
        </Cell>
      )}
      <Cell>
        <SeverityBadge severity={a.Severity} />
      </Cell>
      <Cell>
        <div className="font-medium">{a.Name}</div>
        <div className="text-xs text-slate-600 dark:text-slate-300" data-testid="alarm-text">
          {texts.alarm(a)}
        </div>
      </Cell>
      <Cell data-testid="alarm-state">
        {t(`alarmState.${a.State}`)}
        {a.State === "Shelved" && a.ShelvedUntil && (
          <div className="text-xs text-slate-600 dark:text-slate-300">
            {t("alarming.shelvedUntil", { when: dateTime(a.ShelvedUntil), who: a.ShelvedBy })} · {a.ShelveReason}
          </div>
        )}
      </Cell>
      <Cell>
        <AlarmValues alarm={a} />
      </Cell>
      <Cell>{dateTime(a.Since)}</Cell>
      <Cell className="text-xs">
        {a.AckedBy && (
          <>
            {t("alarming.ackedBy", { who: a.AckedBy })}
            {a.AckComment && <div className="text-slate-600 dark:text-slate-300">“{a.AckComment}”</div>}
          </>
        )}
      </Cell>
      <Cell>
        <RowActions>
          {awaitsAck(a) && (
            <button type="submit" name="only" value={a.ID} className={buttonLink} aria-label={`${t("alarming.acknowledge")} ${a.Name}`}>
              {t("alarming.acknowledge")}
            </button>
          )}
          {a.State === "Shelved" ? (
            <button type="submit" form={`unshelve-${a.ID}`} className={buttonLink} aria-label={`${t("alarming.unshelve")} ${a.Name}`}>
              {t("alarming.unshelve")}
            </button>
          ) : (
            a.State !== "OutOfService" && (
              <RowLink to={shelveHref} label={`${t("alarming.shelve")} ${a.Name}`}>
                {t("alarming.shelve")}
              </RowLink>
            )
          )}
        </RowActions>
      </Cell>
    </Row>
  );
}
