import type { AlarmState, NotifyEvent, Rule, RuleType, Severity } from "../alarms/types.ts";
import type { Db } from "./db.ts";
import { all, get, run } from "./db.ts";

// Rules, the one alarm of each rule, and the history of every transition (logger.db).

type RuleRow = Omit<Rule, "InService" | "NotifyTargets" | "NotifyOn" | "State"> & { InService: number; NotifyTargets: string; NotifyOn: string; State: number | null };

const toRule = (r: RuleRow): Rule => ({
  ...r,
  Type: r.Type as RuleType,
  Severity: r.Severity as Severity,
  State: r.State === null ? null : (r.State ? 1 : 0),
  InService: r.InService === 1,
  NotifyTargets: JSON.parse(r.NotifyTargets) as number[],
  NotifyOn: JSON.parse(r.NotifyOn) as NotifyEvent[],
});

export type RuleInput = Omit<Rule, "ID" | "Version">;

const COLUMNS = ["Name", "VariableId", "Type", "Severity", "High", "Low", "Deadband", "RatePerSec", "WindowSec", "StaleSec", "State", "OnDelaySec", "OffDelaySec", "Message", "InService", "NotifyTargets", "NotifyOn"] as const;

function columnValues(r: RuleInput): Array<string | number | null> {
  return COLUMNS.map((c) => {
    const v = r[c];
    if (typeof v === "boolean") return v ? 1 : 0;
    if (Array.isArray(v)) return JSON.stringify(v);
    return v;
  });
}

export function listRules(db: Db): Rule[] {
  return all<RuleRow>(db, "SELECT * FROM alarm_rules ORDER BY Name COLLATE NOCASE").map(toRule);
}

export function getRule(db: Db, id: number): Rule | undefined {
  const r = get<RuleRow>(db, "SELECT * FROM alarm_rules WHERE ID = ?", id);
  return r && toRule(r);
}

export function ruleByName(db: Db, name: string): Rule | undefined {
  const r = get<RuleRow>(db, "SELECT * FROM alarm_rules WHERE Name = ?", name);
  return r && toRule(r);
}

export function insertRule(db: Db, r: RuleInput, now: string): number {
  const id = run(db, `INSERT INTO alarm_rules (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`, ...columnValues(r));
  run(db, "INSERT INTO alarms (RuleID, State, Since) VALUES (?, ?, ?)", id, r.InService ? "Normal" : "OutOfService", now);
  return id;
}

export function updateRule(db: Db, id: number, r: RuleInput): void {
  run(db, `UPDATE alarm_rules SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, Version = Version + 1 WHERE ID = ?`, ...columnValues(r), id);
}

export function deleteRule(db: Db, id: number): void {
  run(db, "DELETE FROM alarm_rules WHERE ID = ?", id);
}

export type AlarmRow = {
  RuleID: number;
  State: AlarmState;
  Active: boolean;
  Value: number | null;
  Since: string;
  ActivatedAt: string | null;
  AckedBy: string;
  AckedAt: string | null;
  AckComment: string;
  ShelvedUntil: string | null;
  ShelvedBy: string;
  ShelveReason: string;
};

export function listAlarmRows(db: Db): AlarmRow[] {
  return all<Omit<AlarmRow, "Active"> & { Active: number }>(db, "SELECT * FROM alarms").map((a) => ({ ...a, Active: a.Active === 1 }));
}

export function getAlarmRow(db: Db, ruleId: number): AlarmRow | undefined {
  const a = get<Omit<AlarmRow, "Active"> & { Active: number }>(db, "SELECT * FROM alarms WHERE RuleID = ?", ruleId);
  return a && { ...a, Active: a.Active === 1 };
}

export function saveAlarmRow(db: Db, a: AlarmRow): void {
  run(
    db,
    `UPDATE alarms SET State = ?, Active = ?, Value = ?, Since = ?, ActivatedAt = ?, AckedBy = ?, AckedAt = ?, AckComment = ?,
       ShelvedUntil = ?, ShelvedBy = ?, ShelveReason = ? WHERE RuleID = ?`,
    a.State,
    a.Active ? 1 : 0,
    a.Value,
    a.Since,
    a.ActivatedAt,
    a.AckedBy,
    a.AckedAt,
    a.AckComment,
    a.ShelvedUntil,
    a.ShelvedBy,
    a.ShelveReason,
    a.RuleID,
  );
}

export type HistoryEntry = {
  ID: number;
  RuleID: number;
  RuleName: string;
  VariableId: string;
  Severity: Severity;
  Event: string;
  FromState: AlarmState;
  ToState: AlarmState;
  Value: number | null;
  User: string;
  Comment: string;
  Timestamp: string;
};

export function addHistory(db: Db, h: Omit<HistoryEntry, "ID">): number {
  return run(
    db,
    "INSERT INTO alarm_history (RuleID, RuleName, VariableId, Severity, Event, FromState, ToState, Value, User, Comment, Timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    h.RuleID,
    h.RuleName,
    h.VariableId,
    h.Severity,
    h.Event,
    h.FromState,
    h.ToState,
    h.Value,
    h.User,
    h.Comment,
    h.Timestamp,
  );
}

export type HistoryQuery = { RuleID?: number; Severity?: string; VariableIds?: string[]; From?: string; To?: string; Limit: number; Offset: number };

export function queryHistory(db: Db, q: HistoryQuery): { History: HistoryEntry[]; Total: number } {
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (q.RuleID) {
    where.push("RuleID = ?");
    params.push(q.RuleID);
  }
  if (q.Severity) {
    where.push("Severity = ?");
    params.push(q.Severity);
  }
  if (q.VariableIds) {
    where.push(`VariableId IN (${q.VariableIds.map(() => "?").join(", ") || "NULL"})`);
    params.push(...q.VariableIds);
  }
  // ISO strings with ms and Z: text order is time order.
  if (q.From) {
    where.push("Timestamp >= ?");
    params.push(q.From);
  }
  if (q.To) {
    where.push("Timestamp <= ?");
    params.push(q.To);
  }
  const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const total = get<{ n: number }>(db, `SELECT COUNT(*) AS n FROM alarm_history ${filter}`, ...params)!.n;
  const rows = all<HistoryEntry>(db, `SELECT * FROM alarm_history ${filter} ORDER BY ID DESC LIMIT ? OFFSET ?`, ...params, q.Limit, q.Offset);
  return { History: rows, Total: total };
}
