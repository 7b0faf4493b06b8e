import type { LoggerClient } from "~/services/logger/client.server";
import { onlineVariables, readStampedValues } from "~/services/variables.server";
import { periodMsOf, summarizeFreshness, type FreshnessSummary } from "./freshness";
import type { Stamps } from "./useLiveValues";

/**
 * The times and sample periods of values a page shows, read the way the page read the values
 * (same requests, so the logger client's cache answers), and how the server judges them now:
 * a page without JavaScript shows the same live / stale / offline state as one with it.
 * `valueIds`: the ids whose values the page read (same order, same max age); `liveIds`: every id
 * the page follows live (its period is needed once the stream brings its time).
 */
export async function readStamps(logger: LoggerClient, valueIds: readonly string[], liveIds: readonly string[], maxAgeMs: number, failed: boolean): Promise<{ stamps: Stamps; summary: FreshnessSummary; values: Record<string, number | null> }> {
  const at = Date.now();
  let offline = failed;
  let times: Record<string, number | null> = {};
  let values: Record<string, number | null> = {};
  const periods: Record<string, number | null> = {};
  try {
    const [stamped, variables] = await Promise.all([valueIds.length ? readStampedValues(logger, valueIds, maxAgeMs) : null, liveIds.length ? onlineVariables(logger) : []]);
    times = stamped?.times ?? {};
    values = stamped?.values ?? {};
    const wanted = new Set(liveIds);
    for (const v of variables) if (wanted.has(v.Id)) periods[v.Id] = periodMsOf(v.SampleRateHz);
  } catch {
    // The logger did not answer now: the page says offline (its error texts say why).
    offline = true;
  }
  const stamps: Stamps = { times, periods, at, offline };
  return { stamps, summary: summarizeFreshness(times, periods, at, !offline), values };
}
