import { Link } from "react-router";
import { useT } from "~/ui/useT";
import { parseRangeToken } from "./QuickRanges";

/**
 * The address that returns to the range the page left (its `back` parameter, which a drag-zoom,
 * a quick range and zoom out all set), or null when there is none.
 */
export function rangeBackHref(params: URLSearchParams): string | null {
  const back = parseRangeToken(params.get("back"));
  if (!back) return null;
  const next = new URLSearchParams(params);
  for (const k of ["from", "to", "range", "back", "poll"]) next.delete(k);
  if ("preset" in back) next.set("range", back.preset);
  else (next.set("from", String(back.from)), next.set("to", String(back.to)));
  return `?${next}`;
}

/** On a chart after a zoom: back to the range before it, where the eye is (a link: keyboard, no JavaScript needed). */
export function ChartBack({ href }: { href: string }) {
  const t = useT();
  return (
    <Link
      to={href}
      preventScrollReset
      aria-label={t("dashboards.chart.zoomBack")}
      title={t("dashboards.chart.zoomBack")}
      className="absolute right-1 top-1 z-10 rounded-md border border-slate-300 bg-white/90 px-2 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand dark:border-slate-600 dark:bg-slate-800/90 dark:text-slate-100 dark:hover:bg-slate-700"
      data-testid="chart-back"
    >
      ← {t("dashboards.range.back")}
    </Link>
  );
}
