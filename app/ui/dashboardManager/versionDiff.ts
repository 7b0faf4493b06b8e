import type { DashboardContent, Widget } from "~/schemas/dashboards";
import { widgetListLabel } from "~/ui/dashboard/widgetTitle";

// What changed between two versions of a dashboard (issue 28 §6), as a reader says it: the
// settings that differ, the widgets added and removed, and for each widget kept which of its
// parts changed. Widgets are matched by their ID (what the layout editor and the forms keep).

export type SettingChange = { key: "Name" | "Columns" | "RowHeight" | "Range" | "Refresh"; from: string; to: string };
export type WidgetPart = "Title" | "Type" | "Place" | "Size" | "Variables" | "Options";
export type VersionDiff = {
  settings: SettingChange[];
  added: { id: string; label: string; type: Widget["Type"] }[];
  removed: { id: string; label: string; type: Widget["Type"] }[];
  changed: { id: string; label: string; type: Widget["Type"]; parts: WidgetPart[] }[];
};

export type Version = { Name: string; Content: DashboardContent };

export function versionDiff(before: Version, after: Version, variableName: (id: string) => string | undefined): VersionDiff {
  const settings: SettingChange[] = [];
  if (before.Name !== after.Name) settings.push({ key: "Name", from: before.Name, to: after.Name });
  for (const key of ["Columns", "RowHeight", "Range", "Refresh"] as const) {
    if (before.Content[key] !== after.Content[key]) settings.push({ key, from: String(before.Content[key]), to: String(after.Content[key]) });
  }
  const label = (w: Widget) => widgetListLabel(w, variableName);
  const was = new Map(before.Content.Widgets.map((w) => [w.ID, w]));
  const now = new Map(after.Content.Widgets.map((w) => [w.ID, w]));
  const added = after.Content.Widgets.filter((w) => !was.has(w.ID)).map((w) => ({ id: w.ID, label: label(w), type: w.Type }));
  const removed = before.Content.Widgets.filter((w) => !now.has(w.ID)).map((w) => ({ id: w.ID, label: label(w), type: w.Type }));
  const changed = after.Content.Widgets.flatMap((w) => {
    const old = was.get(w.ID);
    if (!old) return [];
    const parts: WidgetPart[] = [];
    if (old.Title !== w.Title) parts.push("Title");
    if (old.Type !== w.Type) parts.push("Type");
    if (old.X !== w.X || old.Y !== w.Y) parts.push("Place");
    if (old.W !== w.W || old.H !== w.H) parts.push("Size");
    if (JSON.stringify(old.Variables) !== JSON.stringify(w.Variables)) parts.push("Variables");
    if (JSON.stringify(sorted(old.Options)) !== JSON.stringify(sorted(w.Options))) parts.push("Options");
    return parts.length ? [{ id: w.ID, label: label(w), type: w.Type, parts }] : [];
  });
  return { settings, added, removed, changed };
}

export function isEmptyDiff(d: VersionDiff): boolean {
  return d.settings.length + d.added.length + d.removed.length + d.changed.length === 0;
}

/** Options compared regardless of key order (a form and an import may write them differently). */
function sorted(o: object): unknown {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));
}
