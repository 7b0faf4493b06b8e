import type { Colour } from "~/schemas/dashboardConstants";
import type { Variable } from "~/services/logger/schemas";

// What the dashboard loader hands to the widgets (client-safe twin of dashboards.server.ts).

export interface SeriesData {
  /** Epoch ms of the first bucket, and the bucket width. */
  start: number;
  delta: number;
  size: number;
  /** One column per variable of the widget, in its order; nulls are gaps. */
  values: (number | null)[][];
  min?: (number | null)[][];
  max?: (number | null)[][];
}

/** One row of an alarm list widget (the part of AlarmAPI's alarm it shows). */
export interface AlarmItem {
  ID: number;
  Name: string;
  Severity: string;
  State: string;
  /** The value that raised the alarm. */
  Value: number | null;
  Unit: string;
  VariableId: string;
  VariableName: string;
  Since: string;
  /** The variable's decimals (null: not known). */
  Precision: number | null;
  /** The variable's value now (null: none; undefined: could not be read). */
  Current?: number | null;
}

/**
 * A chart's series travel separately (/dashboard/series); the page gets `chart` only. An alarm
 * list gets its rows (filtered, sorted, cut to MaxRows) and how many matched in all; "forbidden"
 * when the viewer may not see alarms (the logger was not asked).
 */
export type WidgetData =
  | { state: "ok"; series?: SeriesData; chart?: { size: number; empty: boolean }; alarms?: { rows: AlarmItem[]; total: number } }
  | { state: "error"; error: string }
  | { state: "forbidden" };

export type VariableInfo = Pick<Variable, "Id" | "Name" | "Unit" | "DataFormat"> & Partial<Pick<Variable, "Precision" | "RangeMin" | "RangeMax">>;

export interface DashboardData {
  /** Per chart widget, the events in its range (server side only: pageData drops them). */
  chartEvents?: Record<string, ChartEvent[]>;
  /** Per chart widget, the operator annotations in its range (server side only, like the events). */
  chartAnnotations?: Record<string, import("./annotations").ChartAnnotation[]>;
  /** Variables the dashboard uses that exist; a missing id means it was deleted. */
  variables: Record<string, VariableInfo>;
  /** Set when the logger could not list variables at all: every data widget shows it. */
  variablesError: string | null;
  values: Record<string, number | null>;
  valuesError: string | null;
  widgets: Record<string, WidgetData>;
  /** Alarm limits per variable id (only variables that have some). */
  limits?: Record<string, ChartLimit[]>;
}

/** An event drawn on a chart's time axis: an alarm raised or cleared, a measurement started or stopped. */
export interface ChartEvent {
  t: number;
  kind: ChartEventKind;
  /** The alarm rule's or the measurement's name. */
  name: string;
}
export const CHART_EVENT_KINDS = ["alarmRaised", "alarmCleared", "measStart", "measStop"] as const;
export type ChartEventKind = (typeof CHART_EVENT_KINDS)[number];

/**
 * An alarm rule's limit on a variable (issue 26 §6): drawn on its charts as a line in the rule's
 * priority colour with the side beyond it shaded, and as a mark on its gauges and bars.
 */
export interface ChartLimit {
  Value: number;
  Severity: string;
  /** "high": the alarm is above the line; "low": below it. */
  Side: "high" | "low";
  /** The rule's name. */
  Name: string;
  /** The limited variable's id and unit (a chart draws it on that unit's scale). */
  VariableId: string;
  Unit: string;
}

/** A threshold line of a widget, in its first unit's scale. */
export interface ChartThreshold {
  Value: number;
  Color: Colour;
}

/** Two ranges overlaid aligned at their start: `pairs` series of A, then as many of B. */
export interface ChartOverlay {
  /** Epoch ms of A's start: the time axis shows offsets from it. */
  origin: number;
  pairs: number;
}
