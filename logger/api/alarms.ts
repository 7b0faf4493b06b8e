import { z } from "zod";
import { NOTIFY_EVENTS, RULE_TYPES, SEVERITIES, ALARM_STATES } from "../alarms/types.ts";
import type { Rule } from "../alarms/types.ts";
import { conflict, invalidParam, notFound, refused } from "../http/errors.ts";
import { deleteRule, getRule, insertRule, listRules, queryHistory, ruleByName, updateRule } from "../store/alarms.ts";
import type { RuleInput } from "../store/alarms.ts";
import type { Db } from "../store/db.ts";
import { getTarget } from "../store/notifications.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { nameField } from "./schemas.ts";

const API = "AlarmAPI";
const PERMISSION = "UseRulesNotifications";

const finite = z.number().finite();
const ruleFields = {
  Name: nameField(100),
  VariableId: z.string().min(1).max(100),
  Type: z.enum(RULE_TYPES),
  Severity: z.enum(SEVERITIES),
  High: finite.nullable(),
  Low: finite.nullable(),
  Deadband: finite.min(0),
  RatePerSec: finite.positive().nullable(),
  WindowSec: finite.min(0.01).max(3600),
  StaleSec: finite.positive().max(7 * 86400).nullable(),
  State: z.union([z.literal(0), z.literal(1)]).nullable(),
  OnDelaySec: finite.min(0).max(86400),
  OffDelaySec: finite.min(0).max(86400),
  Message: z.string().max(500),
  InService: z.boolean(),
  NotifyTargets: z.array(z.number().int().positive()).max(50),
  NotifyOn: z.array(z.enum(NOTIFY_EVENTS)).max(3),
};
const DEFAULTS = { Severity: "medium", High: null, Low: null, Deadband: 0, RatePerSec: null, WindowSec: 1, StaleSec: null, State: null, OnDelaySec: 0, OffDelaySec: 0, Message: "", InService: true, NotifyTargets: [], NotifyOn: ["activate"] } as const;

// What each type needs; checked on the merged rule, so SetRule may send only what changes.
const completeRule = z.object(ruleFields).superRefine((r, issue) => {
  const need = (field: keyof typeof ruleFields, ok: boolean, message: string) => {
    if (!ok) issue.addIssue({ code: "custom", path: [field], message });
  };
  if (r.Type === "high" || r.Type === "range") need("High", r.High !== null, `Required for a ${r.Type} rule`);
  if (r.Type === "low" || r.Type === "range") need("Low", r.Low !== null, `Required for a ${r.Type} rule`);
  if (r.Type === "range" && r.High !== null && r.Low !== null) need("High", r.High > r.Low, "Must be above Low");
  if (r.Type === "range" && r.High !== null && r.Low !== null && r.High > r.Low) need("Deadband", r.Deadband * 2 < r.High - r.Low, "Must be less than half the range");
  if (r.Type === "rate") need("RatePerSec", r.RatePerSec !== null, "Required for a rate rule");
  if (r.Type === "stale") need("StaleSec", r.StaleSec !== null, "Required for a stale rule");
  if (r.Type === "digital") need("State", r.State !== null, "Required for a digital rule (0 or 1)");
});

// Checks targets and the name against the store: call it inside the write's tx (q).
async function validRule(ctx: CallContext, q: Db, input: unknown, selfId: number | null): Promise<RuleInput> {
  const parsed = completeRule.safeParse(input);
  if (!parsed.success) {
    throw invalidParam(parsed.error.issues.map((i) => `Invalid parameter Rule.${i.path.join(".")}: ${i.message}`).join("; "));
  }
  const r = parsed.data;
  if (ctx.data.model.variables.length && !ctx.data.model.variables.some((v) => v.Id === r.VariableId)) {
    throw invalidParam(`Invalid parameter Rule.VariableId: Unknown variable ${r.VariableId}`);
  }
  for (const id of r.NotifyTargets) {
    if (!(await getTarget(q, id))) throw invalidParam(`Invalid parameter Rule.NotifyTargets: Target ${id} does not exist`);
  }
  const clash = await ruleByName(q, r.Name);
  if (clash && clash.ID !== selfId) throw refused(`A rule named ${r.Name} already exists`).coded("ruleNameTaken", { name: r.Name });
  return { ...r, NotifyTargets: [...new Set(r.NotifyTargets)], NotifyOn: [...new Set(r.NotifyOn)] };
}

