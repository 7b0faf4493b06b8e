import { z } from "zod";
import { visibleOnly } from "./visibleText";

// A dashboard's stored content (the logger checks the same rules, docs/logger-api.md), the
// import/export file, and the Dashboard Manager's forms. Form messages are i18n keys.

import { ALARM_ROWS_MAX, ALARM_SEVERITIES, COLOURS, MAX_VARIABLES, MAX_WIDGETS, RANGES, REFRESH, WIDGET_TYPES, type WidgetType } from "./dashboardConstants";

export * from "./dashboardConstants";

const finite = z.number().refine(Number.isFinite);
const colour = z.enum(COLOURS);
export const threshold = z.object({ Value: finite, Color: colour });
export const lampState = z.object({ Value: finite, Label: z.string().max(40), Color: colour });

export const widgetSchema = z.object({
  ID: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
  Type: z.enum(WIDGET_TYPES),
  Title: z.string().max(100).default(""),
  X: z.number().int().min(0).max(23),
  Y: z.number().int().min(0).max(999),
  W: z.number().int().min(1).max(24),
  H: z.number().int().min(1).max(24),
  Variables: z.array(z.string().min(1).max(100)).max(MAX_VARIABLES).default([]),
  Options: z
    .object({
      Min: finite.optional(),
      Max: finite.optional(),
      Precision: z.number().int().min(0).max(12).optional(),
      Thresholds: z.array(threshold).max(8).optional(),
      States: z.array(lampState).max(16).optional(),
      Text: z.string().max(4000).optional(),
      Sparkline: z.boolean().optional(),
      // Alarm list: only alarms awaiting acknowledgement, from this severity up, at most this many rows.
      OnlyUnacknowledged: z.boolean().optional(),
      MinSeverity: z.enum(ALARM_SEVERITIES).optional(),
      MaxRows: z.number().int().min(1).max(ALARM_ROWS_MAX).optional(),
    })
    .default({}),
});
export type Widget = z.output<typeof widgetSchema>;

export const contentSchema = z
  .object({
    Columns: z.number().int().min(1).max(24).default(12),
    RowHeight: z.number().int().min(20).max(400).default(80),
    Range: z.enum(RANGES).default("1h"),
    Refresh: z.enum(REFRESH).default("30s"),
    Widgets: z.array(widgetSchema).max(MAX_WIDGETS).default([]),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.Widgets.forEach((w, i) => {
      if (w.X + w.W > c.Columns) ctx.addIssue({ code: "custom", path: ["Widgets", i, "W"], message: `reaches past column ${c.Columns}` });
      if (seen.has(w.ID)) ctx.addIssue({ code: "custom", path: ["Widgets", i, "ID"], message: `widget ID ${w.ID} is used twice` });
      seen.add(w.ID);
    });
  });
export type DashboardContent = z.output<typeof contentSchema>;
export const EMPTY_CONTENT: DashboardContent = { Columns: 12, RowHeight: 80, Range: "1h", Refresh: "30s", Widgets: [] };

/** The export file: self-describing, so an import can tell it from any other JSON. */
export const EXPORT_FORMAT = "loggia-dashboard";
export const exportFile = z.object({
  Format: z.literal(EXPORT_FORMAT),
  FormatVersion: z.literal(1),
  Name: z.string().trim().min(1).max(100),
  Content: contentSchema,
});
export type ExportFile = z.output<typeof exportFile>;

export function toExportFile(name: string, content: DashboardContent): ExportFile {
  return { Format: EXPORT_FORMAT, FormatVersion: 1, Name: name, Content: content };
}

/** An import's JSON text, checked; the first problems as one readable line. */
export function parseExportFile(text: string): { ok: true; file: ExportFile } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON (${(error as Error).message})` };
  }
  const parsed = exportFile.safeParse(json);
  if (parsed.success) return { ok: true, file: parsed.data };
  return { ok: false, problem: parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "file"}: ${i.message}`).join("; ") };
}

// ---- Dashboard Manager forms ----

