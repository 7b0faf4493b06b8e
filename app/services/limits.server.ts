import type { ChartLimit } from "~/ui/dashboard/types";
import type { LoggerClient } from "./logger/client.server";
import { alarmLimitsAnswer } from "./logger/schemas";

/**
 * The alarm limits of these variables (AlarmAPI.GetLimits; issue 26 §6), per variable id, with
 * the unit they are drawn in. Any signed-in caller may read them; a logger without the method, or
 * one that does not answer, leaves the charts without limits rather than failing them.
 */
export async function loadLimits(logger: LoggerClient, variables: readonly { Id: string; Unit?: string }[]): Promise<Record<string, ChartLimit[]>> {
  if (variables.length === 0) return {};
  let answer;
  try {
    answer = await logger.readRpc("AlarmAPI.GetLimits", { VariableIds: variables.map((v) => v.Id) }, alarmLimitsAnswer);
  } catch {
    return {};
  }
  const unitOf = new Map(variables.map((v) => [v.Id, v.Unit ?? ""]));
  const limits: Record<string, ChartLimit[]> = {};
  for (const l of answer.Limits) {
    if (!unitOf.has(l.VariableId)) continue;
    const base = { Severity: l.Severity, Name: l.Name, VariableId: l.VariableId, Unit: unitOf.get(l.VariableId)! };
    const list = (limits[l.VariableId] ??= []);
    if (l.High !== null) list.push({ ...base, Value: l.High, Side: "high" });
    if (l.Low !== null) list.push({ ...base, Value: l.Low, Side: "low" });
  }
  return limits;
}

/** The limits of a widget's variables, one list. */
export function limitsOf(limits: Record<string, ChartLimit[]> | undefined, variableIds: readonly string[]): ChartLimit[] {
  return variableIds.flatMap((id) => limits?.[id] ?? []);
}
