import type { Variable } from "~/services/logger/schemas";

// What may be written to an output (issue 26 §5), shared by Variable Overview's form and action:
// a switch (BOOL) is On or Off — chosen with two buttons, never typed — and a number must be one
// and lie within the variable's range, which a refusal names.

type Output = Pick<Variable, "DataFormat" | "RangeMin" | "RangeMax" | "Unit">;

export type OutputRefusal = "not-a-switch" | "not-a-number" | "out-of-range";

export const isSwitch = (v: Pick<Variable, "DataFormat">) => v.DataFormat === "BOOL";

/** The value to write, or why it cannot be written. Numbers in either decimal notation ("1.5" or "1,5"). */
export function outputValue(text: string, v: Output): number | OutputRefusal {
  const raw = text.trim();
  if (isSwitch(v)) {
    const lower = raw.toLowerCase();
    if (["1", "true", "on"].includes(lower)) return 1;
    if (["0", "false", "off"].includes(lower)) return 0;
    return "not-a-switch";
  }
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)(e[+-]?\d+)?$/i.test(raw)) return "not-a-number";
  const n = Number(raw.replace(",", "."));
  if (!Number.isFinite(n)) return "not-a-number";
  if ((v.RangeMin !== null && v.RangeMin !== undefined && n < v.RangeMin) || (v.RangeMax !== null && v.RangeMax !== undefined && n > v.RangeMax)) return "out-of-range";
  return n;
}

/** "0 … 100 %", "≥ 0 bar", "≤ 10 V": the range a refusal names, with `format` for the numbers. */
export function rangeText(v: Output, format: (n: number) => string): string {
  const unit = v.Unit ? ` ${v.Unit}` : "";
  const min = v.RangeMin ?? null;
  const max = v.RangeMax ?? null;
  if (min !== null && max !== null) return `${format(min)} … ${format(max)}${unit}`;
  if (min !== null) return `≥ ${format(min)}${unit}`;
  if (max !== null) return `≤ ${format(max)}${unit}`;
  return "";
}
