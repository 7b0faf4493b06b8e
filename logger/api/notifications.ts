import { z } from "zod";
import { hostAllowListed, isSpecialAddress } from "../alarms/egress.ts";
import { conflict, forbidden, invalidParam, notFound, refused } from "../http/errors.ts";
import { listRules } from "../store/alarms.ts";
import type { Db } from "../store/db.ts";
import { deleteTarget, getTarget, insertTarget, listDeliveries, listTargets, targetByName, updateTarget } from "../store/notifications.ts";
import type { Target, TargetInput } from "../store/notifications.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { nameField } from "./schemas.ts";

const API = "NotificationAPI";
const PERMISSION = "UseRulesNotifications";
/** Who may point the logger at a host: administrators, or anyone for hosts on NOTIFY_ALLOW. */
const TARGET_ADMIN = "ManageGlobalSettings";

const email = z.email();
const common = { Name: nameField(100), Enabled: z.boolean().default(true) };
// Secrets are write-only: "" (or absent) on SetTarget keeps the stored one.
const targetSchema = z.discriminatedUnion("Type", [
  z.object({
    ...common,
    Type: z.literal("email"),
    SmtpHost: z.string().trim().min(1).max(255),
    SmtpPort: z.number().int().min(1).max(65535).default(25),
    SmtpSecure: z.boolean().default(false),
    SmtpUser: z.string().max(255).default(""),
    SmtpPassword: z.string().max(255).default(""),
    From: email,
    To: z.array(email).min(1).max(20),
  }),
  z.object({
    ...common,
    Type: z.literal("webhook"),
    URL: z.url({ protocol: /^https?$/ }).max(2000),
    Secret: z.string().max(200).default(""),
  }),
]);

/** What GetTargets shows: every field, secrets replaced by whether one is set. */
function publicTarget(t: Target) {
  const base = { ID: t.ID, Name: t.Name, Type: t.Type, Enabled: t.Enabled, Version: t.Version };
  if (t.Type === "webhook") return { ...base, URL: t.Config.URL, HasSecret: t.Config.Secret !== "" };
  const { SmtpPassword, ...rest } = t.Config;
  return { ...base, ...rest, HasPassword: SmtpPassword !== "" };
}

// Checks the name is free: call it inside the write's tx (q).
async function validTarget(q: Db, input: unknown, before: Target | null): Promise<TargetInput> {
  const parsed = targetSchema.safeParse(input);
  if (!parsed.success) throw invalidParam(parsed.error.issues.map((i) => `Invalid parameter Target.${i.path.join(".")}: ${i.message}`).join("; "));
  const t = parsed.data;
  const clash = await targetByName(q, t.Name);
  if (clash && clash.ID !== before?.ID) throw refused(`A target named ${t.Name} already exists`).coded("targetNameTaken", { name: t.Name });
  if (t.Type === "webhook") {
    const kept = before?.Type === "webhook" ? before.Config.Secret : "";
    return { Name: t.Name, Enabled: t.Enabled, Type: "webhook", Config: { URL: t.URL, Secret: t.Secret || kept } };
  }
  const kept = before?.Type === "email" ? before.Config.SmtpPassword : "";
  const { Name, Enabled, Type, SmtpPassword, ...config } = t;
  return { Name, Enabled, Type, Config: { ...config, SmtpPassword: SmtpPassword || kept } };
}

const hostOf = (t: TargetInput | Target) => (t.Type === "webhook" ? new URL(t.Config.URL).hostname.replace(/^\[|\]$/g, "") : t.Config.SmtpHost);

/**
 * A target is where the logger connects to: only administrators choose one, unless its host is
 * on the allow-list. A private address given literally is refused at once unless allow-listed
 * (names are checked on their resolved address when a notification is sent).
 */
function checkDestination(ctx: CallContext, t: TargetInput | Target, opts: { choosing: boolean }) {
  const host = hostOf(t);
  const listed = hostAllowListed(ctx.notifier.allow, host);
  if (!listed && !ctx.me.permissions.has(TARGET_ADMIN)) {
    throw forbidden(`Permission denied: ${TARGET_ADMIN} required for notification targets outside NOTIFY_ALLOW`);
  }
  if (opts.choosing && !listed && (host.toLowerCase() === "localhost" || (/^[\d.:a-f]+$/i.test(host) && /[.:]/.test(host) && isSpecialAddress(host)))) {
    throw invalidParam(`Invalid parameter Target: ${host} is a loopback, link-local or private address; notifications go there only when NOTIFY_ALLOW lists it`);
  }
}

