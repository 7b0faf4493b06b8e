import { memo, useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { isOutput } from "~/services/logger/schemas";
import type { VariableRow } from "~/services/variables.server";
import { Cell, Row } from "~/ui/DataTable";
import { FieldError } from "~/ui/FieldError";
import { buttonClass, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { FreshnessBadge } from "~/ui/FreshnessBadge";
import { NOT_LIVE_CLASS, type Freshness } from "~/ui/live/freshness";
import { ReasonText } from "~/ui/live/LiveBadge";
import type { QualityReason } from "~/ui/live/quality";
import { VALUE_STATE_CLASS, valueState } from "~/ui/live/valueState";
import { useT } from "~/ui/useT";
import { isSwitch, rangeText } from "./outputValue";

/** A write that failed: shown in its row, next to the field, with what was typed. */
export interface WriteFailure {
  variable: string;
  value: string;
  error: string;
  nonce: string;
}

interface Props {
  v: VariableRow;
  value: number | null;
  freshness: Freshness;
  ageMs: number | null;
  /** Why the value is not live, where known (shown for a device of its own: the page badge says the rest). */
  reason?: QualityReason | null;
  canWrite: boolean;
  failure?: WriteFailure;
  /** This row's value field is open (a typed output is written from a form of its own, which never reloads itself). */
  editing: boolean;
  writeHref: string;
  cancelHref: string;
}

/**
 * One Variable Overview row: the value with its freshness, and for outputs the write form. Memoised:
 * the list renders again at every live update, and a row whose value and state stayed is skipped.
 */
export const VariableLine = memo(function VariableLine({ v, value, freshness, ageMs, reason = null, canWrite, failure, editing, writeHref, cancelHref }: Props) {
  const t = useT();
  const fmt = useFormatters();
  const state = valueState(value, v.RangeMin, v.RangeMax);
  const busy = useNavigation().state === "submitting";
  const input = useRef<HTMLInputElement>(null);
  const errorId = `write-error-${v.Id}`;
  const hintId = `write-range-${v.Id}`;
  const range = rangeText(v, (n) => fmt.value(n, v.Precision));
  // Without JavaScript autoFocus brings the field into view; after a client-side post it is already mounted.
  useEffect(() => {
    if (failure) input.current?.focus();
  }, [failure]);
  return (
    <Row data-variable={v.Name} data-freshness={freshness}>
      <Cell className="font-medium">{v.Name}</Cell>
      <Cell>{v.deviceName}</Cell>
      <Cell className="whitespace-nowrap text-right">
        <span className={`font-mono tabular-nums ${VALUE_STATE_CLASS[state]} ${freshness === "live" ? "" : NOT_LIVE_CLASS}`} data-testid="value" data-state={state}>
          {isSwitch(v) && value !== null ? t(value ? "live.on" : "live.off") : fmt.value(value, v.Precision)}
        </span>
        <FreshnessBadge freshness={freshness} ageMs={ageMs} />
        {reason?.kind === "disconnected" && (
          <span className="block text-xs text-slate-600 dark:text-slate-300" data-testid="value-reason">
            <ReasonText reason={reason} />
          </span>
        )}
      </Cell>
      <Cell>{v.Unit}</Cell>
      <Cell>{v.DataFormat}</Cell>
      <Cell>{t(`live.direction.${v.Direction}`)}</Cell>
      <Cell className="whitespace-nowrap">{v.RangeMin != null && v.RangeMax != null ? `${fmt.value(v.RangeMin, v.Precision)} … ${fmt.value(v.RangeMax, v.Precision)}` : "—"}</Cell>
      <Cell>{v.Precision ?? "—"}</Cell>
      {canWrite && (
        <Cell>
          {isOutput(v) &&
            (isSwitch(v) ? (
              // A switch is set with On or Off (confirmed like every write), never typed (issue 26 §5).
              <Form method="post" className="flex flex-wrap items-center gap-1" preventScrollReset aria-label={t("live.writeLabel", { name: v.Name })}>
                <input type="hidden" name="intent" value="write" />
                <input type="hidden" name="variable" value={v.Id} />
                {([1, 0] as const).map((on) => (
                  <button
                    key={on}
                    type="submit"
                    name="value"
                    value={String(on)}
                    // The switch's current state is the filled one.
                    className={value === on ? `${buttonClass} py-1 phone:min-h-11` : "rounded-md border border-slate-300 px-4 py-1 font-medium hover:bg-slate-100 phone:min-h-11 dark:border-slate-600 dark:hover:bg-slate-700"}
                    disabled={busy}
                    aria-pressed={value === on}
                    aria-label={t(on ? "live.switchOn" : "live.switchOff", { name: v.Name })}
                  >
                    {t(on ? "live.on" : "live.off")}
                  </button>
                ))}
                <FieldError id={errorId} error={failure?.error} />
              </Form>
            ) : !editing ? (
              <Link to={writeHref} preventScrollReset className="inline-flex min-h-11 min-w-11 items-center text-brand hover:underline" aria-label={t("live.writeOpen", { name: v.Name })}>
                {t("live.writeEllipsis")}
              </Link>
            ) : (
              <Form method="post" className="flex flex-wrap items-center gap-1" preventScrollReset>
                <input type="hidden" name="intent" value="write" />
                <input type="hidden" name="variable" value={v.Id} />
                <input
                  ref={input}
                  name="value"
                  key={failure?.nonce}
                  defaultValue={failure?.value ?? ""}
                  inputMode="decimal"
                  aria-label={t("live.writeLabel", { name: v.Name })}
                  aria-invalid={failure ? true : undefined}
                  aria-describedby={failure ? errorId : range ? hintId : undefined}
                  autoFocus={!!failure}
                  className={`${inputClass} w-24 py-1`}
                />
                <button type="submit" className={`${buttonClass} py-1 phone:min-h-11`} disabled={busy}>
                  {t("live.write")}
                </button>
                <Link to={cancelHref} preventScrollReset className="inline-flex min-h-11 items-center px-2 text-brand hover:underline">
                  {t("common.cancel")}
                </Link>
                {range && !failure && (
                  <span id={hintId} className="w-full text-xs text-slate-600 dark:text-slate-300">
                    {t("live.rangeHint", { range })}
                  </span>
                )}
                <FieldError id={errorId} error={failure?.error} />
              </Form>
            ))}
        </Cell>
      )}
    </Row>
  );
});
