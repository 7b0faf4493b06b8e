import type { LoggerClient } from "./logger/client.server";
import { onlineValuesAnswer } from "./logger/schemas";

const READ_CHUNK = 500;

export interface StampedValues {
  values: Record<string, number | null>;
  /** Epoch ms each value was sampled at (null when the logger has none or gives no timestamps). */
  times: Record<string, number | null>;
}

/**
 * Current values with their timestamps, so a page rendered without JavaScript can say whether
 * each value is still current (issue 15 §1) instead of showing frozen data as live.
 */
export async function readStampedValues(logger: LoggerClient, ids: readonly string[]): Promise<StampedValues> {
  const values: Record<string, number | null> = {};
  const times: Record<string, number | null> = {};
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    const chunk = ids.slice(i, i + READ_CHUNK);
    const { Data } = await logger.rest("POST", "/online/data", { Variables: chunk, Function: "read" }, onlineValuesAnswer);
    chunk.forEach((id, k) => {
      values[id] = Data.Values[k] ?? null;
      times[id] = Data.Timestamps?.[k] ?? null;
    });
  }
  return { values, times };
}
