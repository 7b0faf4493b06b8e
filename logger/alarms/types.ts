// Alarm rules and alarms as the API shows them (docs/logger-api.md, "Alarming").

export const RULE_TYPES = ["high", "low", "range", "rate", "stale", "digital"] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const NOTIFY_EVENTS = ["activate", "clear", "acknowledge"] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** ISA-18.2 alarm states (normal, unacknowledged, acknowledged, returned unacknowledged, shelved, out of service). */
export const ALARM_STATES = ["Normal", "ActiveUnacknowledged", "ActiveAcknowledged", "ReturnedUnacknowledged", "Shelved", "OutOfService"] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** What a condition needs to be evaluated; limits unused by a type stay null. */
export type Condition = {
  Type: RuleType;
  High: number | null;
  Low: number | null;
  /** Hysteresis: how far back past the limit the value must go before the condition clears. */
  Deadband: number;
  /** Rate of change limit, units per second (absolute). */
  RatePerSec: number | null;
  /** Rate of change is measured over this window. */
  WindowSec: number;
  /** Stale: no sample for this long. */
  StaleSec: number | null;
  /** Digital: the state (0 or 1) that is the alarm. */
  State: 0 | 1 | null;
  OnDelaySec: number;
  OffDelaySec: number;
};

export type Rule = Condition & {
  ID: number;
  Name: string;
  VariableId: string;
  Severity: Severity;
  /** Text of the alarm; {rule}, {variable}, {value}, {unit}, {limit} are filled in. */
  Message: string;
  InService: boolean;
  NotifyTargets: number[];
  NotifyOn: NotifyEvent[];
  Version: number;
};
