import type { Widget } from "~/schemas/dashboards";

/**
 * The title a widget shows when none was given: its variables' names ("Oil temperature",
 * "Oil temperature, Pressure", "Oil temperature, Pressure +2"), a text widget's first line; ""
 * when there is nothing to go by, and for an alarm list (the caller then names the widget type,
 * "Alarm list"). Computed when shown, not stored, so a renamed variable renames the widget.
 * Free of zod: the dashboard's own bundle uses it.
 */
export function defaultWidgetTitle(
  widget: Pick<Widget, "Title" | "Type" | "Variables"> & { Options?: Pick<Widget["Options"], "Text"> },
  variableNames: ReadonlyMap<string, string> | ((id: string) => string | undefined),
): string {
  if (widget.Title.trim()) return widget.Title;
  if (widget.Type === "alarms") return "";
  if (widget.Type === "text") {
    const first =
      (widget.Options?.Text ?? "")
        .split(/\r?\n/)
        .map((l) => l.replace(/^[#>*\s-]+/, "").replace(/[*_`]/g, "").trim())
        .find(Boolean) ?? "";
    return first.length > 60 ? `${first.slice(0, 59)}…` : first;
  }
  const nameOf = typeof variableNames === "function" ? variableNames : (id: string) => variableNames.get(id);
  const names = widget.Variables.map(nameOf).filter((n): n is string => !!n);
  if (names.length <= 2) return names.join(", ");
  return `${names.slice(0, 2).join(", ")} +${names.length - 2}`;
}
