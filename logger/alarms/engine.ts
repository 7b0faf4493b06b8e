import type { Model, Variable } from "../model/types.ts";
import type { Db } from "../store/db.ts";
import { tx } from "../store/db.ts";
import { addHistory, getAlarmRow, getRule, listAlarmRows, listRules, saveAlarmRow } from "../store/alarms.ts";
import type { AlarmRow } from "../store/alarms.ts";
import { postMessage } from "../store/messages.ts";
import type { MessageType } from "../store/messages.ts";
import type { TraceLog } from "../trace.ts";
import { ConditionState } from "./condition.ts";
import type { ConditionChange } from "./condition.ts";
import { awaitsAcknowledge, nextState } from "./lifecycle.ts";
import type { AlarmEvent } from "./lifecycle.ts";
import type { Notifier } from "./notifier.ts";
import { renderMessage } from "./template.ts";
import type { AlarmState, NotifyEvent, Rule, Severity } from "./types.ts";

export const SENDER = "Alarming";

const ACTIVATION_TYPE: Record<Severity, MessageType> = { critical: "Error", high: "Error", medium: "Warning", low: "Info" };

const EVENT_NAME: Record<AlarmEvent, string> = {
  activate: "Activated",
  clear: "Cleared",
  acknowledge: "Acknowledged",
  shelve: "Shelved",
  unshelve: "Unshelved",
  disable: "OutOfService",
  enable: "InService",
};

export type Alarm = AlarmRow & {
  ID: number;
  Name: string;
  Severity: Severity;
  VariableId: string;
  VariableName: string;
  DeviceId: string;
  Unit: string;
  Text: string;
};

type Action = { user: string; comment: string; time: number; value?: number | null; shelvedUntil?: number; reason?: string; automatic?: boolean };

/**
 * Evaluates every rule on the samples as they arrive and drives each rule's one alarm through
 * the ISA-18.2 lifecycle. Each transition is stored in the alarm's row and history, written
 * as a message (Sender Alarming, Topic = rule name) and sent to the rule's targets.
 */
export class AlarmEngine {
  private readonly db: Db;
  private readonly model: Model;
  private readonly notifier: Notifier;
  private readonly trace: TraceLog;
  private readonly now: () => number;
  private readonly rules = new Map<number, { rule: Rule; cond: ConditionState }>();
  private byVariable = new Map<string, number[]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(db: Db, model: Model, notifier: Notifier, trace: TraceLog, now: () => number) {
    this.db = db;
    this.model = model;
    this.notifier = notifier;
    this.trace = trace;
    this.now = now;
    this.reload();
  }

  /** Re-reads the rules; a rule whose definition did not change keeps its evaluation state. */
  reload(): void {
    const rows = new Map(listAlarmRows(this.db).map((a) => [a.RuleID, a]));
    const keep = new Map(this.rules);
    this.rules.clear();
    const byVariable = new Map<string, number[]>();
    for (const rule of listRules(this.db)) {
      const old = keep.get(rule.ID);
      const cond = old && old.rule.Version === rule.Version ? old.cond : new ConditionState(rule, rows.get(rule.ID)?.Active ?? false, this.now());
      this.rules.set(rule.ID, { rule, cond });
      byVariable.set(rule.VariableId, [...(byVariable.get(rule.VariableId) ?? []), rule.ID]);
    }
    this.byVariable = byVariable;
  }

  /** Samples of one variable: sample i is at (first + i) × periodUs µs since the epoch. */
  onSamples(variableId: string, first: number, periodUs: number, values: Float32Array): void {
    const ids = this.byVariable.get(variableId);
    if (!ids) return;
    for (const id of ids) {
      const entry = this.rules.get(id)!;
      for (let i = 0; i < values.length; i++) {
        const change = entry.cond.feed(((first + i) * periodUs) / 1000, values[i]!);
        if (change) this.conditionChanged(entry.rule, change);
      }
    }
  }

  /** Clock-driven work: stale data and shelving that runs out. */
  tick(now = this.now()): void {
    for (const { rule, cond } of this.rules.values()) {
      const change = cond.check(now);
      if (change) this.conditionChanged(rule, change);
    }
    const iso = new Date(now).toISOString();
    for (const a of listAlarmRows(this.db)) {
      if (a.State === "Shelved" && a.ShelvedUntil && a.ShelvedUntil <= iso) {
        const rule = this.rules.get(a.RuleID)?.rule;
        if (rule) this.transition(rule, "unshelve", { user: "", comment: "Shelving expired", time: now, automatic: true });
      }
    }
  }

