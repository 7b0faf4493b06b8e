import type { AlarmRule, NotificationTarget } from "~/services/logger/schemas";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { useFormatters } from "~/ui/format";
import { RowActions, RowLink, RowRemove } from "~/ui/RowActions";
import { useT } from "~/ui/useT";

/** The alarm rules with their condition in words, and edit / remove per row. */
export function RulesTable({ rules, targets, variableName, editHref, removeHref, listHref }: { rules: AlarmRule[]; targets: NotificationTarget[]; variableName(id: string): string; editHref(id: number): string; removeHref(id: number): string; listHref: string }) {
  const t = useT();
  const columns = [...["name", "variable", "condition", "severity", "inService", "notify"].map((c) => ({ label: t(`rules.columns.${c}`) })), { label: t("common.actions"), srOnly: true }];
  return (
    <DataTable label={t("rules.rulesTitle")} testId="rules-table" columns={columns} empty={rules.length === 0 ? t("rules.noRules") : undefined}>
      {rules.map((r) => (
        <Row key={r.ID} data-rule={r.Name}>
          <Cell className="font-medium">{r.Name}</Cell>
          <Cell>{variableName(r.VariableId)}</Cell>
          <Cell>
            <Condition rule={r} />
          </Cell>
          <Cell>
            <SeverityBadge severity={r.Severity} />
          </Cell>
          <Cell>{r.InService ? t("common.yes") : t("common.no")}</Cell>
          <Cell className="text-xs">
            {r.NotifyTargets.map((id) => targets.find((x) => x.ID === id)?.Name ?? `#${id}`).join(", ")}
            {r.NotifyTargets.length > 0 && r.NotifyOn.length > 0 && <div className="text-slate-600 dark:text-slate-300">{r.NotifyOn.map((e) => t(`rules.notifyOn.${e}`)).join(", ")}</div>}
          </Cell>
          <Cell>
            <RowActions>
              <RowLink to={editHref(r.ID)} label={`${t("common.edit")} ${r.Name}`}>
                {t("common.edit")}
              </RowLink>
              <RowRemove
                label={t("common.remove")}
                title={t("rules.removeRuleTitle", { name: r.Name })}
                message={t("rules.removeRuleMessage", { name: r.Name })}
                confirmLabel={t("common.remove")}
                confirmHref={removeHref(r.ID)}
                fields={{ intent: "removeRule", id: String(r.ID) }}
                cancelHref={listHref}
              />
            </RowActions>
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}

/** A rule's condition in words, e.g. "Range: ∉ [-20, 80] ± 1.5". */
export function Condition({ rule: r }: { rule: AlarmRule }) {
  const t = useT();
  const { number } = useFormatters();
  // A stored -0 (e.g. a low limit typed as "-0") reads 0.
  const n = (v: number | null) => (v === null ? "—" : number(Object.is(v, -0) ? 0 : v));
  const delays = r.OnDelaySec || r.OffDelaySec ? ` · ${t("rules.delays", { on: n(r.OnDelaySec), off: n(r.OffDelaySec) })}` : "";
  const band = r.Deadband ? ` ± ${n(r.Deadband)}` : "";
  const text: Record<AlarmRule["Type"], string> = {
    high: `> ${n(r.High)}${band}`,
    low: `< ${n(r.Low)}${band}`,
    range: `∉ [${n(r.Low)}, ${n(r.High)}]${band}`,
    rate: t("rules.rateText", { rate: n(r.RatePerSec), window: n(r.WindowSec) }),
    stale: t("rules.staleText", { sec: n(r.StaleSec) }),
    digital: t("rules.digitalText", { state: r.State }),
  };
  return (
    <span>
      {t(`rules.types.${r.Type}`)}: {text[r.Type]}
      {delays}
    </span>
  );
}
