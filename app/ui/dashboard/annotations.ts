// Operator annotations as the charts draw them (issue 28 §6): a note at a time (end = start) or
// over a span. Client-safe: the dashboard's, Analytics' and the SVG's charts share it.

export interface ChartAnnotation {
  id: number;
  start: number;
  end: number;
  text: string;
  tags: string[];
  author: string;
  /** Variables it is about; empty: every chart covering its time. */
  variables: string[];
  /** The viewer may change it (its author) / remove it (its author or an administrator). */
  canEdit?: boolean;
  canRemove?: boolean;
}

/** The notes a chart of these variables shows: those about none in particular or about one of them. */
export function annotationsFor(all: readonly ChartAnnotation[], variableIds: readonly string[]): ChartAnnotation[] {
  const ids = new Set(variableIds);
  return all.filter((a) => a.variables.length === 0 || a.variables.some((v) => ids.has(v)));
}

/** Colour of annotations on charts: a teal no series uses (SERIES), readable on white and on slate-800. */
export const ANNOTATION_HEX = "#0d9488";

/** The address of the annotations screen for a range and some variables, returning to `back`. */
export function annotationsHref(o: { from: number; to: number; variables?: readonly string[]; back?: string; at?: { start: number; end: number }; edit?: number }): string {
  const q = new URLSearchParams({ from: String(Math.round(o.from)), to: String(Math.round(o.to)) });
  for (const v of o.variables ?? []) q.append("v", v);
  if (o.at) (q.set("start", String(Math.round(o.at.start))), q.set("end", String(Math.round(o.at.end))));
  if (o.edit !== undefined) q.set("edit", String(o.edit));
  if (o.back) q.set("back", o.back);
  return `/annotations?${q}`;
}

/** A note as a title or an accessible name says it: "Note · olga: Changed injector [maintenance]". */
export function noteLabel(word: string, a: Pick<ChartAnnotation, "author" | "text" | "tags">): string {
  return `${word} · ${a.author}: ${a.text}${a.tags.length ? ` [${a.tags.join(", ")}]` : ""}`;
}