  start(intervalMs = 1000): void {
    this.timer ??= setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  alarms(): Alarm[] {
    const out: Alarm[] = [];
    for (const row of listAlarmRows(this.db)) {
      const rule = this.rules.get(row.RuleID)?.rule ?? getRule(this.db, row.RuleID);
      if (!rule) continue;
      const v = this.variable(rule.VariableId);
      out.push({
        ...row,
        ID: rule.ID,
        Name: rule.Name,
        Severity: rule.Severity,
        VariableId: rule.VariableId,
        VariableName: v?.Name ?? rule.VariableId,
        DeviceId: v?.DeviceId ?? "",
        Unit: v?.Unit ?? "",
        Text: renderMessage(rule, v, row.Value),
      });
    }
    return out;
  }

  /** Acknowledges those of `ids` that await it; returns the IDs acknowledged. */
  acknowledge(ids: readonly number[], user: string, comment: string): number[] {
    const done: number[] = [];
    const time = this.now();
    for (const id of ids) {
      const rule = this.rules.get(id)?.rule;
      const row = getAlarmRow(this.db, id);
      if (!rule || !row || !awaitsAcknowledge(row.State)) continue;
      this.transition(rule, "acknowledge", { user, comment, time });
      done.push(id);
    }
    return done;
  }

  shelve(id: number, durationSec: number, reason: string, user: string): AlarmState | null {
    const rule = this.rules.get(id)?.rule;
    if (!rule) return null;
    const time = this.now();
    return this.transition(rule, "shelve", { user, comment: reason, time, shelvedUntil: time + durationSec * 1000, reason });
  }

  unshelve(id: number, user: string, comment = ""): AlarmState | null {
    const rule = this.rules.get(id)?.rule;
    return rule ? this.transition(rule, "unshelve", { user, comment, time: this.now() }) : null;
  }

  /** After a rule changed (reload first): follows InService into the alarm's state. */
  serviceChanged(id: number, user: string): void {
    const rule = this.rules.get(id)?.rule;
    if (!rule) return;
    this.transition(rule, rule.InService ? "enable" : "disable", { user, comment: "", time: this.now() });
  }

  private variable(id: string): Variable | undefined {
    return this.model.variables.find((v) => v.Id === id);
  }

  private conditionChanged(rule: Rule, change: ConditionChange): void {
    this.transition(rule, change.active ? "activate" : "clear", { user: "", comment: "", time: change.t, value: change.value });
  }

  private transition(rule: Rule, event: AlarmEvent, a: Action): AlarmState | null {
    const run = () => {
      const row = getAlarmRow(this.db, rule.ID);
      if (!row) return null;
      if (event === "activate") row.Active = true;
      if (event === "clear") row.Active = false;
      if (a.value !== undefined) row.Value = a.value;
      const from = row.State;
      const to = nextState(from, event, row.Active);
      const iso = new Date(a.time).toISOString();
      if (to === null) {
        // Shelved or out of service: the condition is followed, nothing is announced.
        saveAlarmRow(this.db, row);
        return null;
      }
      row.State = to;
      row.Since = iso;
      if (to === "ActiveUnacknowledged") {
        row.ActivatedAt = iso;
        row.AckedBy = "";
        row.AckedAt = null;
        row.AckComment = "";
      }
      if (event === "acknowledge") {
        row.AckedBy = a.user;
        row.AckedAt = iso;
        row.AckComment = a.comment;
      }
      if (event === "shelve") {
        row.ShelvedUntil = new Date(a.shelvedUntil!).toISOString();
        row.ShelvedBy = a.user;
        row.ShelveReason = a.reason ?? "";
      }
      if (event === "unshelve") {
        row.ShelvedUntil = null;
        row.ShelvedBy = "";
        row.ShelveReason = "";
      }
      saveAlarmRow(this.db, row);
      const name = a.automatic && event === "unshelve" ? "ShelveExpired" : EVENT_NAME[event];
      addHistory(this.db, {
        RuleID: rule.ID,
        RuleName: rule.Name,
        VariableId: rule.VariableId,
        Severity: rule.Severity,
        Event: name,
        FromState: from,
        ToState: to,
        Value: row.Value,
        User: a.user,
        Comment: a.comment,
        Timestamp: iso,
      });
      const v = this.variable(rule.VariableId);
      const text = this.messageText(rule, v, row, event, a);
      postMessage(this.db, { Sender: SENDER, Topic: rule.Name, Type: this.messageType(rule, to, event), Text: text, Args: [name, to] });
      return { row, name, text, to, from };
    };
    const done = this.db.isTransaction ? run() : tx(this.db, run);
    if (!done) return null;
    this.trace.add(done.to === "ActiveUnacknowledged" ? "warn" : "info", "alarms", `${rule.Name}: ${done.name} ${done.from} → ${done.to}${a.user ? ` by ${a.user}` : ""}`);
    const notifyAs: NotifyEvent | null = done.to === "ActiveUnacknowledged" ? "activate" : event === "clear" ? "clear" : event === "acknowledge" ? "acknowledge" : null;
    if (notifyAs && rule.NotifyOn.includes(notifyAs) && rule.NotifyTargets.length) {
      this.notifier.notify(rule.NotifyTargets, {
        Event: notifyAs,
        RuleID: rule.ID,
        Rule: rule.Name,
        Severity: rule.Severity,
        State: done.to,
        Value: done.row.Value,
        Unit: this.variable(rule.VariableId)?.Unit ?? "",
        Text: done.text,
        User: a.user,
        Comment: a.comment,
        Timestamp: new Date(a.time).toISOString(),
      });
    }
    return done.to;
  }

  private messageType(rule: Rule, to: AlarmState, event: AlarmEvent): MessageType {
    if (to === "ActiveUnacknowledged") return ACTIVATION_TYPE[rule.Severity];
    if (event === "clear") return "Success";
    return "Info";
  }

  private messageText(rule: Rule, v: Variable | undefined, row: AlarmRow, event: AlarmEvent, a: Action): string {
    const by = a.user ? ` by ${a.user}` : "";
    const comment = a.comment ? `: ${a.comment}` : "";
    switch (event) {
      case "activate":
        return renderMessage(rule, v, row.Value);
      case "clear":
        return `${rule.Name} returned to normal${row.Value === null ? "" : ` (${renderMessage({ ...rule, Message: "{value} {unit}" }, v, row.Value).trim()})`}`;
      case "acknowledge":
        return `${rule.Name} acknowledged${by}${comment}`;
      case "shelve":
        return `${rule.Name} shelved${by} until ${row.ShelvedUntil}${comment}`;
      case "unshelve":
        return a.automatic ? `${rule.Name}: shelving expired` : `${rule.Name} unshelved${by}`;
      case "disable":
        return `${rule.Name} taken out of service${by}`;
      case "enable":
        return `${rule.Name} returned to service${by}`;
    }
  }
}
