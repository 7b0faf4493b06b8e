import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { contentSchema, EMPTY_CONTENT, parseExportFile, toExportFile, widgetFormSchema, widgetFromForm } from "~/schemas/dashboards";
import { alarmRows, loadDashboardData } from "~/services/dashboards.server";
import type { LoggerClient } from "~/services/logger/client.server";
import { LoggerError } from "~/services/logger/errors";
import type { Alarm } from "~/services/logger/schemas";
import { unitScales } from "~/ui/dashboard/chartGeometry";
import { thresholdColour } from "~/ui/dashboard/colours";
import { SafeText } from "~/ui/dashboard/SafeText";
import { SvgChart } from "~/ui/dashboard/SvgChart";
import { parseInstant, resolveRange, resolveRefresh, toLocalInput } from "~/ui/dashboard/timeRange";
import { appendSample, toColumns } from "~/ui/dashboard/UPlotChart";

const chart = { ID: "c1", Type: "chart", Title: "", X: 0, Y: 0, W: 6, H: 3, Variables: ["a", "b"], Options: {} };

describe("dashboard content", () => {
  it("fills defaults and refuses widgets past the last column or with duplicate IDs", () => {
    expect(contentSchema.parse({})).toEqual(EMPTY_CONTENT);
    expect(contentSchema.safeParse({ Widgets: [{ ...chart, X: 8 }] }).success).toBe(false);
    expect(contentSchema.safeParse({ Widgets: [chart, chart] }).success).toBe(false);
    expect(contentSchema.safeParse({ Widgets: [{ ...chart, Options: { Thresholds: [{ Value: 1, Color: "#fff" }] } }] }).success).toBe(false);
  });

  it("round-trips through the export file and explains a bad one", () => {
    const content = contentSchema.parse({ Widgets: [chart] });
    const text = JSON.stringify(toExportFile("Line 1", content));
    expect(parseExportFile(text)).toEqual({ ok: true, file: { Format: "loggia-dashboard", FormatVersion: 1, Name: "Line 1", Content: content } });
    expect(parseExportFile("{nope")).toMatchObject({ ok: false, problem: expect.stringMatching(/^not JSON/) });
    expect(parseExportFile(JSON.stringify({ Format: "loggia-dashboard", FormatVersion: 1, Name: "x", Content: { Widgets: [{ ...chart, Type: "pie" }] } }))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/Content\.Widgets\.0\.Type/),
    });
    expect(parseExportFile(JSON.stringify({ Name: "x", Content: {} }))).toMatchObject({ ok: false, problem: expect.stringMatching(/Format/) });
  });
});

describe("widget form", () => {
  const base = { type: "gauge", x: 0, y: 0, w: 3, h: 2, variables: ["a", "b"] };
  it("parses threshold rows and states written one per line", () => {
    const v = widgetFormSchema.parse({ ...base, thresholds: [{ value: 80, color: "red" }, { value: 0, color: "green" }, {}, { value: 50.5, color: "amber" }], min: 0, max: 100 });
    expect(v.thresholds).toEqual([
      { Value: 0, Color: "green" },
      { Value: 50.5, Color: "amber" },
      { Value: 80, Color: "red" },
    ]);
    expect(widgetFormSchema.parse({ ...base, type: "lamp", states: "1 Pump running green\n0 Off grey" }).states).toEqual([
      { Value: 1, Label: "Pump running", Color: "green" },
      { Value: 0, Label: "Off", Color: "grey" },
    ]);
    const bad = widgetFormSchema.safeParse({ ...base, thresholds: [{ value: 80, color: "purple" }] });
    expect(bad.error?.issues[0]?.message).toBe("dashboards.validation.thresholdColour");
    expect(widgetFormSchema.safeParse({ ...base, min: 5, max: 5 }).error?.issues[0]?.path).toEqual(["max"]);
    expect(widgetFormSchema.safeParse({ ...base, variables: [] }).error?.issues[0]?.message).toBe("dashboards.validation.variablesRequired");
  });

  it("stores only what the widget type uses", () => {
    const v = widgetFormSchema.parse({ ...base, min: 0, max: 10, text: "ignored", sparkline: true, thresholds: [{ value: 5, color: "red" }] });
    expect(widgetFromForm("w1", v)).toEqual({ ID: "w1", Type: "gauge", Title: "", X: 0, Y: 0, W: 3, H: 2, Variables: ["a"], Options: { Min: 0, Max: 10, Thresholds: [{ Value: 5, Color: "red" }] } });
    const text = widgetFromForm("t", widgetFormSchema.parse({ type: "text", x: 0, y: 0, w: 12, h: 1, text: "**hi**" }));
    expect(text).toMatchObject({ Variables: [], Options: { Text: "**hi**" } });
  });
});

