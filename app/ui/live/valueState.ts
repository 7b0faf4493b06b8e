/** Colour state of a value against its variable's range (spec: "state colour"). */
export type ValueState = "ok" | "low" | "high" | "none";

export function valueState(value: number | null | undefined, min?: number | null, max?: number | null): ValueState {
  if (value === null || value === undefined || Number.isNaN(value)) return "none";
  if (min !== null && min !== undefined && value < min) return "low";
  if (max !== null && max !== undefined && value > max) return "high";
  return "ok";
}

export const VALUE_STATE_CLASS: Record<ValueState, string> = {
  ok: "text-emerald-700 dark:text-emerald-400",
  low: "text-sky-700 dark:text-sky-400 font-semibold",
  high: "text-red-700 dark:text-red-400 font-semibold",
  none: "text-slate-400",
};