const partial = z.looseObject({});
const iso = z
  .string()
  .optional()
  .refine((s) => !s || !Number.isNaN(Date.parse(s)), { message: "Use an ISO 8601 date-time or an empty string" })
  .transform((s) => (s ? new Date(s).toISOString() : undefined));
const any = z.string().max(100).optional().transform((s) => s || undefined);

async function requireRule(db: Db, id: number): Promise<Rule> {
  const rule = await getRule(db, id);
  if (!rule) throw notFound(`Alarm rule ${id} not found`);
  return rule;
}

export const alarmMethods: Registry = {
  [`${API}.GetRules`]: method({
    params: z.object({}),
    permission: PERMISSION,
    handler: async (_p, ctx) => ({ Rules: await listRules(ctx.db) }),
  }),

  // The limits of the rules that have them, for drawing on charts, gauges and bars (issue 26 §6):
  // any signed-in caller, as anyone who may see a variable's chart may see where its limits lie
  // (names, messages and targets stay behind UseRulesNotifications).
  [`${API}.GetLimits`]: method({
    params: z.object({ VariableIds: z.array(z.string().min(1).max(100)).max(1000).optional() }),
    permission: null,
    handler: async (p, ctx) => {
      const wanted = p.VariableIds ? new Set(p.VariableIds) : null;
      const Limits = (await listRules(ctx.db))
        .filter((r) => r.InService && (r.Type === "high" || r.Type === "low" || r.Type === "range") && (!wanted || wanted.has(r.VariableId)))
        .map((r) => ({ RuleID: r.ID, Name: r.Name, VariableId: r.VariableId, Type: r.Type, Severity: r.Severity, High: r.Type === "low" ? null : r.High, Low: r.Type === "high" ? null : r.Low }));
      return { Limits };
    },
  }),

  [`${API}.AddRule`]: method({
    params: z.object({ Rule: partial }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      const id = await ctx.db.tx(async (q) => {
        const rule = await validRule(ctx, q, { ...DEFAULTS, ...p.Rule }, null);
        const id = await insertRule(q, rule, new Date(ctx.data.now()).toISOString());
        await ctx.audit(`Added alarm rule ${rule.Name}`, q);
        return id;
      });
      await ctx.alarms.reload();
      return { ID: id };
    },
  }),

  [`${API}.SetRule`]: method({
    params: z.object({ Rule: z.looseObject({ ID: z.number().int().positive(), Version: z.number().int().optional() }) }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      const { ID, Version, ...changes } = p.Rule;
      // Read, version check, validation and write in one tx: another edit cannot land in between.
      const changed = await ctx.db.tx(async (q) => {
        const before = await requireRule(q, ID);
        if (Version !== undefined && Version !== before.Version) throw conflict("This rule was changed by someone else meanwhile; reload and try again").coded("stale");
        const { ID: _id, Version: _v, ...stored } = before;
        const rule = await validRule(ctx, q, { ...stored, ...changes }, ID);
        const changed = (Object.keys(rule) as (keyof RuleInput)[]).filter((k) => JSON.stringify(rule[k]) !== JSON.stringify(before[k]));
        if (changed.length === 0) return changed;
        await updateRule(q, ID, rule);
        await ctx.audit(`Changed alarm rule ${rule.Name}: ${changed.join(", ")}`, q);
        return changed;
      });
      if (changed.length === 0) return {};
      await ctx.alarms.reload();
      if (changed.includes("InService")) await ctx.alarms.serviceChanged(ID, ctx.me.username);
      return {};
    },
  }),

  [`${API}.RemoveRule`]: method({
    params: z.object({ ID: z.number().int().positive() }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      await ctx.db.tx(async (q) => {
        const rule = await requireRule(q, p.ID);
        await deleteRule(q, p.ID);
        await ctx.audit(`Removed alarm rule ${rule.Name}`, q);
      });
      await ctx.alarms.reload();
      return {};
    },
  }),

  [`${API}.GetAlarms`]: method({
    params: z.object({
      Filter: z.object({ Severity: any, State: z.enum(ALARM_STATES).or(z.literal("")).optional(), DeviceId: any, Since: iso }).prefault({}),
    }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      const f = p.Filter;
      const all = await ctx.alarms.alarms();
      const alarms = all.filter(
        (a) => (!f.Severity || a.Severity === f.Severity) && (!f.State || a.State === f.State) && (!f.DeviceId || a.DeviceId === f.DeviceId) && (!f.Since || a.Since >= f.Since),
      );
      return { Alarms: alarms, ...summary(all) };
    },
  }),

  [`${API}.GetSummary`]: method({
    params: z.object({}),
    permission: PERMISSION,
    handler: async (_p, ctx) => summary(await ctx.alarms.alarms()),
  }),

  [`${API}.GetHistory`]: method({
    params: z.object({
      Filter: z.object({ RuleID: z.number().int().positive().optional(), Severity: any, DeviceId: any }).prefault({}),
      From: iso,
      To: iso,
      Limit: z.number().int().min(0).max(5000).default(100),
      Offset: z.number().int().min(0).default(0),
    }),
    permission: PERMISSION,
    handler: (p, ctx) => {
      const deviceId = p.Filter.DeviceId;
      const variableIds = deviceId ? ctx.data.model.variables.filter((v) => v.DeviceId === deviceId).map((v) => v.Id) : undefined;
      return queryHistory(ctx.db, { ...p.Filter, VariableIds: variableIds, From: p.From, To: p.To, Limit: p.Limit, Offset: p.Offset });
    },
  }),

  [`${API}.Acknowledge`]: method({
    params: z.object({ IDs: z.array(z.number().int().positive()).min(1).max(500), Comment: z.string().trim().max(1000).default("") }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      for (const id of p.IDs) await requireRule(ctx.db, id);
      const done = await ctx.alarms.acknowledge(p.IDs, ctx.me.username, p.Comment);
      if (done.length === 0) throw p.IDs.length === 1 ? refused("This alarm does not await acknowledgement").coded("notAwaitingAck") : refused("None of these alarms awaits acknowledgement").coded("noneAwaitingAck");
      return { Acknowledged: done };
    },
  }),

  [`${API}.Shelve`]: method({
    params: z.object({ ID: z.number().int().positive(), DurationSec: z.number().int().min(1).max(7 * 86400), Reason: z.string().trim().min(1).max(500) }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      const rule = await requireRule(ctx.db, p.ID);
      const state = await ctx.alarms.shelve(p.ID, p.DurationSec, p.Reason, ctx.me.username);
      if (!state) throw refused(`${rule.Name} is out of service and cannot be shelved`).coded("outOfService", { name: rule.Name });
      return { State: state };
    },
  }),

  [`${API}.Unshelve`]: method({
    params: z.object({ ID: z.number().int().positive() }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      const rule = await requireRule(ctx.db, p.ID);
      const state = await ctx.alarms.unshelve(p.ID, ctx.me.username);
      if (!state) throw refused(`${rule.Name} is not shelved`).coded("notShelved", { name: rule.Name });
      return { State: state };
    },
  }),
};

function summary(alarms: { State: string }[]) {
  return {
    Unacknowledged: alarms.filter((a) => a.State === "ActiveUnacknowledged" || a.State === "ReturnedUnacknowledged").length,
    Active: alarms.filter((a) => a.State === "ActiveUnacknowledged" || a.State === "ActiveAcknowledged").length,
    Shelved: alarms.filter((a) => a.State === "Shelved").length,
  };
}