describe("alarm list widget", () => {
  const base = { type: "alarms", x: 0, y: 0, w: 6, h: 4 };
  it("needs no variables, keeps its options and stores them in the content", () => {
    const v = widgetFormSchema.parse({ ...base, onlyUnacknowledged: true, minSeverity: "high", maxRows: 5, precision: 3, thresholds: [{ value: 1, color: "red" }] });
    const w = widgetFromForm("a1", v);
    expect(w).toEqual({ ID: "a1", Type: "alarms", Title: "", X: 0, Y: 0, W: 6, H: 4, Variables: [], Options: { OnlyUnacknowledged: true, MinSeverity: "high", MaxRows: 5 } });
    expect(contentSchema.parse({ Widgets: [w] }).Widgets[0]).toEqual(w);
    // Several variables filter the list; an empty severity and row count are the defaults.
    const filtered = widgetFromForm("a2", widgetFormSchema.parse({ ...base, variables: ["a", "b"], minSeverity: "" }));
    expect(filtered).toMatchObject({ Variables: ["a", "b"], Options: { OnlyUnacknowledged: false } });
    expect(filtered.Options).not.toHaveProperty("MinSeverity");
    expect(filtered.Options).not.toHaveProperty("MaxRows");
  });

  it("refuses bad options with translated messages", () => {
    expect(widgetFormSchema.safeParse({ ...base, maxRows: 0 }).error?.issues[0]).toMatchObject({ path: ["maxRows"], message: "dashboards.validation.maxRows" });
    expect(widgetFormSchema.safeParse({ ...base, maxRows: 101 }).error?.issues[0]?.message).toBe("dashboards.validation.maxRows");
    expect(widgetFormSchema.safeParse({ ...base, maxRows: 2.5 }).error?.issues[0]?.message).toBe("dashboards.validation.maxRows");
    expect(widgetFormSchema.safeParse({ ...base, minSeverity: "urgent" }).success).toBe(false);
    const stored = { ID: "a", Type: "alarms", X: 0, Y: 0, W: 6, H: 4 };
    expect(contentSchema.safeParse({ Widgets: [{ ...stored, Options: { MinSeverity: "urgent" } }] }).success).toBe(false);
    expect(contentSchema.safeParse({ Widgets: [{ ...stored, Options: { MaxRows: 500 } }] }).success).toBe(false);
    // Other types still need a variable.
    expect(widgetFormSchema.safeParse({ ...base, type: "table" }).error?.issues[0]?.message).toBe("dashboards.validation.variablesRequired");
  });

  it("lists what is not normal, filtered, most severe and newest first, cut to MaxRows", () => {
    const alarm = (ID: number, Severity: string, State: string, Since: string, VariableId = "v1") =>
      ({ ID, Name: `R${ID}`, Severity, State, Since, VariableId, VariableName: VariableId, Value: 1, Unit: "°C", Active: true }) as unknown as Alarm;
    const alarms = [
      alarm(1, "low", "ActiveUnacknowledged", "2026-01-01T10:00:00Z"),
      alarm(2, "critical", "ActiveAcknowledged", "2026-01-01T09:00:00Z"),
      alarm(3, "critical", "ReturnedUnacknowledged", "2026-01-01T11:00:00Z", "v2"),
      alarm(4, "high", "Shelved", "2026-01-01T12:00:00Z"),
      alarm(5, "critical", "Normal", "2026-01-01T13:00:00Z"),
      alarm(6, "high", "OutOfService", "2026-01-01T13:00:00Z"),
    ];
    const widget = (Options: object, Variables: string[] = []) => contentSchema.parse({ Widgets: [{ ID: "a", Type: "alarms", X: 0, Y: 0, W: 6, H: 4, Variables, Options }] }).Widgets[0]!;
    const ids = (o: object, vars?: string[]) => alarmRows(alarms, widget(o, vars)).rows.map((r) => r.ID);
    expect(ids({})).toEqual([3, 2, 4, 1]);
    expect(ids({ OnlyUnacknowledged: true })).toEqual([3, 1]);
    expect(ids({ MinSeverity: "high" })).toEqual([3, 2, 4]);
    expect(ids({}, ["v2"])).toEqual([3]);
    expect(alarmRows(alarms, widget({ MaxRows: 2 }))).toMatchObject({ total: 4, rows: [{ ID: 3, Name: "R3", State: "ReturnedUnacknowledged", Unit: "°C", VariableName: "v2" }, { ID: 2 }] });
  });
});