const name = visibleOnly(z.string({ error: "dashboards.validation.nameRequired" }).trim().min(1, "dashboards.validation.nameRequired").max(100, "dashboards.validation.nameTooLong"));
const int = (min: number, max: number, message: string) => z.number({ error: message }).int(message).min(min, message).max(max, message);

export const createSchema = z.object({ name });

export const settingsSchema = z.object({
  name,
  columns: int(1, 24, "dashboards.validation.columns"),
  rowHeight: int(20, 400, "dashboards.validation.rowHeight"),
  range: z.enum(RANGES),
  refresh: z.enum(REFRESH),
});

/** Most threshold rows a widget keeps (the stored Options.Thresholds limit). */
export const MAX_THRESHOLDS = 8;

/**
 * Thresholds as form rows `thresholds[i].value` + `thresholds[i].color`. A row left blank is
 * ignored (the form always offers blank ones); a half-filled row is an error next to the missing
 * half. Stored sorted by value, in the unchanged [{Value, Color}] shape.
 */
const thresholdRows = z
  .array(
    z
      .object({
        value: z.number({ error: "dashboards.validation.thresholdValue" }).refine(Number.isFinite, "dashboards.validation.thresholdValue").optional(),
        color: z.enum(COLOURS, { error: "dashboards.validation.thresholdColour" }).optional(),
      })
      // Per row, so one row's bad number does not hide another row's missing colour.
      .superRefine((r, ctx) => {
        if (r.value === undefined && r.color !== undefined) ctx.addIssue({ code: "custom", path: ["value"], message: "dashboards.validation.thresholdValue" });
        if (r.value !== undefined && r.color === undefined) ctx.addIssue({ code: "custom", path: ["color"], message: "dashboards.validation.thresholdColour" });
      })
      .optional(),
  )
  .optional()
  .superRefine((rows, ctx) => {
    const filled = rows?.filter((r) => r?.value !== undefined).length ?? 0;
    if (filled > MAX_THRESHOLDS) ctx.addIssue({ code: "custom", message: "dashboards.validation.tooManyThresholds" });
  })
  .transform((rows) =>
    (rows ?? [])
      .flatMap((r) => (r?.value !== undefined && r.color !== undefined ? [{ Value: r.value, Color: r.color }] : []))
      .sort((a, b) => a.Value - b.Value),
  );

/** A widget's thresholds as the form's rows, plus blank ones to fill (up to MAX_THRESHOLDS). */
export function thresholdFormRows(rows: Widget["Options"]["Thresholds"], blanks = 1): { value: string; color: string }[] {
  const filled = (rows ?? []).map((r) => ({ value: String(normaliseZero(r.Value)), color: r.Color }));
  const room = Math.max(0, Math.min(blanks, MAX_THRESHOLDS - filled.length));
  return [...filled, ...Array.from({ length: room }, () => ({ value: "", color: "" }))];
}

/** -0 is shown as 0 (a stored or computed -0 must not read "-0"). */
export const normaliseZero = (n: number) => (Object.is(n, -0) ? 0 : n);

/** "value label colour" per line, e.g. "1 Running green". */
const stateLines = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const rows: z.output<typeof lampState>[] = [];
    for (const line of lines(text)) {
      const m = /^(-?\d+(?:[.,]\d+)?)\s+(.+?)\s+(\w+)$/.exec(line);
      const parsed = m && lampState.safeParse({ Value: Number(m[1]!.replace(",", ".")), Label: m[2]!.trim(), Color: m[3]!.toLowerCase() });
      if (!parsed?.success) {
        ctx.addIssue({ code: "custom", message: "dashboards.validation.states" });
        return z.NEVER;
      }
      rows.push(parsed.data);
    }
    return rows;
  });

