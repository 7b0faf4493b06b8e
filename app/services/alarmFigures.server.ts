import type { AlarmItem } from "~/ui/dashboard/types";
import type { LoggerClient } from "./logger/client.server";
import { onlineVariables, readStampedValues } from "./variables.server";

/** Current values beside alarms may be this old (a page render's reads, cached as the page's values). */
const VALUES_MAX_AGE_MS = 1000;

/**
 * Alarm rows with their variable's precision and current value (issue 26 §4): a value at
 * activation is shown with the decimals of a live tile, and the value now beside it. Both reads
 * are the page's own (cached); one that fails leaves its part out.
 */
export async function withCurrentValues(logger: LoggerClient, list: { rows: AlarmItem[]; total: number }): Promise<{ rows: AlarmItem[]; total: number }> {
  return { ...list, rows: await withFigures(logger, list.rows) };
}

/**
 * Any alarms (or history entries) with their variable's `Precision`, `VariableUnit` and, unless
 * `current` is false, `Current` value (the reads are cached; a failed one leaves its part out).
 */
export async function withFigures<A extends { VariableId: string }>(logger: LoggerClient, alarms: A[], current = true): Promise<(A & { Precision: number | null; VariableUnit: string; Current?: number | null })[]> {
  if (alarms.length === 0) return [];
  const ids = [...new Set(alarms.map((r) => r.VariableId))];
  const [variables, now] = await Promise.all([onlineVariables(logger).catch(() => []), current ? readStampedValues(logger, ids, VALUES_MAX_AGE_MS).catch(() => null) : null]);
  const byId = new Map(variables.map((v) => [v.Id, v]));
  return alarms.map((r) => ({ ...r, Precision: byId.get(r.VariableId)?.Precision ?? null, VariableUnit: byId.get(r.VariableId)?.Unit ?? "", ...(current ? { Current: now ? (now.values[r.VariableId] ?? null) : undefined } : {}) }));
}
