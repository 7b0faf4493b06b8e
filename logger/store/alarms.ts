import type { AlarmState, NotifyEvent, Rule, RuleType, Severity } from "../alarms/types.ts";
import type { Db } from "./db.ts";

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

export async function listRules(db: Db): Promise<Rule[]> {
  return (await db.all<RuleRow>("SELECT * FROM alarm_rules ORDER BY Name COLLATE NOCASE")).map(toRule);
}

export async function getRule(db: Db, id: number): Promise<Rule | undefined> {
  const r = await db.get<RuleRow>("SELECT * FROM alarm_rules WHERE ID = ?", id);
  return r && toRule(r);
}

export async function ruleByName(db: Db, name: string): Promise<Rule | undefined> {
  const r = await db.get<RuleRow>("SELECT * FROM alarm_rules WHERE Name = ?", name);
  return r && toRule(r);
}

/** Two inserts: call it inside a tx. */
export async function insertRule(db: Db, r: RuleInput, now: string): Promise<number> {
  const { ID: id } = (await db.get<{ ID: number }>(
    `INSERT INTO alarm_rules (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")}) RETURNING ID`,
    ...columnValues(r),
  ))!;
  await db.run("INSERT INTO alarms (RuleID, State, Since) VALUES (?, ?, ?)", id, r.InService ? "Normal" : "OutOfService", now);
  return id;
}

export async function updateRule(db: Db, id: number, r: RuleInput): Promise<void> {
  await db.run(`UPDATE alarm_rules SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, Version = Version + 1 WHERE ID = ?`, ...columnValues(r), id);
}

export async function deleteRule(db: Db, id: number): Promise<void> {
  await db.run("DELETE FROM alarm_rules WHERE ID = ?", id);
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

export async function listAlarmRows(db: Db): Promise<AlarmRow[]> {
  return (await db.all<Omit<AlarmRow, "Active"> & { Active: number }>("SELECT * FROM alarms")).map((a) => ({ ...a, Active: a.Active === 1 }));
}

export async function getAlarmRow(db: Db, ruleId: number): Promise<AlarmRow | undefined> {
  const a = await db.get<Omit<AlarmRow, "Active"> & { Active: number }>("SELECT * FROM alarms WHERE RuleID = ?", ruleId);
  return a && { ...a, Active: a.Active === 1 };
}

export async function saveAlarmRow(db: Db, a: AlarmRow): Promise<void> {
  await db.run(
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

export async function addHistory(db: Db, h: Omit<HistoryEntry, "ID">): Promise<number> {
  const row = await db.get<{ ID: number }>(
    "INSERT INTO alarm_history (RuleID, RuleName, VariableId, Severity, Event, FromState, ToState, Value, User, Comment, Timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ID",
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
  return row!.ID;
}

export type HistoryQuery = { RuleID?: number; Severity?: string; VariableIds?: string[]; From?: string; To?: string; Limit: number; Offset: number };

export async function queryHistory(db: Db, q: HistoryQuery): Promise<{ History: HistoryEntry[]; Total: number }> {
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
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM alarm_history ${filter}`, ...params))!.n;
  const rows = await db.all<HistoryEntry>(`SELECT * FROM alarm_history ${filter} ORDER BY ID DESC LIMIT ? OFFSET ?`, ...params, q.Limit, q.Offset);
  return { History: rows, Total: total };
}
