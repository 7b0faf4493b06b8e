import { z } from "zod";
import { visibleOnly } from "./visibleText";

// Rules and notifications forms, shared by the forms and the action; messages are i18n keys.
// The logger enforces the same rules; these catch mistakes before a round trip.

export const RULE_TYPES = ["high", "low", "range", "rate", "stale", "digital"] as const;
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export const NOTIFY_EVENTS = ["activate", "clear", "acknowledge"] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** The condition fields each rule type uses: the form shows only these (toLoggerRule clears the rest). */
export const RULE_TYPE_FIELDS: Record<RuleType, readonly ("high" | "low" | "deadband" | "rate" | "window" | "stale" | "state")[]> = {
  high: ["high", "deadband"],
  low: ["low", "deadband"],
  range: ["low", "high", "deadband"],
  rate: ["rate", "window", "deadband"],
  stale: ["stale"],
  digital: ["state"],
};

/** A rule type from a form or query value, else the first one. */
export const ruleTypeOf = (value: unknown): RuleType => (RULE_TYPES as readonly unknown[]).includes(value) ? (value as RuleType) : "high";

const num = (max = 1e12) => z.number({ error: "rules.validation.number" }).min(-max, "rules.validation.number").max(max, "rules.validation.number");
const nonNegative = (max: number) => z.number({ error: "rules.validation.number" }).min(0, "rules.validation.nonNegative").max(max, "rules.validation.tooLarge");

const ruleName = visibleOnly(z.string({ error: "rules.validation.name" }).trim().min(1, "rules.validation.name").max(100, "rules.validation.nameLong"));

export const ruleSchema = z
  .object({
    id: z.number().int().positive().optional(),
    version: z.number().int().optional(),
    name: ruleName,
    variable: z.string({ error: "rules.validation.variable" }).min(1, "rules.validation.variable").max(100),
    type: z.enum(RULE_TYPES, { error: "rules.validation.type" }),
    severity: z.enum(SEVERITIES, { error: "rules.validation.severity" }),
    high: num().optional(),
    low: num().optional(),
    deadband: nonNegative(1e12).optional(),
    rate: z.number({ error: "rules.validation.number" }).positive("rules.validation.positive").max(1e12, "rules.validation.tooLarge").optional(),
    window: z.number({ error: "rules.validation.number" }).min(0.01, "rules.validation.window").max(3600, "rules.validation.window").optional(),
    stale: z.number({ error: "rules.validation.number" }).positive("rules.validation.positive").max(7 * 86400, "rules.validation.tooLarge").optional(),
    state: z.enum(["0", "1"], { error: "rules.validation.state" }).optional(),
    onDelay: nonNegative(86400).optional(),
    offDelay: nonNegative(86400).optional(),
    message: z.string().max(500, "rules.validation.messageLong").optional(),
    inService: z.boolean().optional(),
    targets: z.array(z.number().int().positive()).max(50).default([]),
    notifyOn: z.array(z.enum(NOTIFY_EVENTS)).default([]),
  })
  .superRefine((r, ctx) => {
    const need = (path: string, ok: boolean, message = "rules.validation.required") => {
      if (!ok) ctx.addIssue({ code: "custom", path: [path], message });
    };
    if (r.type === "high" || r.type === "range") need("high", r.high !== undefined);
    if (r.type === "low" || r.type === "range") need("low", r.low !== undefined);
    if (r.type === "range" && r.high !== undefined && r.low !== undefined) {
      need("high", r.high > r.low, "rules.validation.highAboveLow");
      if (r.high > r.low) need("deadband", (r.deadband ?? 0) * 2 < r.high - r.low, "rules.validation.deadbandRange");
    }
    if (r.type === "rate") need("rate", r.rate !== undefined);
    if (r.type === "stale") need("stale", r.stale !== undefined);
    if (r.type === "digital") need("state", r.state !== undefined);
  });
export type RuleForm = z.infer<typeof ruleSchema>;

/** The form's values as the logger's Rule; limits a type does not use are cleared. */
export function toLoggerRule(v: RuleForm) {
  const t = v.type;
  return {
    Name: v.name,
    VariableId: v.variable,
    Type: t,
    Severity: v.severity,
    High: t === "high" || t === "range" ? v.high! : null,
    Low: t === "low" || t === "range" ? v.low! : null,
    Deadband: t === "digital" || t === "stale" ? 0 : (v.deadband ?? 0),
    RatePerSec: t === "rate" ? v.rate! : null,
    WindowSec: v.window ?? 1,
    StaleSec: t === "stale" ? v.stale! : null,
    State: t === "digital" ? Number(v.state) : null,
    OnDelaySec: v.onDelay ?? 0,
    OffDelaySec: v.offDelay ?? 0,
    Message: v.message ?? "",
    InService: v.inService ?? false,
    NotifyTargets: v.targets,
    NotifyOn: v.notifyOn,
  };
}

const email = z.email({ error: "validation.email" }).max(254, "validation.email");

export const targetSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("email"),
    id: z.number().int().positive().optional(),
    version: z.number().int().optional(),
    name: ruleName,
    enabled: z.boolean().optional(),
    smtpHost: z.string({ error: "rules.validation.smtpHost" }).trim().min(1, "rules.validation.smtpHost").max(255, "rules.validation.smtpHost"),
    smtpPort: z.number({ error: "rules.validation.port" }).int("rules.validation.port").min(1, "rules.validation.port").max(65535, "rules.validation.port"),
    smtpSecure: z.boolean().optional(),
    smtpUser: z.string().max(255).optional(),
    smtpPassword: z.string().max(255).optional(),
    from: email,
    to: z
      .string({ error: "rules.validation.to" })
      .transform((s) => s.split(/[,;\s]+/).filter(Boolean))
      .pipe(z.array(email).min(1, "rules.validation.to").max(20, "rules.validation.toMany")),
  }),
  z.object({
    type: z.literal("webhook"),
    id: z.number().int().positive().optional(),
    version: z.number().int().optional(),
    name: ruleName,
    enabled: z.boolean().optional(),
    url: z.url({ protocol: /^https?$/, error: "rules.validation.url" }).max(2000, "rules.validation.url"),
    secret: z.string().max(200, "rules.validation.secretLong").optional(),
  }),
]);
export type TargetForm = z.infer<typeof targetSchema>;

export function toLoggerTarget(v: TargetForm) {
  const common = { Name: v.name, Enabled: v.enabled ?? false, Type: v.type };
  if (v.type === "webhook") return { ...common, URL: v.url, Secret: v.secret ?? "" };
  return {
    ...common,
    SmtpHost: v.smtpHost,
    SmtpPort: v.smtpPort,
    SmtpSecure: v.smtpSecure ?? false,
    SmtpUser: v.smtpUser ?? "",
    SmtpPassword: v.smtpPassword ?? "",
    From: v.from,
    To: v.to,
  };
}