describe("alarm list data", () => {
  const content = contentSchema.parse({
    Widgets: [
      { ID: "a", Type: "alarms", X: 0, Y: 0, W: 6, H: 4 },
      { ID: "b", Type: "alarms", X: 6, Y: 0, W: 6, H: 4, Options: { OnlyUnacknowledged: true } },
    ],
  });
  const range = { from: 0, to: 1 };
  function fakeLogger(answer: () => Promise<unknown>) {
    const calls: string[] = [];
    const logger = { readRpc: (method: string) => (calls.push(method), answer()), readRest: () => Promise.reject(new Error("not asked")) } as unknown as LoggerClient;
    return { logger, calls };
  }
  const alarm = { ID: 1, Name: "Hot", Severity: "high", State: "ActiveAcknowledged", Active: true, Value: 90, Since: "2026-01-01T00:00:00Z", ActivatedAt: null, ShelvedUntil: null, VariableId: "v", VariableName: "Oil", Unit: "°C" };

  it("one read for every alarm list; none at all for a viewer who may not see alarms", async () => {
    const ok = fakeLogger(async () => ({ Alarms: [alarm], Unacknowledged: 0, Active: 1, Shelved: 0 }));
    const data = await loadDashboardData(ok.logger, content, range, true);
    expect(ok.calls).toEqual(["AlarmAPI.GetAlarms"]);
    expect(data.widgets.a).toMatchObject({ state: "ok", alarms: { total: 1, rows: [{ Name: "Hot", State: "ActiveAcknowledged", Unit: "°C" }] } });
    expect(data.widgets.b).toEqual({ state: "ok", alarms: { total: 0, rows: [] } });

    const denied = fakeLogger(async () => ({ Alarms: [alarm], Unacknowledged: 0, Active: 1, Shelved: 0 }));
    const hidden = await loadDashboardData(denied.logger, content, range, false);
    expect(denied.calls).toEqual([]);
    expect(hidden.widgets).toEqual({ a: { state: "forbidden" }, b: { state: "forbidden" } });
  });

  it("a failing read fails only the alarm lists, in the logger's words", async () => {
    const failing = fakeLogger(() => Promise.reject(new LoggerError(404, "Method not found: AlarmAPI.GetAlarms", -2)));
    const data = await loadDashboardData(failing.logger, contentSchema.parse({ Widgets: [...content.Widgets, { ID: "t", Type: "text", X: 0, Y: 4, W: 3, H: 1, Options: { Text: "hi" } }] }), range, true);
    expect(data.widgets.a).toEqual({ state: "error", error: "Method not found: AlarmAPI.GetAlarms" });
    expect(data.widgets.t).toEqual({ state: "ok" });
  });
});

