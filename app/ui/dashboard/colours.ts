import type { Colour, Widget } from "~/schemas/dashboards";

// Named colours only: stored dashboards never carry CSS, so an imported file cannot inject any.
export const COLOUR_HEX: Record<Colour, string> = { green: "#16a34a", amber: "#d97706", red: "#dc2626", blue: "#2563eb", grey: "#94a3b8" };

/** Series colours of charts and tables, distinguishable in light and dark themes. */
export const SERIES = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d"];

/** The colour of the highest threshold at or below the value; null when none applies. */
export function thresholdColour(value: number | null | undefined, thresholds: Widget["Options"]["Thresholds"]): string | null {
  if (value === null || value === undefined || Number.isNaN(value) || !thresholds?.length) return null;
  let hit: { Value: number; Color: Colour } | null = null;
  for (const t of thresholds) if (value >= t.Value && (!hit || t.Value >= hit.Value)) hit = t;
  return hit && COLOUR_HEX[hit.Color];
}

/** Colour and dash of series i; in a compare overlay, B's series take their A twin's colour, dashed. */
export function seriesStyle(i: number, overlay?: { pairs: number }): { colour: string; dash: boolean } {
  if (overlay && overlay.pairs > 0) return { colour: SERIES[(i % overlay.pairs) % SERIES.length]!, dash: i >= overlay.pairs };
  return { colour: SERIES[i % SERIES.length]!, dash: false };
}

/**
 * Text colours keyed to SERIES (same hue, darker in light and lighter in dark themes) for axis
 * labels and units: the series' own colour is too light for small text on white.
 */
export const AXIS_TEXT_LIGHT = ["#1d4ed8", "#b91c1c", "#15803d", "#b45309", "#6d28d9", "#0e7490", "#be185d", "#4d7c0f"];
export const AXIS_TEXT_DARK = ["#93c5fd", "#fca5a5", "#86efac", "#fcd34d", "#c4b5fd", "#67e8f9", "#f9a8d4", "#bef264"];
/** The same as classes for the server SVG, which follows the theme without JavaScript. */
export const AXIS_TEXT_CLASS = [
  "fill-blue-700 dark:fill-blue-300",
  "fill-red-700 dark:fill-red-300",
  "fill-green-700 dark:fill-green-300",
  "fill-amber-700 dark:fill-amber-300",
  "fill-violet-700 dark:fill-violet-300",
  "fill-cyan-700 dark:fill-cyan-300",
  "fill-pink-700 dark:fill-pink-300",
  "fill-lime-700 dark:fill-lime-300",
];

/** Event markers: raised alarms red, cleared green, measurements violet. */
export const EVENT_HEX = { alarmRaised: "#dc2626", alarmCleared: "#16a34a", measStart: "#7c3aed", measStop: "#7c3aed" } as const;

/** Alarm priorities' colours (as SeverityBadge's): limits on charts, gauges and bars. */
export const SEVERITY_HEX: Record<string, string> = { critical: "#b91c1c", high: "#ea580c", medium: "#d97706", low: "#0284c7" };
export const severityHex = (severity: string) => SEVERITY_HEX[severity] ?? SEVERITY_HEX.medium!;
