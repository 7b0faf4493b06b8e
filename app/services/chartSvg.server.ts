import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { ChartSource, SvgLook } from "~/ui/dashboard/serverCharts";
import { SvgChart } from "~/ui/dashboard/SvgChart";
import type { SeriesData } from "~/ui/dashboard/types";
import { noteLabel } from "~/ui/dashboard/annotations";

// Markup per series (the logger client's cached answer keeps its identity while it is valid)
// and look: ten wall displays showing one dashboard draw each chart once per bucket.
const drawn = new WeakMap<SeriesData, Map<string, string>>();

export function chartMarkup(source: ChartSource, look: SvgLook): string {
  const key = `${source.from}|${source.to}|${look.height}|${look.locale}|${look.timeZone}|${look.label}|${JSON.stringify(source.thresholds ?? null)}|${JSON.stringify(source.events ?? null)}|${JSON.stringify(source.limits ?? null)}|${look.eventWords.alarmRaised}|${look.annotationWord}|${annotationsKey(source.annotations)}`;
  let byLook = drawn.get(source.series);
  if (!byLook) drawn.set(source.series, (byLook = new Map()));
  let svg = byLook.get(key);
  if (svg === undefined) {
    svg = renderToStaticMarkup(createElement(SvgChart, { ...source, ...look, annotationLabel: (a) => noteLabel(look.annotationWord, a) }));
    if (byLook.size > 32) byLook.clear();
    byLook.set(key, svg);
  }
  return svg;
}

/** What of the notes the SVG draws (not who may edit them). */
function annotationsKey(notes: ChartSource["annotations"]): string {
  return notes?.length ? JSON.stringify(notes.map((a) => [a.id, a.start, a.end, a.text, a.tags, a.author])) : "";
}
