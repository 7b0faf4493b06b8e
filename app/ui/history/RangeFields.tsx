import { useT } from "~/ui/useT";
import { RANGES } from "~/schemas/dashboards";
import { inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { toLocalInput } from "~/ui/dashboard/timeRange";
import { DateTimeField } from "~/ui/DateTimeField";
import { useSearchParams } from "react-router";
import type { HistoryRange } from "./historyRange";
import { FieldsetError } from "./VariablePicker";

export interface MeasurementChoice {
  ID: string;
  Name: string;
}

/**
 * The three ways to give a range (preset, absolute in the user's zone, a measurement) as radios.
 * `quickRanges`: the page offers the presets as quick-range links (Analytics, issue 28 §7), so the
 * preset is named here, not chosen again from a second list.
 */
export function RangeFields({ range, measurements, idPrefix, errors, quickRanges = false }: { range: HistoryRange; measurements: MeasurementChoice[]; idPrefix: string; errors?: readonly string[]; quickRanges?: boolean }) {
  const t = useT();
  const { timeZone } = useFormatters();
  const [params] = useSearchParams();
  // A typed value the server could not read stays in the field (with its error), not the fallback.
  const typedOr = (name: string, fallback: string) => {
    const typed = range.span === "absolute" ? params.get(name) : null;
    return typed && range.problem ? typed : fallback;
  };
  const radio = (span: HistoryRange["span"]) => (
    <input type="radio" name="span" value={span} defaultChecked={range.span === span} id={`${idPrefix}-span-${span}`} />
  );
  return (
    <fieldset className="flex flex-wrap items-end gap-4" aria-invalid={errors?.length ? true : undefined} aria-describedby={errors?.length ? `${idPrefix}-range-error` : undefined} data-testid="range-fields">
      <legend className="mb-1 text-sm font-medium">{t("history.range.label")}</legend>
      {errors?.length ? (
        <div className="basis-full">
          <FieldsetError id={`${idPrefix}-range-error`} errors={errors} />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        {radio("preset")}
        {quickRanges ? (
          <>
            <label htmlFor={`${idPrefix}-span-preset`} className="text-sm">
              {t("history.range.quick", { range: t(`dashboards.range.${range.preset}`) })}
            </label>
            <input type="hidden" name="range" value={range.preset} />
          </>
        ) : (
          <>
            <label htmlFor={`${idPrefix}-span-preset`} className="text-sm">
              {t("history.range.preset")}
            </label>
            <select name="range" defaultValue={range.preset} aria-label={t("history.range.preset")} className={inputClass}>
              {RANGES.map((p) => (
                <option key={p} value={p}>
                  {t(`dashboards.range.${p}`)}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {radio("absolute")}
        <label htmlFor={`${idPrefix}-span-absolute`} className="text-sm">
          {t("history.range.absolute")}
        </label>
        <DateTimeField name="from" label={t("history.range.from")} value={typedOr("from", toLocalInput(range.base.from, timeZone))} />
        <span aria-hidden="true">–</span>
        <DateTimeField name="to" label={t("history.range.to")} value={typedOr("to", toLocalInput(range.base.to, timeZone))} showHint={false} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {radio("measurement")}
        <label htmlFor={`${idPrefix}-span-measurement`} className="text-sm">
          {t("history.range.measurement")}
        </label>
        <select name="m" defaultValue={range.measurement?.ID ?? ""} aria-label={t("history.range.measurement")} className={inputClass}>
          <option value="">—</option>
          {measurements.map((m) => (
            <option key={m.ID} value={m.ID}>
              {m.Name}
            </option>
          ))}
        </select>
      </div>
      <p className="text-xs text-slate-500">{t("history.range.zone", { zone: timeZone })}</p>
    </fieldset>
  );
}
