import { featureByKey } from "~/features";
import type { AuthState } from "./auth-state.server";
import { gateInputOf } from "./guards.server";
import { gateFeature } from "./gating";
import { isLoggerAway, type LoggerClient } from "./logger/client.server";
import { alarmsAnswer, messagesAnswer, SEVERITIES, type Alarm, type Message } from "./logger/schemas";
import { withFigures } from "./alarmFigures.server";

/** The alarm the banner shows (issue 26 §4): what it is, its value at activation and the variable's value now. */
export interface BannerAlarm {
  ID: number;
  Name: string;
  Severity: Alarm["Severity"];
  State: string;
  VariableName: string;
  Unit: string;
  /** The variable's precision (decimals), when known. */
  Precision: number | null;
  /** The value that raised the alarm. */
  Value: number | null;
  ActivatedAt: string | null;
  Since: string;
  /** The variable's current value (null: none known). */
  Current: number | null;
}

export interface AlarmSummary {
  /** Active alarms, acknowledged or not. An acknowledged alarm still active is counted, so it never vanishes from sight (issue 15 §4). */
  active: number;
  /** Alarms awaiting acknowledgement, active or returned. */
  unacknowledged: number;
  /** The newest unacknowledged alarm of the highest priority, for the banner; null when none awaits. */
  top: BannerAlarm | null;
  /** Every alarm awaiting acknowledgement (at most 100), for the annunciator: which to sound for. */
  waiting: { ID: number; Severity: Alarm["Severity"]; ActivatedAt: string | null }[];
}

export interface HeaderAlerts {
  /**
   * null for those who may not use Alarming; "unknown" while the logger does not answer (an old
   * count could be untrue: the header says the state is unknown instead).
   */
  alarms: AlarmSummary | "unknown" | null;
  /** The latest messages (Log Messages popover); null for those who may not view logs. */
  messages: Message[] | null;
}

export const POPOVER_MESSAGES = 5;
const UNACKNOWLEDGED = new Set(["ActiveUnacknowledged", "ReturnedUnacknowledged"]);
const ACTIVE = new Set(["ActiveUnacknowledged", "ActiveAcknowledged"]);

/** Whether the caller may open a feature (the gate of requireFeature, as a yes/no). */
export function featureOpen(auth: AuthState, key: string): boolean {
  return gateFeature(featureByKey(key), gateInputOf(auth)) === "ok";
}

/** Highest priority first, then the newest activation. */
export function bannerOrder(a: Pick<Alarm, "Severity" | "ActivatedAt" | "Since">, b: Pick<Alarm, "Severity" | "ActivatedAt" | "Since">): number {
  const when = (x: typeof a) => Date.parse(x.ActivatedAt ?? x.Since) || 0;
  return SEVERITIES.indexOf(a.Severity) - SEVERITIES.indexOf(b.Severity) || when(b) - when(a);
}

/**
 * What the header shows on every page. A call the caller may not make is never made; a failing
 * one costs the header its badge, never the page — except that alarms the logger could not be
 * asked about are "unknown", not absent.
 */
export async function loadHeaderAlerts(logger: LoggerClient, auth: AuthState): Promise<HeaderAlerts> {
  if (auth.loginRequired && (!auth.signedIn || auth.mustChangePassword)) return { alarms: null, messages: null };
  const may = (key: string) => featureOpen(auth, key);
  const [alarms, messages] = await Promise.all([
    may("alarming") ? alarmSummary(logger) : null,
    may("log")
      ? logger.readRpc("GI.system/MessagingAPI.GetMessages", { Limit: POPOVER_MESSAGES, Offset: 0 }, messagesAnswer).then((a) => a.Messages, () => null)
      : null,
  ]);
  return { alarms, messages };
}

/** The bell's counts and the banner's alarm; never an old answer ("unknown" when the logger is away). */
export async function alarmSummary(logger: LoggerClient): Promise<AlarmSummary | "unknown" | null> {
  let list: Alarm[];
  try {
    list = (await logger.readRpc("AlarmAPI.GetAlarms", {}, alarmsAnswer, { keep: false })).Alarms;
  } catch (error) {
    // An older logger without AlarmAPI: no bell. A logger that does not answer: unknown.
    return isLoggerAway(error) ? "unknown" : null;
  }
  const waiting = list.filter((a) => UNACKNOWLEDGED.has(a.State)).toSorted(bannerOrder);
  const summary = {
    active: list.filter((a) => ACTIVE.has(a.State)).length,
    unacknowledged: waiting.length,
    waiting: waiting.slice(0, 100).map((a) => ({ ID: a.ID, Severity: a.Severity, ActivatedAt: a.ActivatedAt })),
  };
  const first = waiting[0];
  if (!first) return { ...summary, top: null };
  // The variable's precision and current value beside the value at activation; missing ones stay blank.
  const [figures] = await withFigures(logger, [first]);
  return {
    ...summary,
    top: {
      ID: first.ID,
      Name: first.Name,
      Severity: first.Severity,
      State: first.State,
      VariableName: first.VariableName,
      Unit: first.Unit,
      Precision: figures?.Precision ?? null,
      Value: first.Value,
      ActivatedAt: first.ActivatedAt,
      Since: first.Since,
      Current: figures?.Current ?? null,
    },
  };
}
