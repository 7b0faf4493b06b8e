import type { Model, Variable } from "../model/types.ts";
import type { Db } from "../store/db.ts";
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
import { messageFields, renderMessage } from "./template.ts";
import type { MessageFields } from "./template.ts";
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
  /** What Text is made of, for a reader in another language. */
  Fields: MessageFields;
};

type Action = { user: string; comment: string; time: number; value?: number | null; shelvedUntil?: number; reason?: string; automatic?: boolean };

/**
 * Evaluates every rule on the samples as they arrive and drives each rule's one alarm through
 * the ISA-18.2 lifecycle. Each transition is stored in the alarm's row and history, written
 * as a message (Sender Alarming, Topic = rule name) and sent to the rule's targets.
 *
 * The store answers asynchronously, so every change of state (transitions, reloads) runs in one
 * queue, one after another in the order it arose: two evaluations never interleave their reads
 * and writes, and an alarm's history is in the order of its samples.
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
  /** The end of the last queued change of state. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(db: Db, model: Model, notifier: Notifier, trace: TraceLog, now: () => number) {
    this.db = db;
    this.model = model;
    this.notifier = notifier;
    this.trace = trace;
    this.now = now;
    this.background(this.reload());
  }

  /** Runs fn after every change queued before it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const done = this.queue.then(fn);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Work nobody awaits (sample-driven, clock-driven): a failure goes to the trace. */
  private background(p: Promise<unknown>): void {
    p.catch((err: unknown) => this.trace.add("error", "alarms", `Alarm evaluation failed: ${(err as Error).message}`));
  }

  /** Resolves when everything queued so far is stored (tests, shutdown). */
  settled(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  /** Re-reads the rules; a rule whose definition did not change keeps its evaluation state. */
  reload(): Promise<void> {
    return this.serial(() => this.load());
  }

  private async load(): Promise<void> {
    const rows = new Map((await listAlarmRows(this.db)).map((a) => [a.RuleID, a]));
    const list = await listRules(this.db);
    const keep = new Map(this.rules);
    this.rules.clear();
    const byVariable = new Map<string, number[]>();
    for (const rule of list) {
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

  /** Clock-driven work: stale data and shelving that runs out. Resolves when it is stored. */
  tick(now = this.now()): Promise<void> {
    for (const { rule, cond } of this.rules.values()) {
      const change = cond.check(now);
      if (change) this.conditionChanged(rule, change);
    }
    const iso = new Date(now).toISOString();
    return this.serial(async () => {
      for (const a of await listAlarmRows(this.db)) {
        if (a.State === "Shelved" && a.ShelvedUntil && a.ShelvedUntil <= iso) {
          const rule = this.rules.get(a.RuleID)?.rule;
          if (rule) await this.transition(rule, "unshelve", { user: "", comment: "Shelving expired", time: now, automatic: true });
        }
      }
    });
  }

  start(intervalMs = 1000): void {
    this.timer ??= setInterval(() => this.background(this.tick()), intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async alarms(): Promise<Alarm[]> {
    const out: Alarm[] = [];
    for (const row of await listAlarmRows(this.db)) {
      const rule = this.rules.get(row.RuleID)?.rule ?? (await getRule(this.db, row.RuleID));
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
        Fields: messageFields(rule, v, row.Value),
      });
    }
    return out;
  }

  /** Acknowledges those of `ids` that await it; returns the IDs acknowledged. */
  acknowledge(ids: readonly number[], user: string, comment: string): Promise<number[]> {
    const time = this.now();
    return this.serial(async () => {
      const done: number[] = [];
      for (const id of ids) {
        const rule = this.rules.get(id)?.rule;
        const row = await getAlarmRow(this.db, id);
        if (!rule || !row || !awaitsAcknowledge(row.State)) continue;
        await this.transition(rule, "acknowledge", { user, comment, time });
        done.push(id);
      }
      return done;
    });
  }

  shelve(id: number, durationSec: number, reason: string, user: string): Promise<AlarmState | null> {
    const time = this.now();
    return this.serial(async () => {
      const rule = this.rules.get(id)?.rule;
      if (!rule) return null;
      return this.transition(rule, "shelve", { user, comment: reason, time, shelvedUntil: time + durationSec * 1000, reason });
    });
  }

  unshelve(id: number, user: string, comment = ""): Promise<AlarmState | null> {
    const time = this.now();
    return this.serial(async () => {
      const rule = this.rules.get(id)?.rule;
      return rule ? this.transition(rule, "unshelve", { user, comment, time }) : null;
    });
  }

  /** After a rule changed (reload first): follows InService into the alarm's state. */
  serviceChanged(id: number, user: string): Promise<void> {
    const time = this.now();
    return this.serial(async () => {
      const rule = this.rules.get(id)?.rule;
      if (rule) await this.transition(rule, rule.InService ? "enable" : "disable", { user, comment: "", time });
    });
  }

  private variable(id: string): Variable | undefined {
    return this.model.variables.find((v) => v.Id === id);
  }

  private conditionChanged(rule: Rule, change: ConditionChange): void {
    const action: Action = { user: "", comment: "", time: change.t, value: change.value };
    this.background(this.serial(() => this.transition(rule, change.active ? "activate" : "clear", action)));
  }

  /** One transition, stored in one tx; only from inside the queue (serial). */
  private async transition(rule: Rule, event: AlarmEvent, a: Action): Promise<AlarmState | null> {
    const done = await this.db.tx(async (q) => {
      const row = await getAlarmRow(q, rule.ID);
      if (!row) return null;
      if (event === "activate") row.Active = true;
      if (event === "clear") row.Active = false;
      // The row keeps the value that raised the alarm (shown as "value at activation"); the
      // value of any other condition change goes to the history and the message only.
      if (a.value !== undefined && event === "activate") row.Value = a.value;
      const eventValue = a.value !== undefined ? a.value : row.Value;
      const from = row.State;
      const to = nextState(from, event, row.Active);
      const iso = new Date(a.time).toISOString();
      if (to === null) {
        // Shelved or out of service: the condition is followed, nothing is announced.
        await saveAlarmRow(q, row);
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
      await saveAlarmRow(q, row);
      const name = a.automatic && event === "unshelve" ? "ShelveExpired" : EVENT_NAME[event];
      await addHistory(q, {
        RuleID: rule.ID,
        RuleName: rule.Name,
        VariableId: rule.VariableId,
        Severity: rule.Severity,
        Event: name,
        FromState: from,
        ToState: to,
        Value: eventValue,
        User: a.user,
        Comment: a.comment,
        Timestamp: iso,
      });
      const v = this.variable(rule.VariableId);
      const text = this.messageText(rule, v, row, event, a, eventValue);
      // The text in English, and what it says as fields for a reader in another language (the
      // value of this event, as the text says it: the clearing value on a clear).
      const fields = {
        Event: name,
        ...messageFields(rule, v, eventValue),
        User: a.user,
        Comment: a.comment,
        ...(event === "shelve" ? { ShelvedUntil: row.ShelvedUntil } : {}),
      };
      await postMessage(q, { Sender: SENDER, Topic: rule.Name, Type: this.messageType(rule, to, event), Text: text, Args: [name, to], Fields: fields });
      return { row, name, text, to, from };
    });
    if (!done) return null;
    this.trace.add(done.to === "ActiveUnacknowledged" ? "warn" : "info", "alarms", `${rule.Name}: ${done.name} ${done.from} → ${done.to}${a.user ? ` by ${a.user}` : ""}`);
    const notifyAs: NotifyEvent | null = done.to === "ActiveUnacknowledged" ? "activate" : event === "clear" ? "clear" : event === "acknowledge" ? "acknowledge" : null;
    if (notifyAs && rule.NotifyOn.includes(notifyAs) && rule.NotifyTargets.length) {
      await this.notifier.notify(rule.NotifyTargets, {
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

  private messageText(rule: Rule, v: Variable | undefined, row: AlarmRow, event: AlarmEvent, a: Action, value: number | null): string {
    const by = a.user ? ` by ${a.user}` : "";
    const comment = a.comment ? `: ${a.comment}` : "";
    switch (event) {
      case "activate":
        return renderMessage(rule, v, row.Value);
      case "clear":
        return `${rule.Name} returned to normal${value === null ? "" : ` (${renderMessage({ ...rule, Message: "{value} {unit}" }, v, value).trim()})`}`;
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
