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
