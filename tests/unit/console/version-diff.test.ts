import { describe, expect, it } from "vitest";
import { contentSchema } from "~/schemas/dashboards";
import { isEmptyDiff, versionDiff } from "~/ui/dashboardManager/versionDiff";

// Issue 28 §6: the Dashboard Manager says what changed between two versions of a dashboard.

const w = (id: string, extra: object = {}) => ({ ID: id, Type: "chart", Title: "", X: 0, Y: 0, W: 6, H: 3, Variables: ["v1"], Options: {}, ...extra });
const version = (name: string, widgets: object[], more: object = {}) => ({ Name: name, Content: contentSchema.parse({ Columns: 12, RowHeight: 80, Range: "1h", Refresh: "30s", Widgets: widgets, ...more }) });
const names = (id: string) => ({ v1: "Oil temperature", v2: "Oil pressure" })[id];

describe("versionDiff", () => {
  it("names the settings, widgets added and removed, and the parts of widgets changed", () => {
    const before = version("Line 1", [w("a", { Title: "Temperatures" }), w("b", { Type: "value", X: 6 }), w("c", { Type: "text", X: 0, Y: 3, W: 12, H: 1, Variables: [], Options: { Text: "**Shift notes**\nsecond" } })]);
    const after = version("Line one", [w("a", { Title: "Temps", Y: 3, Options: { Thresholds: [{ Value: 90, Color: "red" }] } }), w("b", { Type: "value", X: 6, Variables: ["v2"], H: 4 }), w("d", { Type: "gauge", X: 6, Y: 4, W: 3, H: 3, Variables: ["v2"] })], { Range: "6h" });
    const d = versionDiff(before, after, names);
    expect(d.settings).toEqual([
      { key: "Name", from: "Line 1", to: "Line one" },
      { key: "Range", from: "1h", to: "6h" },
    ]);
    expect(d.added).toEqual([{ id: "d", label: "Oil pressure", type: "gauge" }]);
    expect(d.removed).toEqual([{ id: "c", label: "Shift notes", type: "text" }]);
    expect(d.changed).toEqual([
      { id: "a", label: "Temps", type: "chart", parts: ["Title", "Place", "Options"] },
      { id: "b", label: "Oil pressure", type: "value", parts: ["Size", "Variables"] },
    ]);
    expect(isEmptyDiff(d)).toBe(false);
  });

  it("finds no change in the same dashboard, whatever the order of option keys", () => {
    const a = version("X", [w("a", { Options: { Min: 0, Max: 5 } })]);
    const b = version("X", [w("a", { Options: { Max: 5, Min: 0 } })]);
    expect(isEmptyDiff(versionDiff(a, b, names))).toBe(true);
  });
});
