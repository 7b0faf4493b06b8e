import { featureByKey } from "~/features";
import type { AuthState } from "./auth-state.server";
import { gateInputOf } from "./guards.server";
import { gateFeature } from "./gating";
import type { LoggerClient } from "./logger/client.server";
import { alarmSummaryAnswer, messagesAnswer, type Message } from "./logger/schemas";

export interface HeaderAlerts {
  /**
   * Active alarms (acknowledged or not) and those awaiting acknowledgement (active or returned);
   * null for those who may not use Alarming. An acknowledged alarm still active is counted, so
   * it never vanishes from sight (issue 15 §4).
   */
  alarms: { active: number; unacknowledged: number } | null;
  /** The latest messages (Log Messages popover); null for those who may not view logs. */
  messages: Message[] | null;
}

export const POPOVER_MESSAGES = 5;

/** Whether the caller may open a feature (the gate of requireFeature, as a yes/no). */
export function featureOpen(auth: AuthState, key: string): boolean {
  return gateFeature(featureByKey(key), gateInputOf(auth)) === "ok";
}

/**
 * What the header shows on every page. A call the caller may not make is never made, and a
 * failing one (an older logger without AlarmAPI) costs the header its badge, never the page.
 */
export async function loadHeaderAlerts(logger: LoggerClient, auth: AuthState): Promise<HeaderAlerts> {
  if (auth.loginRequired && (!auth.signedIn || auth.mustChangePassword)) return { alarms: null, messages: null };
  const may = (key: string) => featureOpen(auth, key);
  const [alarms, messages] = await Promise.all([
    may("alarming") ? logger.readRpc("AlarmAPI.GetSummary", {}, alarmSummaryAnswer).then((a) => ({ active: a.Active, unacknowledged: a.Unacknowledged }), () => null) : null,
    may("log")
      ? logger.readRpc("GI.system/MessagingAPI.GetMessages", { Limit: POPOVER_MESSAGES, Offset: 0 }, messagesAnswer).then((a) => a.Messages, () => null)
      : null,
  ]);
  return { alarms, messages };
}
