import { useContext } from "react";
import { Link } from "react-router";
import type { RangePreset } from "~/schemas/dashboardConstants";
import { useT } from "~/ui/useT";
import { annotationsHref } from "./annotations";
import { ChartNotesContext } from "./notesContext";

// A chart panel's ways on (issue 28 §6), plain links so they work without JavaScript: to Analytics
// with the panel's variables and the dashboard's time range (a relative range stays relative), and
// to the annotations screen to add a note in that range.

/** Analytics with these variables and this range: a preset as a preset, anything else as fixed times. */
export function analyticsHref(variables: readonly string[], range: { from: number; to: number; preset?: RangePreset | null }): string {
  const q = new URLSearchParams();
  for (const v of variables) q.append("v", v);
  if (range.preset) (q.set("span", "preset"), q.set("range", range.preset));
  else (q.set("span", "absolute"), q.set("from", String(Math.round(range.from))), q.set("to", String(Math.round(range.to))));
  return `/analytics?${q}`;
}

const linkClass = "rounded px-1 text-xs font-medium text-brand hover:underline focus-visible:outline-2 focus-visible:outline-brand";

export function ChartPanelLinks({ title, variables, range, analytics }: { title: string; variables: readonly string[]; range: { from: number; to: number; preset?: RangePreset | null }; analytics: boolean }) {
  const t = useT();
  const notes = useContext(ChartNotesContext);
  if (!analytics && !notes?.mayAdd) return null;
  return (
    <span className="flex shrink-0 items-baseline gap-1" data-testid="chart-panel-links">
      {analytics && (
        <Link to={analyticsHref(variables, range)} className={linkClass} aria-label={t("dashboards.notes.analyseLabel", { title })} data-testid="chart-analyse">
          {t("dashboards.notes.analyse")}
        </Link>
      )}
      {notes?.mayAdd && (
        <Link to={annotationsHref({ from: range.from, to: range.to, variables, back: notes.back, at: { start: range.to, end: range.to } })} className={linkClass} aria-label={t("dashboards.notes.panelAddLabel", { title })} data-testid="chart-add-note">
          {t("dashboards.notes.panelAdd")}
        </Link>
      )}
    </span>
  );
}
