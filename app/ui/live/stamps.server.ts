import type { LoggerClient } from "~/services/logger/client.server";
import { devicesAnswer, projectStateAnswer } from "~/services/logger/schemas";
import { onlineVariables, readStampedValues } from "~/services/variables.server";
import { periodMsOf } from "./freshness";
import { summarizeQuality, type QualityFacts, type QualitySummary } from "./quality";
import type { Stamps } from "./useLiveValues";

/**
 * The times and sample periods of values a page shows, read the way the page read the values
 * (same requests, so the logger client's cache answers), what says why they could stop (the
 * project's acquisition, the variables' devices), and how the server judges them now: a page
 * without JavaScript shows the same live / stale / offline state and reason as one with it.
 * `valueIds`: the ids whose values the page read (same order, same max age); `liveIds`: every id
 * the page follows live (its period is needed once the stream brings its time). With the logger
 * away the values are the last kept ones (if any) and everything is offline.
 */
export async function readStamps(logger: LoggerClient, valueIds: readonly string[], liveIds: readonly string[], maxAgeMs: number, failed: boolean): Promise<{ stamps: Stamps; summary: QualitySummary; values: Record<string, number | null> }> {
  const at = Date.now();
  let offline = failed;
  let times: Record<string, number | null> = {};
  let values: Record<string, number | null> = {};
  const periods: Record<string, number | null> = {};
  const judged = [...new Set([...valueIds, ...liveIds])];
  const [read, facts] = await Promise.all([
    Promise.all([valueIds.length ? readStampedValues(logger, valueIds, maxAgeMs) : null, liveIds.length ? onlineVariables(logger) : []]).catch(() => null),
    judged.length ? readQualityFacts(logger, judged) : null,
  ]);
  if (read) {
    const [stamped, variables] = read;
    times = stamped?.times ?? {};
    values = stamped?.values ?? {};
    const wanted = new Set(liveIds);
    for (const v of variables) if (wanted.has(v.Id)) periods[v.Id] = periodMsOf(v.SampleRateHz);
  } else {
    // The logger did not answer now, and nothing was kept: the page says offline (its error texts say why).
    offline = true;
  }
  // Values kept from before the logger stopped answering are not current, whatever their age.
  if (logger.outage) offline = true;
  const stamps: Stamps = { times, periods, at, offline, facts };
  return { stamps, summary: summarizeQuality(times, periods, at, offline ? "logger" : "ok", facts), values };
}

/** Stamps and the server's judgement from what a page read itself (periods in ms by id). */
export function stampsOf(times: Record<string, number | null>, periods: Record<string, number | null>, facts: QualityFacts | null, offline: boolean): { stamps: Stamps; summary: QualitySummary } {
  const at = Date.now();
  return { stamps: { times, periods, at, offline, facts }, summary: summarizeQuality(times, periods, at, offline ? "logger" : "ok", facts) };
}

/**
 * Why values could be stale: the project's acquisition (who stopped it, when) and which of the
 * variables' devices are disconnected. Both are reads any signed-in caller may make; a failure
 * leaves the reason unknown, never the page.
 */
export async function readQualityFacts(logger: LoggerClient, ids: readonly string[]): Promise<QualityFacts> {
  const [state, devices] = await Promise.all([
    logger.readRpc("ProjectAPI.GetState", {}, projectStateAnswer, { keep: false }).then((a) => a.State, () => null),
    logger.readRpc("DeviceAPI.GetDevices", {}, devicesAnswer, { keep: false }).then((a) => a.Devices, () => null),
  ]);
  const since = state?.Since === null || state?.Since === undefined ? null : typeof state.Since === "number" ? state.Since : Date.parse(state.Since) || null;
  const disconnected: Record<string, string> = {};
  if (devices) {
    const wanted = new Set(ids);
    for (const d of devices) {
      if (d.Connected) continue;
      for (const m of d.Modules) for (const id of m.Variables) if (wanted.has(id)) disconnected[id] = d.Name;
    }
  }
  return { acquisition: state ? { running: state.Running, since, by: state.ChangedBy ?? null } : null, disconnected };
}
