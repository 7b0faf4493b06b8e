import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Link, useSearchParams } from "react-router";
import { ruleSchema, targetSchema, toLoggerRule, toLoggerTarget } from "~/schemas/rules";
import { keptData, stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { alarmRulesAnswer, deliveriesAnswer, emptyAnswer, idAnswer, targetsAnswer, testNotificationAnswer } from "~/services/logger/schemas";
import { failureOf, loggerReply } from "~/services/submission.server";
import { loadVariables } from "~/services/variables.server";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { buttonClass } from "~/ui/FormField";
import { pageTitle } from "~/ui/title";
import { Toast } from "~/ui/Toasts";
import { panelHref, withoutPanels } from "~/ui/pageState";
import { Panel } from "~/ui/Panel";
import { Deliveries } from "~/ui/rules/Deliveries";
import { RuleForm } from "~/ui/rules/RuleForm";
import { RulesTable } from "~/ui/rules/RulesTable";
import { TargetForm } from "~/ui/rules/TargetForm";
import { TargetsTable } from "~/ui/rules/TargetsTable";
import type { Route } from "./+types/rulesNotifications";

// Alarm rules, notification targets and the delivery log; the forms and tables live in app/ui/rules.

const INTENTS = ["addRule", "editRule", "removeRule", "addTarget", "editTarget", "removeTarget", "test"] as const;
const PANELS = ["addRule", "editRule", "removeRule", "addTarget", "editTarget", "removeTarget"];
const RULE_FIELDS = { name: /\bname\b/i, variable: /variable/i, high: /\.High\b/, low: /\.Low\b/, deadband: /Deadband/, rate: /RatePerSec/, stale: /StaleSec/, state: /\.State\b/ };
const TARGET_FIELDS = { name: /\bname\b/i, url: /\.URL\b/, to: /\.To\b/, from: /\.From\b/, smtpHost: /SmtpHost/ };
const DELIVERIES = 20;

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "rulesNotifications");
  const { logger } = stateOf(args.context);
  const [{ Rules }, { Targets }, deliveries, { variables }] = await Promise.all([
    logger.readFreshRpc("AlarmAPI.GetRules", {}, alarmRulesAnswer),
    logger.readFreshRpc("NotificationAPI.GetTargets", {}, targetsAnswer),
    logger.readFreshRpc("NotificationAPI.GetDeliveries", { Limit: DELIVERIES, Offset: 0 }, deliveriesAnswer),
    loadVariables(logger),
  ]);
  return keptData(args.context, {
    rules: Rules,
    targets: Targets,
    deliveries: deliveries.Deliveries,
    variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName, DataFormat: v.DataFormat })),
    // The logger lets only administrators point it at hosts (no SSRF), others only at NOTIFY_ALLOW's.
    chooseTargets: holds(auth, "ManageGlobalSettings"),
  });
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "rulesNotifications");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const done = (key: string, type: "success" | "error" = "success", values?: Record<string, unknown>) =>
    redirectWithToast(args.context, "/rulesNotifications", { type, text: t(key, values) });
  const refusal = (caught: unknown) => {
    const error = failureOf(caught, t);
    return data({ intent, result: null, error: error.message, nonce: crypto.randomUUID() }, { status: error.status });
  };

  if (intent === "removeRule" || intent === "removeTarget") {
    requireConfirmation(formData);
    try {
      await logger.rpc(intent === "removeRule" ? "AlarmAPI.RemoveRule" : "NotificationAPI.RemoveTarget", { ID: readId(formData.get("id")) }, emptyAnswer);
    } catch (error) {
      return refusal(error);
    }
    return done(intent === "removeRule" ? "rules.ruleRemoved" : "rules.targetRemoved");
  }

  if (intent === "test") {
    try {
      const answer = await logger.rpc("NotificationAPI.Test", { ID: readId(formData.get("id")) }, testNotificationAnswer);
      return answer.Delivered ? done("rules.testDelivered") : done("rules.testFailed", "error", { error: answer.Error });
    } catch (error) {
      return refusal(error);
    }
  }

  if (intent === "addRule" || intent === "editRule") {
    const submission = parseWithZod(formData, { schema: ruleSchema });
    // No status: the form was posted to show another type's fields (no JavaScript), not to save.
    if (submission.status !== "success") return data({ intent, result: submission.reply(), error: null, nonce: null }, { status: submission.status ? 400 : 200 });
    const v = submission.value;
    try {
      if (intent === "addRule") await logger.rpc("AlarmAPI.AddRule", { Rule: toLoggerRule(v) }, idAnswer);
      else await logger.rpc("AlarmAPI.SetRule", { Rule: { ID: v.id, Version: v.version, ...toLoggerRule(v) } }, emptyAnswer);
    } catch (caught) {
      const error = failureOf(caught, t);
      const reply = loggerReply(submission, error, { conflict: t("rules.conflict"), fields: RULE_FIELDS });
      return data({ intent, result: reply.result, error: null, nonce: null }, { status: reply.status });
    }
    return done(intent === "addRule" ? "rules.ruleAdded" : "rules.ruleSaved");
  }

  const submission = parseWithZod(formData, { schema: targetSchema });
  const hideFields = ["smtpPassword", "secret"];
  if (submission.status !== "success") return data({ intent, result: submission.reply({ hideFields }), error: null, nonce: null }, { status: 400 });
  const v = submission.value;
  try {
    if (intent === "addTarget") await logger.rpc("NotificationAPI.AddTarget", { Target: toLoggerTarget(v) }, idAnswer);
    else await logger.rpc("NotificationAPI.SetTarget", { Target: { ID: v.id, Version: v.version, ...toLoggerTarget(v) } }, emptyAnswer);
  } catch (caught) {
    const error = failureOf(caught, t);
    const reply = loggerReply(submission, error, { conflict: t("rules.conflict"), fields: TARGET_FIELDS, hideFields });
    return data({ intent, result: reply.result, error: null, nonce: null }, { status: reply.status });
  }
  return done(intent === "addTarget" ? "rules.targetAdded" : "rules.targetSaved");
}

