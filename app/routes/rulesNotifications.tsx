import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { NOTIFY_EVENTS, RULE_TYPES, ruleSchema, SEVERITIES, targetSchema, toLoggerRule, toLoggerTarget } from "~/schemas/rules";
import { stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { alarmRulesAnswer, deliveriesAnswer, emptyAnswer, idAnswer, targetsAnswer, testNotificationAnswer, type AlarmRule, type NotificationTarget } from "~/services/logger/schemas";
import { isRefusal, loggerReply } from "~/services/submission.server";
import { loadVariables, type VariableRow } from "~/services/variables.server";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { ConfirmAction, ConfirmPanel } from "~/ui/ConfirmAction";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { pageTitle } from "~/ui/title";
import { Toast } from "~/ui/Toasts";
import { panelHref, withoutPanels } from "~/ui/pageState";
import { Panel } from "~/ui/Panel";
import type { Route } from "./+types/rulesNotifications";

const INTENTS = ["addRule", "editRule", "removeRule", "addTarget", "editTarget", "removeTarget", "test"] as const;
const PANELS = ["addRule", "editRule", "removeRule", "addTarget", "editTarget", "removeTarget"];
const RULE_FIELDS = { name: /\bname\b/i, variable: /variable/i, high: /\.High\b/, low: /\.Low\b/, deadband: /Deadband/, rate: /RatePerSec/, stale: /StaleSec/, state: /\.State\b/ };
const TARGET_FIELDS = { name: /\bname\b/i, url: /\.URL\b/, to: /\.To\b/, from: /\.From\b/, smtpHost: /SmtpHost/ };
const DELIVERIES = 20;

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "rulesNotifications");
  const { logger } = stateOf(args.context);
  const [{ Rules }, { Targets }, deliveries, { variables }] = await Promise.all([
    logger.rpc("AlarmAPI.GetRules", {}, alarmRulesAnswer),
    logger.rpc("NotificationAPI.GetTargets", {}, targetsAnswer),
    logger.rpc("NotificationAPI.GetDeliveries", { Limit: DELIVERIES, Offset: 0 }, deliveriesAnswer),
    loadVariables(logger),
  ]);
  return {
    rules: Rules,
    targets: Targets,
    deliveries: deliveries.Deliveries,
    variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName, DataFormat: v.DataFormat })),
    // The logger lets only administrators point it at hosts (no SSRF), others only at NOTIFY_ALLOW's.
    chooseTargets: holds(auth, "ManageGlobalSettings"),
  };
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "rulesNotifications");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const done = (key: string, type: "success" | "error" = "success", values?: Record<string, unknown>) =>
    redirectWithToast(args.context, "/rulesNotifications", { type, text: t(key, values) });
  const refusal = (error: unknown) => {
    if (!isRefusal(error)) throw error;
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
    if (submission.status !== "success") return data({ intent, result: submission.reply(), error: null, nonce: null }, { status: 400 });
    const v = submission.value;
    try {
      if (intent === "addRule") await logger.rpc("AlarmAPI.AddRule", { Rule: toLoggerRule(v) }, idAnswer);
      else await logger.rpc("AlarmAPI.SetRule", { Rule: { ID: v.id, Version: v.version, ...toLoggerRule(v) } }, emptyAnswer);
    } catch (error) {
      if (!isRefusal(error)) throw error;
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
  } catch (error) {
    if (!isRefusal(error)) throw error;
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
        <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
          <table className="w-full text-left text-sm" data-testid="rules-table">
            <thead className="bg-slate-100 dark:bg-slate-700">
              <tr>
                {["name", "variable", "condition", "severity", "inService", "notify"].map((c) => (
                  <th key={c} scope="col" className="px-3 py-2">
                    {t(`rules.columns.${c}`)}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">{t("common.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.length === 0 && (
                <tr>
                  <td colSpan={7} className="px-4 py-6 text-center text-slate-500">
                    {t("rules.noRules")}
                  </td>
                </tr>
              )}
              {rules.map((r) => (
                <tr key={r.ID} className="border-t border-slate-100 dark:border-slate-700" data-rule={r.Name}>
                  <td className="px-3 py-2 font-medium">{r.Name}</td>
                  <td className="px-3 py-2">{variableName(r.VariableId)}</td>
                  <td className="px-3 py-2">
                    <Condition rule={r} />
                  </td>
                  <td className="px-3 py-2">
                    <SeverityBadge severity={r.Severity} />
                  </td>
                  <td className="px-3 py-2">{r.InService ? t("common.yes") : t("common.no")}</td>
                  <td className="px-3 py-2 text-xs">
                    {r.NotifyTargets.map((id) => targets.find((x) => x.ID === id)?.Name ?? `#${id}`).join(", ")}
                    {r.NotifyTargets.length > 0 && r.NotifyOn.length > 0 && <div className="text-slate-500">{r.NotifyOn.map((e) => t(`rules.notifyOn.${e}`)).join(", ")}</div>}
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap justify-end gap-3">
                      <Link to={panelHref(params, PANELS, "editRule", r.ID)} preventScrollReset className="text-brand hover:underline" aria-label={`${t("common.edit")} ${r.Name}`}>
                        {t("common.edit")}
                      </Link>
                      <ConfirmAction
                        label={t("common.remove")}
                        title={t("rules.removeRuleTitle", { name: r.Name })}
                        message={t("rules.removeRuleMessage", { name: r.Name })}
                        confirmLabel={t("common.remove")}
                        confirmHref={panelHref(params, PANELS, "removeRule", r.ID)}
                        fields={{ intent: "removeRule", id: String(r.ID) }}
                        cancelHref={listHref}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
        <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
          <table className="w-full text-left text-sm" data-testid="targets-table">
            <thead className="bg-slate-100 dark:bg-slate-700">
              <tr>
                {["name", "type", "destination", "enabled"].map((c) => (
                  <th key={c} scope="col" className="px-3 py-2">
                    {t(`rules.columns.${c}`)}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">{t("common.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {targets.length === 0 && (
                <tr>
                  <td colSpan={5} className="px-4 py-6 text-center text-slate-500">
                    {t("rules.noTargets")}
                  </td>
                </tr>
              )}
              {targets.map((x) => (
                <tr key={x.ID} className="border-t border-slate-100 dark:border-slate-700" data-target={x.Name}>
                  <td className="px-3 py-2 font-medium">{x.Name}</td>
                  <td className="px-3 py-2">{t(`rules.targetType.${x.Type}`)}</td>
                  <td className="break-all px-3 py-2">{x.Type === "webhook" ? x.URL : `${(x.To ?? []).join(", ")} (${x.SmtpHost}:${x.SmtpPort})`}</td>
                  <td className="px-3 py-2">{x.Enabled ? t("common.yes") : t("common.no")}</td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap items-center justify-end gap-3">
                      <Form method="post">
                        <input type="hidden" name="intent" value="test" />
                        <input type="hidden" name="id" value={x.ID} />
                        <button type="submit" className="text-brand hover:underline" aria-label={`${t("rules.sendTest")} ${x.Name}`}>
                          {t("rules.sendTest")}
                        </button>
                      </Form>
                      <Link to={panelHref(params, PANELS, "editTarget", x.ID)} preventScrollReset className="text-brand hover:underline" aria-label={`${t("common.edit")} ${x.Name}`}>
                        {t("common.edit")}
                      </Link>
                      <ConfirmAction
                        label={t("common.remove")}
                        title={t("rules.removeTargetTitle", { name: x.Name })}
                        message={t("rules.removeTargetMessage", { name: x.Name })}
                        confirmLabel={t("common.remove")}
                        confirmHref={panelHref(params, PANELS, "removeTarget", x.ID)}
                        fields={{ intent: "removeTarget", id: String(x.ID) }}
                        cancelHref={listHref}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <Deliveries deliveries={deliveries} />
    </section>
  );
}

function Condition({ rule: r }: { rule: AlarmRule }) {
  const t = useT();
  const { number } = useFormatters();
  const n = (v: number | null) => (v === null ? "—" : number(v));
  const delays = r.OnDelaySec || r.OffDelaySec ? ` · ${t("rules.delays", { on: n(r.OnDelaySec), off: n(r.OffDelaySec) })}` : "";
  const band = r.Deadband ? ` ± ${n(r.Deadband)}` : "";
  const text: Record<AlarmRule["Type"], string> = {
    high: `> ${n(r.High)}${band}`,
    low: `< ${n(r.Low)}${band}`,
    range: `∉ [${n(r.Low)}, ${n(r.High)}]${band}`,
    rate: t("rules.rateText", { rate: n(r.RatePerSec), window: n(r.WindowSec) }),
    stale: t("rules.staleText", { sec: n(r.StaleSec) }),
    digital: t("rules.digitalText", { state: r.State }),
  };
  return (
    <span>
      {t(`rules.types.${r.Type}`)}: {text[r.Type]}
      {delays}
    </span>
  );
}

function Deliveries({ deliveries }: { deliveries: Route.ComponentProps["loaderData"]["deliveries"] }) {
  const t = useT();
  const { dateTime } = useFormatters();
  return (
    <section aria-labelledby="deliveries-title" className="flex flex-col gap-3">
      <h2 id="deliveries-title" className="text-lg font-semibold">
        {t("rules.deliveriesTitle")}
      </h2>
      <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
        <table className="w-full text-left text-sm" data-testid="deliveries-table">
          <thead className="bg-slate-100 dark:bg-slate-700">
            <tr>
              {["time", "target", "event", "status", "attempts", "error"].map((c) => (
                <th key={c} scope="col" className="px-3 py-2">
                  {t(`rules.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {deliveries.length === 0 && (
              <tr>
                <td colSpan={6} className="px-4 py-6 text-center text-slate-500">
                  {t("rules.noDeliveries")}
                </td>
              </tr>
            )}
            {deliveries.map((d) => (
              <tr key={d.ID} className="border-t border-slate-100 dark:border-slate-700" data-delivery-status={d.Status}>
                <td className="whitespace-nowrap px-3 py-2">{dateTime(d.Updated)}</td>
                <td className="px-3 py-2">{d.TargetName}</td>
                <td className="px-3 py-2">{t(`rules.deliveryEvent.${d.Event}`, { defaultValue: d.Event })}</td>
                <td className="px-3 py-2">{t(`rules.deliveryStatus.${d.Status}`, { defaultValue: d.Status })}</td>
                <td className="px-3 py-2">{d.Attempts}</td>
                <td className="px-3 py-2 text-xs text-red-700">{d.LastError}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}




type VariableOption = Pick<VariableRow, "Id" | "Name" | "Unit" | "deviceName" | "DataFormat">;
const str = (v: number | null | undefined) => (v === null || v === undefined ? undefined : String(v));

function RuleForm({ intent, rule, variables, targets, lastResult, cancelHref }: { intent: "addRule" | "editRule"; rule?: AlarmRule; variables: VariableOption[]; targets: NotificationTarget[]; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: `rule-form-${intent}`,
    lastResult,
    defaultValue: rule
      ? {
          name: rule.Name,
          variable: rule.VariableId,
          type: rule.Type,
          severity: rule.Severity,
          high: str(rule.High),
          low: str(rule.Low),
          deadband: str(rule.Deadband),
          rate: str(rule.RatePerSec),
          window: str(rule.WindowSec),
          stale: str(rule.StaleSec),
          state: str(rule.State),
          onDelay: str(rule.OnDelaySec),
          offDelay: str(rule.OffDelaySec),
          message: rule.Message,
          inService: rule.InService ? "on" : undefined,
          targets: rule.NotifyTargets.map(String),
          notifyOn: rule.NotifyOn,
        }
      : { type: "high", severity: "medium", deadband: "0", window: "1", onDelay: "0", offDelay: "0", inService: "on", notifyOn: ["activate"] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ruleSchema as z.ZodType }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>;
  const numberField = (name: string, hint?: string) => (
    <FormField id={f[name].id} label={t(`rules.fields.${name}`)} errors={f[name].errors} errorId={f[name].errorId} hint={hint}>
      <input {...getInputProps(f[name], { type: "number" })} step="any" className={inputClass} />
    </FormField>
  );
  const chosen = (name: string) => {
    const v = f[name].initialValue as unknown;
    return Array.isArray(v) ? (v as string[]) : typeof v === "string" ? [v] : [];
  };
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <input type="hidden" name="intent" value={intent} />
      {rule && <input type="hidden" name="id" value={rule.ID} />}
      {rule && <input type="hidden" name="version" value={rule.Version} />}
      <div className="sm:col-span-2 lg:col-span-4">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <FormField id={f.name.id} label={t("rules.fields.name")} errors={f.name.errors} errorId={f.name.errorId}>
        <input {...getInputProps(f.name, { type: "text" })} className={inputClass} />
      </FormField>
      <FormField id={f.variable.id} label={t("rules.fields.variable")} errors={f.variable.errors} errorId={f.variable.errorId}>
        <select {...getSelectProps(f.variable)} className={inputClass}>
          <option value="">{t("rules.fields.chooseVariable")}</option>
          {variables.map((v) => (
            <option key={v.Id} value={v.Id}>
              {v.deviceName ? `${v.deviceName} › ` : ""}
              {v.Name}
              {v.Unit ? ` [${v.Unit}]` : ""}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={f.type.id} label={t("rules.fields.type")} errors={f.type.errors} errorId={f.type.errorId} hint={t("rules.fields.typeHint")}>
        <select {...getSelectProps(f.type)} className={inputClass}>
          {RULE_TYPES.map((x) => (
            <option key={x} value={x}>
              {t(`rules.types.${x}`)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={f.severity.id} label={t("rules.fields.severity")} errors={f.severity.errors} errorId={f.severity.errorId}>
        <select {...getSelectProps(f.severity)} className={inputClass}>
          {SEVERITIES.map((x) => (
            <option key={x} value={x}>
              {t(`severity.${x}`)}
            </option>
          ))}
        </select>
      </FormField>
      {numberField("high")}
      {numberField("low")}
      {numberField("deadband", t("rules.fields.deadbandHint"))}
      <FormField id={f.state.id} label={t("rules.fields.state")} errors={f.state.errors} errorId={f.state.errorId}>
        <select {...getSelectProps(f.state)} className={inputClass}>
          <option value="">—</option>
          <option value="1">{t("rules.fields.stateOn")}</option>
          <option value="0">{t("rules.fields.stateOff")}</option>
        </select>
      </FormField>
      {numberField("rate")}
      {numberField("window")}
      {numberField("stale")}
      <div />
      {numberField("onDelay")}
      {numberField("offDelay")}
      <div className="sm:col-span-2">
        <FormField id={f.message.id} label={t("rules.fields.message")} errors={f.message.errors} errorId={f.message.errorId} hint={t("rules.fields.messageHint")}>
          <input {...getInputProps(f.message, { type: "text" })} className={inputClass} />
        </FormField>
      </div>
      <fieldset className="flex flex-col gap-1 text-sm sm:col-span-2">
        <legend className="font-medium">{t("rules.fields.targets")}</legend>
        {targets.length === 0 && <span className="text-slate-500">{t("rules.noTargets")}</span>}
        {targets.map((x) => (
          <label key={x.ID} className="flex items-center gap-2">
            <input type="checkbox" name={f.targets.name} value={x.ID} defaultChecked={chosen("targets").includes(String(x.ID))} />
            {x.Name}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-1 text-sm sm:col-span-2">
        <legend className="font-medium">{t("rules.fields.notifyOn")}</legend>
        {NOTIFY_EVENTS.map((e) => (
          <label key={e} className="flex items-center gap-2">
            <input type="checkbox" name={f.notifyOn.name} value={e} defaultChecked={chosen("notifyOn").includes(e)} />
            {t(`rules.notifyOn.${e}`)}
          </label>
        ))}
      </fieldset>
      <label className="flex items-center gap-2 text-sm sm:col-span-2 lg:col-span-4">
        <input {...getInputProps(f.inService, { type: "checkbox" })} />
        {t("rules.fields.inService")}
      </label>
      <FormActions submitLabel={intent === "addRule" ? t("rules.addRule") : t("common.save")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2 lg:col-span-4" />
    </Form>
  );
}

function TargetForm({ intent, type, target, lastResult, cancelHref }: { intent: "addTarget" | "editTarget"; type: "email" | "webhook"; target?: NotificationTarget; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: `target-form-${intent}`,
    lastResult,
    defaultValue: target
      ? { name: target.Name, enabled: target.Enabled ? "on" : undefined, url: target.URL, smtpHost: target.SmtpHost, smtpPort: str(target.SmtpPort), smtpSecure: target.SmtpSecure ? "on" : undefined, smtpUser: target.SmtpUser, from: target.From, to: (target.To ?? []).join(", ") }
      : { enabled: "on", smtpPort: "25" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: targetSchema as z.ZodType }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>;
  const field = (name: string, kind: "text" | "number" | "password" | "email" | "url", hint?: string) => (
    <FormField id={f[name].id} label={t(`rules.fields.${name}`)} errors={f[name].errors} errorId={f[name].errorId} hint={hint}>
      <input {...getInputProps(f[name], { type: kind })} autoComplete={kind === "password" ? "new-password" : "off"} className={inputClass} />
    </FormField>
  );
  const kept = t("rules.fields.secretKept");
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="type" value={type} />
      {target && <input type="hidden" name="id" value={target.ID} />}
      {target && <input type="hidden" name="version" value={target.Version} />}
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      {field("name", "text")}
      {type === "webhook" ? (
        <>
          {field("url", "url")}
          {field("secret", "password", target?.HasSecret ? kept : t("rules.fields.secretHint"))}
        </>
      ) : (
        <>
          {field("smtpHost", "text")}
          {field("smtpPort", "number")}
          {field("smtpUser", "text")}
          {field("smtpPassword", "password", target?.HasPassword ? kept : undefined)}
          {field("from", "email")}
          {field("to", "text", t("rules.fields.toHint"))}
          <label className="flex items-center gap-2 text-sm">
            <input {...getInputProps(f.smtpSecure, { type: "checkbox" })} />
            {t("rules.fields.smtpSecure")}
          </label>
        </>
      )}
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input {...getInputProps(f.enabled, { type: "checkbox" })} />
        {t("rules.fields.enabled")}
      </label>
      <FormActions submitLabel={intent === "addTarget" ? t("common.add") : t("common.save")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "rules.title");
}
