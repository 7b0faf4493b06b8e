import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { Form } from "react-router";
import type { z } from "zod";
import { NOTIFY_EVENTS, RULE_TYPE_FIELDS, RULE_TYPES, ruleSchema, ruleTypeOf, SEVERITIES } from "~/schemas/rules";
import type { AlarmRule, NotificationTarget } from "~/services/logger/schemas";
import type { VariableRow } from "~/services/variables.server";
import { FormActions } from "~/ui/FormActions";
import { FormErrors, FormField, inputClass } from "~/ui/FormField";
import { SelectField } from "~/ui/SelectField";
import { VariablePicker } from "~/ui/history/VariablePicker";
import { useT } from "~/ui/useT";

export type VariableOption = Pick<VariableRow, "Id" | "Name" | "Unit" | "deviceName" | "DataFormat">;
const str = (v: number | null | undefined) => (v === null || v === undefined ? undefined : String(v));
const secondaryButton = "rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand dark:border-slate-600 dark:hover:bg-slate-700";

/**
 * An alarm rule, type first: only the chosen type's condition fields are shown. With JavaScript
 * they switch as the type changes; without it "Show its fields" posts the form as a conform
 * validate intent and the action answers with what was typed, rendered for the new type.
 */
export function RuleForm({ intent, rule, variables, targets, lastResult, cancelHref }: { intent: "addRule" | "editRule"; rule?: AlarmRule; variables: VariableOption[]; targets: NotificationTarget[]; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
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
  const type = ruleTypeOf(f.type.value ?? f.type.initialValue);
  const uses = RULE_TYPE_FIELDS[type];
  const numberField = (name: string, hint?: string) => (
    <FormField id={f[name].id} label={t(`rules.fields.${name}`)} errors={f[name].errors} errorId={f[name].errorId} hint={hint}>
      <input {...getInputProps(f[name], { type: "number" })} key={f[name].key} step="any" className={inputClass} />
    </FormField>
  );
  const chosen = (name: string) => {
    const v = f[name].initialValue as unknown;
    return Array.isArray(v) ? (v as string[]) : typeof v === "string" ? [v] : [];
  };
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="rule-form" data-rule-type={type}>
      <input type="hidden" name="intent" value={intent} />
      {rule && <input type="hidden" name="id" value={rule.ID} />}
      {rule && <input type="hidden" name="version" value={rule.Version} />}
      <div className="sm:col-span-2 lg:col-span-4">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <div className="flex flex-wrap items-end gap-3 sm:col-span-2 lg:col-span-4" data-testid="rule-type-step">
        <SelectField field={f.type} label={t("rules.fields.type")} hint={t("rules.fields.typeHint")} options={RULE_TYPES.map((x) => ({ value: x, label: t(`rules.types.${x}`) }))} />
        {/* Without JavaScript the fields change on a round trip that keeps what was typed. */}
        {!hydrated && (
          <button {...form.validate.getButtonProps({ name: f.type.name })} className={`${secondaryButton} mb-5`} data-testid="rule-type-next">
            {t("rules.fields.showTypeFields")}
          </button>
        )}
      </div>
      <FormField id={f.name.id} label={t("rules.fields.name")} errors={f.name.errors} errorId={f.name.errorId}>
        <input {...getInputProps(f.name, { type: "text" })} key={f.name.key} className={inputClass} />
      </FormField>
      <SelectField field={f.severity} label={t("rules.fields.severity")} options={SEVERITIES.map((x) => ({ value: x, label: t(`severity.${x}`) }))} />
      {/* The one variable picker of the console (issue 28 §7), here choosing exactly one. */}
      <div className="sm:col-span-2 lg:col-span-4">
        <VariablePicker
          single
          name={f.variable.name}
          label={t("rules.fields.variable")}
          variables={variables}
          selected={[String(f.variable.value ?? f.variable.initialValue ?? "")].filter(Boolean)}
          errors={f.variable.errors?.map((e) => t(e))}
          errorId={f.variable.errorId}
        />
      </div>
      <fieldset className="grid gap-4 rounded-md border border-slate-200 p-3 sm:col-span-2 sm:grid-cols-2 lg:col-span-4 lg:grid-cols-4 dark:border-slate-700" data-testid="rule-condition">
        <legend className="px-1 text-sm font-medium">{t("rules.fields.condition", { type: t(`rules.types.${type}`) })}</legend>
        {uses.includes("low") && numberField("low")}
        {uses.includes("high") && numberField("high")}
        {uses.includes("rate") && numberField("rate")}
        {uses.includes("window") && numberField("window")}
        {uses.includes("stale") && numberField("stale")}
        {uses.includes("state") && (
          <SelectField
            field={f.state}
            label={t("rules.fields.state")}
            placeholder="—"
            options={[
              { value: "1", label: t("rules.fields.stateOn") },
              { value: "0", label: t("rules.fields.stateOff") },
            ]}
          />
        )}
        {uses.includes("deadband") && numberField("deadband", t("rules.fields.deadbandHint"))}
      </fieldset>
      {numberField("onDelay")}
      {numberField("offDelay")}
      <div className="sm:col-span-2">
        <FormField id={f.message.id} label={t("rules.fields.message")} errors={f.message.errors} errorId={f.message.errorId} hint={t("rules.fields.messageHint")}>
          <input {...getInputProps(f.message, { type: "text" })} key={f.message.key} className={inputClass} />
        </FormField>
      </div>
      <fieldset className="flex flex-col gap-1 text-sm sm:col-span-2">
        <legend className="font-medium">{t("rules.fields.targets")}</legend>
        {targets.length === 0 && <span className="text-slate-600 dark:text-slate-300">{t("rules.noTargets")}</span>}
        {targets.map((x) => (
          <label key={`${x.ID}-${f.targets.key}`} className="flex items-center gap-2">
            <input type="checkbox" name={f.targets.name} value={x.ID} defaultChecked={chosen("targets").includes(String(x.ID))} />
            {x.Name}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-1 text-sm sm:col-span-2">
        <legend className="font-medium">{t("rules.fields.notifyOn")}</legend>
        {NOTIFY_EVENTS.map((e) => (
          <label key={`${e}-${f.notifyOn.key}`} className="flex items-center gap-2">
            <input type="checkbox" name={f.notifyOn.name} value={e} defaultChecked={chosen("notifyOn").includes(e)} />
            {t(`rules.notifyOn.${e}`)}
          </label>
        ))}
      </fieldset>
      <label className="flex items-center gap-2 text-sm sm:col-span-2 lg:col-span-4">
        <input {...getInputProps(f.inService, { type: "checkbox" })} key={f.inService.key} />
        {t("rules.fields.inService")}
      </label>
      <FormActions submitLabel={intent === "addRule" ? t("rules.addRule") : t("common.save")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2 lg:col-span-4" />
    </Form>
  );
}
