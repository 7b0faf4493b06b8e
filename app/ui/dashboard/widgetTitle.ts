import type { Widget } from "~/schemas/dashboards";

type Titled = Pick<Widget, "Title" | "Type" | "Variables"> & { Options?: Pick<Widget["Options"], "Text"> };
type Names = ReadonlyMap<string, string> | ((id: string) => string | undefined);

/**
 * The title a widget shows when none was given: its variables' names ("Oil temperature",
 * "Oil temperature, Pressure", "Oil temperature, Pressure +2"); "" when there is nothing to go
 * by, and for an alarm list (the caller then names the widget type, "Alarm list"). A text
 * widget gets none: a heading repeating its own first line would only say it twice.
 * Computed when shown, not stored, so a renamed variable renames the widget.
 * Free of zod: the dashboard's own bundle uses it.
 */
export function defaultWidgetTitle(widget: Titled, variableNames: Names): string {
  if (widget.Title.trim()) return widget.Title;
  if (widget.Type === "alarms" || widget.Type === "text") return "";
  const nameOf = typeof variableNames === "function" ? variableNames : (id: string) => variableNames.get(id);
  const names = widget.Variables.map(nameOf).filter((n): n is string => !!n);
  if (names.length <= 2) return names.join(", ");
  return `${names.slice(0, 2).join(", ")} +${names.length - 2}`;
}

/**
 * How the Dashboard Manager lists a widget (its list, the layout grid, "Edit: …"): the title it
 * shows, else — for an untitled text widget, which shows none — its first line, so several text
 * widgets can be told apart; "" when there is nothing to go by (the caller names the type).
 */
export function widgetListLabel(widget: Titled, variableNames: Names): string {
  return defaultWidgetTitle(widget, variableNames) || (widget.Type === "text" ? firstLine(widget.Options?.Text ?? "") : "");
}

/** A text's first non-empty line without its Markdown marks, at most 60 characters. */
function firstLine(text: string): string {
  const first =
    text
      .split(/\r?\n/)
      .map((l) => l.replace(/^[#>*\s-]+/, "").replace(/[*_`]/g, "").trim())
      .find(Boolean) ?? "";
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
}
