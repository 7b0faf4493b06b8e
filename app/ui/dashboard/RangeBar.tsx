import { useT } from "~/ui/useT";
import { useSearchParams } from "react-router";
import type { RangePreset, RefreshInterval } from "~/schemas/dashboardConstants";
import { useFormatters } from "~/ui/format";
import { parseRangeToken, QuickRanges, rangeToken, zoomedOut } from "./QuickRanges";
import { RangeFormSlot } from "./RangeFormSlot";
import type { ResolvedRange } from "./timeRange";

/**
 * Quick ranges, zoom out and back as links; an absolute range and the refresh interval as a GET
 * form folded in a <details> (open on wide screens' demand, closed by default so a phone shows
 * the data first): all in the URL, all without JavaScript. The form's code loads when the fold is
 * about to be opened (RangeFormSlot).
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
      <RangeFormSlot summary={t("dashboards.range.custom")} range={range} refresh={refresh} id={params.get("id")} timeZone={timeZone} />
    </div>
  );
}
