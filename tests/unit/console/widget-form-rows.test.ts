import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { normaliseZero, thresholdFormRows, widgetFormSchema, widgetFromForm } from "~/schemas/dashboards";
import { defaultWidgetTitle, widgetListLabel } from "~/ui/dashboard/widgetTitle";

// The widget form posts thresholds as rows (thresholds[i].value / .color), like a browser does.
const post = (entries: [string, string][]) => {
  const form = new FormData();
  for (const [k, v] of [["type", "gauge"], ["x", "0"], ["y", "0"], ["w", "3"], ["h", "2"], ["variables", "a"], ...entries] as [string, string][]) form.append(k, v);
  return parseWithZod(form, { schema: widgetFormSchema });
};

describe("threshold rows", () => {
  it("keeps filled rows sorted by value and ignores blank ones", () => {
    const s = post([
      ["thresholds[0].value", "80"],
      ["thresholds[0].color", "red"],
      ["thresholds[1].value", ""],
      ["thresholds[1].color", ""],
      ["thresholds[2].value", "-5.5"],
      ["thresholds[2].color", "blue"],
      ["thresholds[3].value", "0"],
      ["thresholds[3].color", "green"],
    ]);
    expect(s.status).toBe("success");
    const v = s.status === "success" ? s.value : null;
    expect(v?.thresholds).toEqual([
      { Value: -5.5, Color: "blue" },
      { Value: 0, Color: "green" },
      { Value: 80, Color: "red" },
    ]);
    expect(widgetFromForm("w1", v!).Options.Thresholds).toHaveLength(3);
  });

  it("no rows, or only blank ones, store no thresholds", () => {
    const s = post([
      ["thresholds[0].value", ""],
      ["thresholds[0].color", ""],
    ]);
    expect(s.status === "success" && widgetFromForm("w", s.value).Options).not.toHaveProperty("Thresholds");
    const none = post([]);
    expect(none.status === "success" && none.value.thresholds).toEqual([]);
  });

  it("a half-filled row is an error next to the missing half", () => {
    const s = post([
      ["thresholds[0].value", "10"],
      ["thresholds[0].color", ""],
      ["thresholds[1].value", ""],
      ["thresholds[1].color", "red"],
      ["thresholds[2].value", "abc"],
      ["thresholds[2].color", "red"],
      ["thresholds[3].value", "5"],
      ["thresholds[3].color", "purple"],
    ]);
    expect(s.status).toBe("error");
    const errors = s.status === "error" ? s.error : {};
    expect(errors?.["thresholds[0].color"]).toEqual(["dashboards.validation.thresholdColour"]);
    expect(errors?.["thresholds[1].value"]).toEqual(["dashboards.validation.thresholdValue"]);
    expect(errors?.["thresholds[2].value"]).toEqual(["dashboards.validation.thresholdValue"]);
    expect(errors?.["thresholds[3].color"]).toEqual(["dashboards.validation.thresholdColour"]);
  });

  it("refuses more than 8 filled rows", () => {
    const rows = Array.from({ length: 9 }, (_, i): [string, string][] => [
      [`thresholds[${i}].value`, String(i)],
      [`thresholds[${i}].color`, "red"],
    ]).flat();
    const s = post(rows);
    expect(s.status).toBe("error");
    expect(s.status === "error" && s.error?.thresholds).toEqual(["dashboards.validation.tooManyThresholds"]);
  });

  it("the form offers the stored rows plus a blank one, never more than 8, and no -0", () => {
    expect(thresholdFormRows([{ Value: -0, Color: "green" }, { Value: 9, Color: "red" }])).toEqual([
      { value: "0", color: "green" },
      { value: "9", color: "red" },
      { value: "", color: "" },
    ]);
    expect(thresholdFormRows(undefined)).toEqual([{ value: "", color: "" }]);
    expect(thresholdFormRows(Array.from({ length: 8 }, (_, i) => ({ Value: i, Color: "red" as const })))).toHaveLength(8);
    expect(Object.is(normaliseZero(-0), 0)).toBe(true);
  });
});

describe("default widget titles", () => {
  const names = new Map([
    ["oil", "Oil temperature"],
    ["p", "Pressure"],
    ["v", "Vibration"],
    ["c", "Coolant"],
  ]);
  const w = (Variables: string[], Type: "chart" | "value" | "alarms" | "text" = "chart", Title = "") => ({ Title, Type, Variables });
  it("names a widget after its variables", () => {
    expect(defaultWidgetTitle(w(["oil"], "value"), names)).toBe("Oil temperature");
    expect(defaultWidgetTitle(w(["oil", "p"]), names)).toBe("Oil temperature, Pressure");
    expect(defaultWidgetTitle(w(["oil", "p", "v", "c"]), names)).toBe("Oil temperature, Pressure +2");
    expect(defaultWidgetTitle(w(["oil", "p", "v"]), (id) => names.get(id))).toBe("Oil temperature, Pressure +1");
    // An alarm list keeps its type's name: variable names would read as a chart.
    expect(defaultWidgetTitle(w(["oil"], "alarms"), names)).toBe("");
  });
  it("keeps a given title, skips unknown variables, and has nothing to say without variables", () => {
    expect(defaultWidgetTitle(w(["oil"], "chart", "Temps"), names)).toBe("Temps");
    expect(defaultWidgetTitle(w(["gone", "p"]), names)).toBe("Pressure");
    expect(defaultWidgetTitle(w([], "alarms"), names)).toBe("");
  });
  it("gives an untitled text widget no title: it would repeat the widget's own first line", () => {
    const note = { ...w([], "text"), Options: { Text: "\n## **Shift notes**\nmore" } };
    expect(defaultWidgetTitle(note, names)).toBe("");
    expect(defaultWidgetTitle({ ...note, Title: "Notes" }, names)).toBe("Notes");
  });
  it("lists an untitled text widget in the manager by its first line, other widgets by their title", () => {
    expect(widgetListLabel({ ...w([], "text"), Options: { Text: "\n## **Shift notes**\nmore" } }, names)).toBe("Shift notes");
    expect(widgetListLabel({ ...w([], "text"), Options: { Text: "x".repeat(80) } }, names)).toHaveLength(60);
    expect(widgetListLabel({ ...w([], "text", "Notes"), Options: { Text: "Shift notes" } }, names)).toBe("Notes");
    expect(widgetListLabel(w(["oil", "p"]), names)).toBe("Oil temperature, Pressure");
    expect(widgetListLabel(w([], "alarms"), names)).toBe("");
  });
});
