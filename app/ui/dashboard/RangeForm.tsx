import { Form } from "react-router";
import { REFRESH, type RefreshInterval } from "~/schemas/dashboardConstants";
import { DateTimeField } from "~/ui/DateTimeField";
import { buttonClass, inputClass } from "~/ui/formClasses";
import { useT } from "~/ui/useT";
import { rangeToken } from "./QuickRanges";
import { toLocalInput, type ResolvedRange } from "./timeRange";

export type RangeFormProps = {
  range: ResolvedRange;
  refresh: RefreshInterval;
  /** The dashboard's id from the URL, kept by the GET. */
  id: string | null;
  timeZone: string;
  /** What was typed into the server's copy of the form before this one replaced it. */
  typed?: { from?: string; to?: string; refresh?: string };
};

/**
 * The dashboard's absolute range and refresh interval: a plain GET form (the URL carries all).
 * Its own chunk: RangeFormSlot loads it when the folded form is about to be opened, so an
 * ordinary dashboard's first load does not carry the date fields.
 */
export function RangeForm({ range, refresh, id, timeZone, typed }: RangeFormProps) {
  const t = useT();
  return (
    <Form method="get" className="mt-2 flex flex-wrap items-end gap-2">
      {id && <input type="hidden" name="id" value={id} />}
      {range.preset && <input type="hidden" name="range" value={range.preset} />}
      <input type="hidden" name="back" value={rangeToken(range)} />
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("dashboards.range.from")}
        <DateTimeField name="from" label={t("dashboards.range.from")} value={typed?.from ?? (range.preset ? "" : toLocalInput(range.from, timeZone))} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("dashboards.range.to")}
        <DateTimeField name="to" label={t("dashboards.range.to")} value={typed?.to ?? (range.preset ? "" : toLocalInput(range.to, timeZone))} showHint={false} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("dashboards.refresh.label")}
        <select name="refresh" defaultValue={typed?.refresh ?? refresh} className={inputClass}>
          {REFRESH.map((r) => (
            <option key={r} value={r}>
              {t(`dashboards.refresh.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass}>
        {t("dashboards.range.apply")}
      </button>
    </Form>
  );
}
