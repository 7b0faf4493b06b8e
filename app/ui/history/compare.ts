import { parseInstant, toLocalInput } from "~/ui/dashboard/timeRange";
import type { HistoryRange } from "./historyRange";

// What Analytics overlays on range A, all in the URL: ?cmp=<measurement ID> (aligned at its start),
// ?cmp=previous|day|week (the same length just before, a day before, a week before), or
// ?cmp=at&cmpAt=<datetime-local in the user's zone | epoch ms> (the same length from that start).
// B always has A's length and follows A's zoom: B's window is A's visible window shifted.

export const COMPARE_PRESETS = ["previous", "day", "week"] as const;
export const COMPARE_KINDS = [...COMPARE_PRESETS, "at"] as const;
export type CompareKind = (typeof COMPARE_KINDS)[number] | "measurement";

const DAY = 86_400_000;

export interface Comparison {
  kind: CompareKind;
  /** B's start minus A's start (ms; negative when B lies before A). */
  shift: number;
  /** B's base range (A's base range shifted). */
  from: number;
  to: number;
  measurement: { ID: string; Name: string } | null;
}

export type CompareResult = { compare: Comparison | null; problem: string | null };

export function resolveComparison(params: URLSearchParams, range: HistoryRange, zone: string, measurements: { ID: string; Name: string; start: number }[]): CompareResult {
  const cmp = params.get("cmp") ?? "";
  if (!cmp || range.problem) return { compare: null, problem: null };
  const length = range.base.to - range.base.from;
  const make = (kind: CompareKind, shift: number, measurement: Comparison["measurement"] = null): CompareResult => ({
    compare: { kind, shift, from: range.base.from + shift, to: range.base.to + shift, measurement },
    problem: null,
  });
  if (cmp === "previous") return make("previous", -length);
  if (cmp === "day") return make("day", wallShift(range.base.from, 1, zone));
  if (cmp === "week") return make("week", wallShift(range.base.from, 7, zone));
  if (cmp === "at") {
    const at = parseInstant(params.get("cmpAt"), zone);
    if (at === null) return { compare: null, problem: "history.analytics.cmpAtInvalid" };
    if (at === range.base.from) return { compare: null, problem: "history.analytics.cmpSame" };
    return make("at", at - range.base.from);
  }
  const m = measurements.find((x) => x.ID === cmp);
  if (!m) return { compare: null, problem: "history.analytics.cmpNoMeasurement" };
  if (m.ID === range.measurement?.ID) return { compare: null, problem: "history.analytics.cmpSame" };
  return make("measurement", m.start - range.base.from, { ID: m.ID, Name: m.Name });
}

/** The shift to the same wall-clock time `days` earlier in the user's zone (23 or 25 h over a DST change). */
export function wallShift(from: number, days: number, zone: string): number {
  const local = toLocalInput(from, zone);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(.*)$/.exec(local);
  if (!m) return -days * DAY;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]! - days));
  const earlier = parseInstant(`${d.toISOString().slice(0, 10)}T${m[4]}`, zone);
  // Seconds of `from` are kept: toLocalInput shows whole minutes.
  return earlier === null ? -days * DAY : earlier + (((from % 60_000) + 60_000) % 60_000) - from;
}

/** What the "B starts at" input shows: a datetime-local value (with seconds) for epoch ms or a local time; else as typed. */
export function cmpAtInput(raw: string | null, zone: string): string {
  const at = parseInstant(raw, zone);
  if (at === null) return raw ?? "";
  const seconds = Math.floor((((at % 60_000) + 60_000) % 60_000) / 1000);
  return `${toLocalInput(at, zone)}:${String(seconds).padStart(2, "0")}`;
}
