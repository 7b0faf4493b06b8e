import type { AlarmState } from "./types.ts";

export type AlarmEvent = "activate" | "clear" | "acknowledge" | "shelve" | "unshelve" | "disable" | "enable";

/**
 * The ISA-18.2 state machine: the next state after `event`, or null when the event does not
 * apply in this state. `active` is the condition after the event (it decides where an alarm
 * goes when it comes back from shelving or out of service).
 */
export function nextState(state: AlarmState, event: AlarmEvent, active: boolean): AlarmState | null {
  switch (event) {
    case "activate":
      return state === "Normal" || state === "ReturnedUnacknowledged" ? "ActiveUnacknowledged" : null;
    case "clear":
      if (state === "ActiveUnacknowledged") return "ReturnedUnacknowledged";
      if (state === "ActiveAcknowledged") return "Normal";
      return null;
    case "acknowledge":
      if (state === "ActiveUnacknowledged") return "ActiveAcknowledged";
      if (state === "ReturnedUnacknowledged") return "Normal";
      return null;
    case "shelve":
      return state === "OutOfService" ? null : "Shelved";
    case "unshelve":
      return state === "Shelved" ? (active ? "ActiveUnacknowledged" : "Normal") : null;
    case "disable":
      return state === "OutOfService" ? null : "OutOfService";
    case "enable":
      return state === "OutOfService" ? (active ? "ActiveUnacknowledged" : "Normal") : null;
  }
}

export const awaitsAcknowledge = (s: AlarmState) => s === "ActiveUnacknowledged" || s === "ReturnedUnacknowledged";
