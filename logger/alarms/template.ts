import type { Variable } from "../model/types.ts";
import type { Rule } from "./types.ts";

export const DEFAULT_MESSAGE = "{rule}: {variable} = {value} {unit} (limit {limit})";

function limitOf(rule: Rule): number | string | null {
  switch (rule.Type) {
    case "high":
      return rule.High;
    case "low":
      return rule.Low;
    case "range":
      return `${rule.Low}…${rule.High}`;
    case "rate":
      return `${rule.RatePerSec}/s`;
    case "stale":
      return `${rule.StaleSec} s`;
    case "digital":
      return rule.State;
  }
}

/** The rule's message with {rule}, {variable}, {value}, {unit} and {limit} filled in. */
export function renderMessage(rule: Rule, v: Variable | undefined, value: number | null): string {
  const digits = Math.min(Math.max(v?.Precision ?? 2, 0), 6);
  const fields: Record<string, string> = {
    rule: rule.Name,
    variable: v?.Name ?? rule.VariableId,
    value: value === null ? "—" : value.toFixed(digits),
    unit: v?.Unit ?? "",
    limit: String(limitOf(rule) ?? ""),
  };
  return (rule.Message || DEFAULT_MESSAGE).replace(/\{(rule|variable|value|unit|limit)\}/g, (_, k: string) => fields[k]!).replace(/\s+/g, " ").trim();
}

/**
 * What an alarm's text is made of (issue 28): the rule's own template ("" = the default) and the
 * values it names, so a console renders the text in its reader's language and number format
 * instead of showing the stored English one. Sent as `Fields` on AlarmAPI's alarms and on the
 * Alarming messages (docs/logger-api.md).
 */
export type MessageFields = {
  Template: string;
  Rule: string;
  Variable: string;
  Value: number | null;
  Unit: string;
  /** Decimals the value is written with. */
  Precision: number;
  Type: Rule["Type"];
  High: number | null;
  Low: number | null;
  RatePerSec: number | null;
  StaleSec: number | null;
  State: number | null;
};

export function messageFields(rule: Rule, v: Variable | undefined, value: number | null): MessageFields {
  return {
    Template: rule.Message,
    Rule: rule.Name,
    Variable: v?.Name ?? rule.VariableId,
    Value: value,
    Unit: v?.Unit ?? "",
    Precision: Math.min(Math.max(v?.Precision ?? 2, 0), 6),
    Type: rule.Type,
    High: rule.High,
    Low: rule.Low,
    RatePerSec: rule.RatePerSec,
    StaleSec: rule.StaleSec,
    State: rule.State,
  };
}