function lines(text: string | undefined): string[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

const optionalNumber = (message: string) => z.number({ error: message }).refine(Number.isFinite, message).optional();

export const widgetFormSchema = z
  .object({
    type: z.enum(WIDGET_TYPES),
    title: z.string().max(100, "dashboards.validation.titleTooLong").optional(),
    x: int(0, 23, "dashboards.validation.position"),
    y: int(0, 999, "dashboards.validation.position"),
    w: int(1, 24, "dashboards.validation.size"),
    h: int(1, 24, "dashboards.validation.size"),
    variables: z.array(z.string().min(1).max(100)).max(MAX_VARIABLES, "dashboards.validation.tooManyVariables").default([]),
    min: optionalNumber("dashboards.validation.number"),
    max: optionalNumber("dashboards.validation.number"),
    precision: int(0, 12, "dashboards.validation.precision").optional(),
    thresholds: thresholdRows,
    states: stateLines,
    text: z.string().max(4000, "dashboards.validation.textTooLong").optional(),
    sparkline: z.boolean().optional(),
    onlyUnacknowledged: z.boolean().optional(),
    minSeverity: z.enum(ALARM_SEVERITIES, { error: "dashboards.validation.minSeverity" }).or(z.literal("")).optional(),
    maxRows: int(1, ALARM_ROWS_MAX, "dashboards.validation.maxRows").optional(),
  })
  .superRefine((v, ctx) => {
    // An alarm list without variables shows every alarm.
    if (v.type !== "text" && v.type !== "alarms" && v.variables.length === 0) ctx.addIssue({ code: "custom", path: ["variables"], message: "dashboards.validation.variablesRequired" });
    if (v.min !== undefined && v.max !== undefined && v.max <= v.min) ctx.addIssue({ code: "custom", path: ["max"], message: "dashboards.validation.maxAboveMin" });
  });
export type WidgetForm = z.output<typeof widgetFormSchema>;

/** Which option fields a widget type uses (the form shows only those). */
export const TYPE_OPTIONS: Record<WidgetType, readonly ("scale" | "precision" | "thresholds" | "states" | "text" | "sparkline" | "variables" | "manyVariables" | "alarms")[]> = {
  chart: ["variables", "manyVariables", "thresholds"],
  value: ["variables", "precision", "thresholds", "sparkline"],
  gauge: ["variables", "scale", "precision", "thresholds"],
  bar: ["variables", "scale", "precision", "thresholds"],
  lamp: ["variables", "states"],
  table: ["variables", "manyVariables", "precision"],
  text: ["text"],
  alarms: ["variables", "manyVariables", "alarms"],
};

/** A form's widget in stored shape; single-variable types keep only their first variable. */
export function widgetFromForm(id: string, v: WidgetForm): Widget {
  const uses = TYPE_OPTIONS[v.type];
  const Options: Widget["Options"] = {};
  if (uses.includes("scale")) {
    if (v.min !== undefined) Options.Min = v.min;
    if (v.max !== undefined) Options.Max = v.max;
  }
  if (uses.includes("precision") && v.precision !== undefined) Options.Precision = v.precision;
  if (uses.includes("thresholds") && v.thresholds?.length) Options.Thresholds = v.thresholds;
  if (uses.includes("states") && v.states?.length) Options.States = v.states;
  if (uses.includes("text")) Options.Text = v.text ?? "";
  if (uses.includes("sparkline")) Options.Sparkline = v.sparkline ?? false;
  if (uses.includes("alarms")) {
    Options.OnlyUnacknowledged = v.onlyUnacknowledged ?? false;
    if (v.minSeverity) Options.MinSeverity = v.minSeverity;
    if (v.maxRows !== undefined) Options.MaxRows = v.maxRows;
  }
  const variables = !uses.includes("variables") ? [] : uses.includes("manyVariables") ? v.variables : v.variables.slice(0, 1);
  return { ID: id, Type: v.type, Title: v.title ?? "", X: v.x, Y: v.y, W: v.w, H: v.h, Variables: variables, Options };
}

export const stateText = (rows: Widget["Options"]["States"]) => (rows ?? []).map((r) => `${r.Value} ${r.Label} ${r.Color}`).join("\n");

/** The title a widget shows when none was given (kept apart from zod for the dashboard's bundle). */
export { defaultWidgetTitle } from "~/ui/dashboard/widgetTitle";

/** Positions posted by the drag-and-drop layout editor. */
export const layoutSchema = z.array(z.object({ ID: z.string(), X: z.number().int(), Y: z.number().int(), W: z.number().int(), H: z.number().int() })).max(MAX_WIDGETS);
