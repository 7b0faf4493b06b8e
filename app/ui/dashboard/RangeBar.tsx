import { useT } from "~/ui/useT";
import { Form, useSearchParams } from "react-router";
import { REFRESH, type RangePreset, type RefreshInterval } from "~/schemas/dashboardConstants";
import { buttonClass, inputClass } from "~/ui/formClasses";
import { DateTimeField } from "~/ui/DateTimeField";
import { useFormatters } from "~/ui/format";
import { parseRangeToken, QuickRanges, rangeToken, zoomedOut } from "./QuickRanges";
import { toLocalInput, type ResolvedRange } from "./timeRange";

/**
 * Quick ranges, zoom out and back as links; an absolute range and the refresh interval as a GET
 * form folded in a <details> (open on wide screens' demand, closed by default so a phone shows
 * the data first): all in the URL, all without JavaScript.
 */
export function RangeBar({ range, refresh }: { range: ResolvedRange; refresh: RefreshInterval }) {
  const t = useT();
  const [params] = useSearchParams();
  const { timeZone } = useFormatters();
  /** A URL with another range; `back` remembers the one left. */
  const withRange = (set: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    next.delete("from");
    next.delete("to");
    next.delete("range");
    next.delete("poll");
    next.set("back", rangeToken(range));
    set(next);
    return `?${next}`;
  };
  const presetHref = (preset: RangePreset) => withRange((p) => p.set("range", preset));
  const out = zoomedOut(range);
  const zoomOutHref = withRange((p) => (p.set("from", String(out.from)), p.set("to", String(out.to))));
  const back = parseRangeToken(params.get("back"));
  const backHref = back
    ? (() => {
        const next = new URLSearchParams(params);
        for (const k of ["from", "to", "range", "back", "poll"]) next.delete(k);
        if ("preset" in back) next.set("range", back.preset);
        else (next.set("from", String(back.from)), next.set("to", String(back.to)));
        return `?${next}`;
      })()
    : null;
  return (
    <div className="flex flex-col gap-2 rounded-lg bg-white px-4 py-3 shadow-sm dark:bg-slate-800" data-testid="range-bar">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <QuickRanges current={range.preset} presetHref={presetHref} zoomOutHref={zoomOutHref} backHref={backHref} />
        <p className="text-xs text-slate-600 dark:text-slate-300">{t("dashboards.range.zone", { zone: timeZone })}</p>
      </div>
      <details className="group" data-testid="range-details">
        <summary className="w-fit cursor-pointer rounded text-sm font-medium text-brand hover:underline focus-visible:outline-2 focus-visible:outline-brand">{t("dashboards.range.custom")}</summary>
        <Form method="get" className="mt-2 flex flex-wrap items-end gap-2">
          {params.get("id") && <input type="hidden" name="id" value={params.get("id")!} />}
          {range.preset && <input type="hidden" name="range" value={range.preset} />}
          <input type="hidden" name="back" value={rangeToken(range)} />
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("dashboards.range.from")}
            <DateTimeField name="from" label={t("dashboards.range.from")} value={range.preset ? "" : toLocalInput(range.from, timeZone)} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("dashboards.range.to")}
            <DateTimeField name="to" label={t("dashboards.range.to")} value={range.preset ? "" : toLocalInput(range.to, timeZone)} showHint={false} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("dashboards.refresh.label")}
            <select name="refresh" defaultValue={refresh} className={inputClass}>
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
      </details>
    </div>
  );
}