describe("time range in the URL", () => {
  const now = Date.UTC(2026, 0, 15, 12, 0);
  it("reads presets, absolute epoch ms and wall times in the user's zone", () => {
    // Relative ranges end on their 1,000-bucket grid (3.6 s for 1 h), at most one bucket before now.
    const at = now + 1_234;
    const r = resolveRange(new URLSearchParams(""), "1h", "UTC", at);
    expect(r).toEqual({ from: now - 3_600_000, to: now, preset: "1h" });
    expect(resolveRange(new URLSearchParams(""), "1h", "UTC", now + 3_599)).toEqual(r);
    expect(resolveRange(new URLSearchParams(""), "1h", "UTC", now + 3_600).to).toBe(now + 3_600);
    expect(resolveRange(new URLSearchParams("range=7d"), "1h", "UTC", now).preset).toBe("7d");
    expect(resolveRange(new URLSearchParams("range=2y"), "5m", "UTC", now).preset).toBe("5m");
    expect(resolveRange(new URLSearchParams("from=1767225600000&to=1767229200000"), "1h", "UTC", now)).toEqual({ from: 1767225600000, to: 1767229200000, preset: null });
    // Reversed or half ranges fall back to the preset.
    expect(resolveRange(new URLSearchParams("from=1767229200000&to=1767225600000"), "1h", "UTC", now).preset).toBe("1h");
    expect(parseInstant("2026-01-15T13:00", "Europe/Rome")).toBe(Date.UTC(2026, 0, 15, 12, 0));
    expect(parseInstant("2026-07-15T13:00", "Europe/Rome")).toBe(Date.UTC(2026, 6, 15, 11, 0));
    expect(toLocalInput(Date.UTC(2026, 6, 15, 11, 0), "Europe/Rome")).toBe("2026-07-15T13:00");
    expect(parseInstant("yesterday", "UTC")).toBeNull();
    expect(resolveRefresh(new URLSearchParams("refresh=5s"), "off")).toBe("5s");
    expect(resolveRefresh(new URLSearchParams("refresh=2s"), "1m")).toBe("1m");
  });
});

describe("widgets", () => {
  it("text widgets never render markup from the text", () => {
    const html = renderToStaticMarkup(createElement(SafeText, { text: '# Hi\n<img src=x onerror=alert(1)> **bold** [x](javascript:alert(1)) [ok](https://example.com)\n- one' }));
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain("<li>one</li>");
  });

  it("threshold colours take the highest threshold at or below the value", () => {
    const t = [{ Value: 80, Color: "red" as const }, { Value: 0, Color: "green" as const }];
    expect(thresholdColour(50, t)).toBe("#16a34a");
    expect(thresholdColour(90, t)).toBe("#dc2626");
    expect(thresholdColour(-1, t)).toBeNull();
    expect(thresholdColour(null, t)).toBeNull();
  });

  it("the server SVG draws lines with gaps, bands and unit axes", () => {
    const series = { start: 0, delta: 1000, size: 4, values: [[1, 2, null, 4], [10, 20, 30, 40]], min: [[0, 1, null, 3], [9, 19, 29, 39]], max: [[2, 3, null, 5], [11, 21, 31, 41]] };
    const vars = [
      { Id: "a", Name: "A", Unit: "°C", DataFormat: "FLOAT" },
      { Id: "b", Name: "B", Unit: "bar", DataFormat: "FLOAT" },
    ];
    const svg = renderToStaticMarkup(createElement(SvgChart, { series, vars, height: 200, from: 0, to: 3000, locale: "en-US", timeZone: "UTC", label: "Chart" }));
    expect(svg).toContain("°C");
    expect(svg).toContain("bar");
    // Series A has a gap: its line is two runs (two M commands).
    const paths = [...svg.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]!);
    expect(paths.some((d) => (d.match(/M/g) ?? []).length === 2 && !d.includes("Z"))).toBe(true);
    expect(paths.filter((d) => d.endsWith("Z"))).toHaveLength(2);
    expect(unitScales(vars, series).map((s) => s.side)).toEqual([0, 1]);
  });

  it("live samples extend a chart and drop what scrolled out of the window", () => {
    const vars = [{ Id: "a", Name: "A", Unit: "", DataFormat: "FLOAT" }];
    const cols = toColumns({ start: 0, delta: 1000, size: 3, values: [[1, 2, 3]], min: [[1, 2, 3]], max: [[1, 2, 3]] }, 1);
    appendSample(cols, { t: 2500, values: { a: 9 } }, vars, 1000, true, 3);
    expect(cols[0]).toEqual([0, 1, 2]);
    expect(cols[3]![2]).toBe(9);
    appendSample(cols, { t: 5000, values: { a: 7 } }, vars, 1000, true, 3);
    expect(cols[0]).toEqual([2, 5]);
    expect(cols[1]).toEqual([3, 7]);
  });
});