export default function RulesNotifications({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { rules, targets, deliveries, variables } = loaderData;
  const listHref = `?${withoutPanels(params, PANELS)}`;
  const lastResult = (intent: string) => (actionData?.intent === intent ? (actionData.result ?? undefined) : undefined);
  const rule = (key: string) => rules.find((r) => String(r.ID) === params.get(key));
  const target = (key: string) => targets.find((x) => String(x.ID) === params.get(key));
  const editingRule = rule("editRule");
  const removingRule = rule("removeRule");
  const editingTarget = target("editTarget");
  const removingTarget = target("removeTarget");
  const addTargetType = params.get("addTarget") === "webhook" ? "webhook" : "email";
  const variableName = (id: string) => {
    const v = variables.find((x) => x.Id === id);
    return v ? `${v.deviceName ? `${v.deviceName} › ` : ""}${v.Name}` : id;
  };

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("rules.title")}</h1>
        <Link to="/alarming" className="text-brand hover:underline">
          {t("rules.backToAlarming")}
        </Link>
      </div>
      {actionData?.error && <Toast key={actionData.nonce} toast={{ type: "error", text: actionData.error }} />}

      {params.has("addRule") && (
        <Panel title={t("rules.addRuleTitle")}>
          <RuleForm key="add" intent="addRule" variables={variables} targets={targets} lastResult={lastResult("addRule")} cancelHref={listHref} />
        </Panel>
      )}
      {params.has("editRule") && (
        <Panel title={editingRule ? t("rules.editRuleTitle", { name: editingRule.Name }) : t("rules.notFound")}>
          {editingRule && <RuleForm key={`edit-${editingRule.ID}-${editingRule.Version}`} intent="editRule" rule={editingRule} variables={variables} targets={targets} lastResult={lastResult("editRule")} cancelHref={listHref} />}
        </Panel>
      )}
      {removingRule && (
        <ConfirmPanel
          title={t("rules.removeRuleTitle", { name: removingRule.Name })}
          message={t("rules.removeRuleMessage", { name: removingRule.Name })}
          confirmLabel={t("common.remove")}
          fields={{ intent: "removeRule", id: String(removingRule.ID) }}
          cancelHref={listHref}
        />
      )}
      {params.has("addTarget") && (
        <Panel title={t(`rules.addTargetTitle.${addTargetType}`)}>
          <TargetForm key={`add-${addTargetType}`} intent="addTarget" type={addTargetType} lastResult={lastResult("addTarget")} cancelHref={listHref} />
        </Panel>
      )}
      {params.has("editTarget") && (
        <Panel title={editingTarget ? t("rules.editTargetTitle", { name: editingTarget.Name }) : t("rules.notFound")}>
          {editingTarget && <TargetForm key={`edit-${editingTarget.ID}-${editingTarget.Version}`} intent="editTarget" type={editingTarget.Type} target={editingTarget} lastResult={lastResult("editTarget")} cancelHref={listHref} />}
        </Panel>
      )}
      {removingTarget && (
        <ConfirmPanel
          title={t("rules.removeTargetTitle", { name: removingTarget.Name })}
          message={t("rules.removeTargetMessage", { name: removingTarget.Name })}
          confirmLabel={t("common.remove")}
          fields={{ intent: "removeTarget", id: String(removingTarget.ID) }}
          cancelHref={listHref}
        />
      )}

      <section aria-labelledby="rules-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="rules-title" className="text-lg font-semibold">
            {t("rules.rulesTitle")}
          </h2>
          <Link to={panelHref(params, PANELS, "addRule")} className={buttonClass} preventScrollReset>
            {t("rules.addRule")}
          </Link>
        </div>
        <RulesTable rules={rules} targets={targets} variableName={variableName} editHref={(id) => panelHref(params, PANELS, "editRule", id)} removeHref={(id) => panelHref(params, PANELS, "removeRule", id)} listHref={listHref} />
      </section>

      <section aria-labelledby="targets-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="targets-title" className="text-lg font-semibold">
              {t("rules.targetsTitle")}
            </h2>
            {!loaderData.chooseTargets && (
              <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="targets-admin-note">
                {t("rules.targetsAdminOnly")}
              </p>
            )}
          </div>
          <div className="flex gap-2">
            <Link to={panelHref(params, PANELS, "addTarget", "email")} className={buttonClass} preventScrollReset>
              {t("rules.addEmail")}
            </Link>
            <Link to={panelHref(params, PANELS, "addTarget", "webhook")} className={buttonClass} preventScrollReset>
              {t("rules.addWebhook")}
            </Link>
          </div>
        </div>
        <TargetsTable targets={targets} editHref={(id) => panelHref(params, PANELS, "editTarget", id)} removeHref={(id) => panelHref(params, PANELS, "removeTarget", id)} listHref={listHref} />
      </section>

      <Deliveries deliveries={deliveries} />
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "rules.title");
}
