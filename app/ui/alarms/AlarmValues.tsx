import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

export interface AlarmValueFacts {
  VariableName: string;
  Unit: string;
  /** The variable's decimals, when known. */
  Precision: number | null | undefined;
  /** The value that raised the alarm. */
  Value: number | null;
  /** The variable's value now (undefined: not read). */
  Current?: number | null;
}

/**
 * An alarm's value, always said to be the one at activation, with the variable's precision and
 * unit, and the current value beside it (issue 26 §4): a bare "12.345" next to a live tile with
 * another value misled operators.
 */
export function AlarmValues({ alarm, named = true, className = "" }: { alarm: AlarmValueFacts; named?: boolean; className?: string }) {
  const t = useT();
  const fmt = useFormatters();
  const shown = (v: number | null) => `${fmt.value(v, alarm.Precision ?? undefined)}${alarm.Unit && v !== null ? ` ${alarm.Unit}` : ""}`;
  return (
    <span className={`flex flex-wrap items-baseline gap-x-2 ${className}`}>
      {named && <span className="font-medium">{alarm.VariableName}</span>}
      <span className="tabular-nums" data-testid="alarm-at-activation">
        {t("alarmValues.atActivation", { value: shown(alarm.Value) })}
      </span>
      {alarm.Current !== undefined && (
        <span className="tabular-nums text-current/80" data-testid="alarm-now">
          {t("alarmValues.now", { value: shown(alarm.Current) })}
        </span>
      )}
    </span>
  );
}
