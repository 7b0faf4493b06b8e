import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { z } from "zod";
import { targetSchema } from "~/schemas/rules";
import type { NotificationTarget } from "~/services/logger/schemas";
import { FormActions } from "~/ui/FormActions";
import { FormErrors, FormField, inputClass } from "~/ui/FormField";
import { useT } from "~/ui/useT";

const str = (v: number | null | undefined) => (v === null || v === undefined ? undefined : String(v));

/** A notification target: an e-mail account and its recipients, or a webhook (URL and signing secret). */
export function TargetForm({ intent, type, target, lastResult, cancelHref }: { intent: "addTarget" | "editTarget"; type: "email" | "webhook"; target?: NotificationTarget; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
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
