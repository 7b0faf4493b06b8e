import type { LoggerClient } from "./logger/client.server";
import { alarmHistoryAnswer, measurementsAnswer, sourcesAnswer } from "./logger/schemas";
import type { ChartEvent } from "~/ui/dashboard/types";

// Events drawn on charts (issue 15 §3): alarms raised and cleared, measurements started and
// stopped, within the chart's range. Bounded reads, cached like the data; a refusal or an
// unreachable logger leaves the charts without events rather than failing them.

/** At most this many alarm events and measurements per range: a chart shows markers, not a log. */
const MAX_ALARM_EVENTS = 200;
const MAX_MEASUREMENTS = 50;

export interface RangeEvents {
  /** Alarm events with the variable their rule watches. */
  alarms: (ChartEvent & { variableId: string })[];
  /** Measurement starts and stops with the variables they recorded (empty: all). */
  measurements: (ChartEvent & { variables: string[] })[];
}

/** Every event in [from, to]; alarms only for viewers who may see them. */
export async function loadRangeEvents(logger: LoggerClient, range: { from: number; to: number }, mayAlarms: boolean): Promise<RangeEvents> {
  const [alarms, measurements] = await Promise.all([mayAlarms ? alarmEvents(logger, range) : [], measurementEvents(logger, range)]);
  return { alarms, measurements };
}

async function alarmEvents(logger: LoggerClient, range: { from: number; to: number }): Promise<RangeEvents["alarms"]> {
  try {
    const params = { From: new Date(range.from).toISOString(), To: new Date(range.to).toISOString(), Limit: MAX_ALARM_EVENTS };
    const { History } = await logger.readRpc("AlarmAPI.GetHistory", params, alarmHistoryAnswer, { keep: false });
    return History.flatMap((h) => {
      const kind = h.Event === "Activated" ? "alarmRaised" : h.Event === "Cleared" ? "alarmCleared" : null;
      const t = Date.parse(h.Timestamp);
      return kind && Number.isFinite(t) ? [{ t, kind, name: h.RuleName, variableId: h.VariableId } as const] : [];
    });
  } catch {
    return [];
  }
}

async function measurementEvents(logger: LoggerClient, range: { from: number; to: number }): Promise<RangeEvents["measurements"]> {
  try {
    const query = { Start: Math.round(range.from), End: Math.round(range.to), Order: "desc", Limit: MAX_MEASUREMENTS };
    const { Data: sources } = await logger.readRest("GET", "/history/structure/sources", undefined, sourcesAnswer);
    // Keyed by the range, which moves on: not worth keeping for an outage.
    const lists = await Promise.all(sources.map((s) => logger.readRest("POST", `/history/structure/sources/${encodeURIComponent(s.Id)}/measurements`, query, measurementsAnswer, undefined, { keep: false })));
    const events: RangeEvents["measurements"] = [];
    for (const m of lists.flatMap((l) => l.Data)) {
      if (m.Kind === "Continuous") continue;
      if (m.Start >= range.from && m.Start <= range.to) events.push({ t: m.Start, kind: "measStart", name: m.Name, variables: m.Variables });
      if (m.End !== null && m.End >= range.from && m.End <= range.to) events.push({ t: m.End, kind: "measStop", name: m.Name, variables: m.Variables });
    }
    return events;
  } catch {
    return [];
  }
}

/** The events a chart of these variables shows, in time order. */
export function eventsFor(all: RangeEvents, variableIds: readonly string[]): ChartEvent[] {
  const ids = new Set(variableIds);
  const pick = ({ t, kind, name }: ChartEvent): ChartEvent => ({ t, kind, name });
  return [
    ...all.alarms.filter((a) => ids.has(a.variableId)).map(pick),
    ...all.measurements.filter((m) => m.variables.length === 0 || m.variables.some((v) => ids.has(v))).map(pick),
  ].sort((a, b) => a.t - b.t);
}