async function requireTarget(db: Db, id: number): Promise<Target> {
  const t = await getTarget(db, id);
  if (!t) throw notFound(`Target ${id} not found`);
  return t;
}

export const notificationMethods: Registry = {
  [`${API}.GetTargets`]: method({
    params: z.object({}),
    permission: PERMISSION,
    handler: async (_p, ctx) => ({ Targets: (await listTargets(ctx.db)).map(publicTarget) }),
  }),

  [`${API}.AddTarget`]: method({
    params: z.object({ Target: z.looseObject({}) }),
    permission: PERMISSION,
    handler: (p, ctx) =>
      ctx.db.tx(async (q) => {
        const t = await validTarget(q, p.Target, null);
        checkDestination(ctx, t, { choosing: true });
        const id = await insertTarget(q, t);
        await ctx.audit(`Added notification target ${t.Name}`, q);
        return { ID: id };
      }),
  }),

  [`${API}.SetTarget`]: method({
    params: z.object({ Target: z.looseObject({ ID: z.number().int().positive(), Version: z.number().int().optional() }) }),
    permission: PERMISSION,
    handler: (p, ctx) =>
      // Read, version check and write in one tx: another edit cannot land in between.
      ctx.db.tx(async (q) => {
        const { ID, Version, ...changes } = p.Target;
        const before = await requireTarget(q, ID);
        if (Version !== undefined && Version !== before.Version) throw conflict("This target was changed by someone else meanwhile; reload and try again").coded("stale");
        // Both where it pointed and where it will point must be the caller's to choose.
        checkDestination(ctx, before, { choosing: false });
        const { ID: _id, Version: _v, ...shown } = publicTarget(before);
        const after = await validTarget(q, { ...shown, ...changes }, before);
        checkDestination(ctx, after, { choosing: true });
        await updateTarget(q, ID, after);
        await ctx.audit(`Changed notification target ${before.Name}`, q);
        return {};
      }),
  }),

  [`${API}.RemoveTarget`]: method({
    params: z.object({ ID: z.number().int().positive() }),
    permission: PERMISSION,
    handler: (p, ctx) =>
      // The "still used" check and the delete in one tx: a rule added meanwhile is seen.
      ctx.db.tx(async (q) => {
        const t = await requireTarget(q, p.ID);
        checkDestination(ctx, t, { choosing: false });
        const users = (await listRules(q)).filter((r) => r.NotifyTargets.includes(p.ID));
        if (users.length) throw refused(`Target ${t.Name} is still used by: ${users.map((r) => r.Name).join(", ")}`).coded("targetInUse", { name: t.Name, rules: users.map((r) => r.Name).join(", ") });
        await deleteTarget(q, p.ID);
        await ctx.audit(`Removed notification target ${t.Name}`, q);
        return {};
      }),
  }),

  [`${API}.Test`]: method({
    params: z.object({ ID: z.number().int().positive() }),
    permission: PERMISSION,
    handler: async (p, ctx) => {
      const t = await requireTarget(ctx.db, p.ID);
      const now = new Date().toISOString();
      return ctx.notifier.test(t, {
        Event: "test",
        RuleID: null,
        Rule: "Test notification",
        Severity: "low",
        State: "Normal",
        Value: null,
        Unit: "",
        Text: `Test notification from Loggia, sent by ${ctx.me.username}`,
        User: ctx.me.username,
        Comment: "",
        Timestamp: now,
      });
    },
  }),

  [`${API}.GetDeliveries`]: method({
    params: z.object({ TargetID: z.number().int().positive().optional(), Limit: z.number().int().min(0).max(1000).default(50), Offset: z.number().int().min(0).default(0) }),
    permission: PERMISSION,
    handler: (p, ctx) => listDeliveries(ctx.db, p),
  }),
};
