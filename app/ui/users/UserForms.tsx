import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { z } from "zod";
import { addUserSchema, editUserSchema, resetPasswordSchema } from "~/schemas/users";
import type { Role, User } from "~/services/logger/schemas";
import { offsetZone, zoneMode } from "~/services/timezone";
import { FormActions } from "~/ui/FormActions";
import { FormErrors, FormField, inputClass } from "~/ui/FormField";
import { SelectField } from "~/ui/SelectField";
import { useT } from "~/ui/useT";

/** How a user's zone reads in the table: a name, a fixed UTC offset or empty (browser zone). */
export function zoneLabel(u: User) {
  const mode = zoneMode(u);
  if (mode === "name") return u.Timezone;
  if (mode === "offset") return `UTC${offsetZone(u.TimezoneDiffSec / 60)}`;
  return "";
}


/** Add or edit a user (conform; errors next to their fields). */
export function UserForm({ intent, user, roles, zones, lastResult, cancelHref }: { intent: "add" | "edit"; user?: User; roles: Role[]; zones: { Value: string; Description: string }[]; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const schema = intent === "add" ? addUserSchema : editUserSchema;
  const currentZone = user ? (zoneMode(user) === "offset" ? `offset:${user.TimezoneDiffSec}` : user.Timezone) : "";
  const [form, fields] = useForm({
    id: `user-form-${intent}`,
    lastResult,
    defaultValue: user
      ? { id: String(user.ID), version: String(user.Version ?? ""), username: user.Username, email: user.EMail, role: String(user.Role), timezone: currentZone }
      : { mustChange: "on", timezone: "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schema as z.ZodType }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>;
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value={intent} />
      {user && <input type="hidden" name="id" value={user.ID} />}
      {user && <input type="hidden" name="version" value={user.Version ?? ""} />}
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <FormField id={f.username.id} label={t("users.fields.username")} errors={f.username.errors} errorId={f.username.errorId}>
        <input {...getInputProps(f.username, { type: "text" })} autoComplete="off" className={inputClass} />
      </FormField>
      <FormField id={f.email.id} label={t("users.fields.email")} errors={f.email.errors} errorId={f.email.errorId}>
        <input {...getInputProps(f.email, { type: "email" })} autoComplete="off" className={inputClass} />
      </FormField>
      <SelectField field={f.role} label={t("users.fields.role")} placeholder={t("users.fields.chooseRole")} options={roles.map((r) => ({ value: String(r.ID), label: r.Name }))} />
      <SelectField field={f.timezone} label={t("users.fields.timezone")} placeholder={t("users.fields.browserZone")} options={zones.map((z) => ({ value: z.Value, label: z.Description }))}>
        {currentZone.startsWith("offset:") && <option value={currentZone}>{t("users.fields.fixedOffset", { offset: offsetZone(user!.TimezoneDiffSec / 60) })}</option>}
      </SelectField>
      {intent === "add" && (
        <>
          <FormField id={f.password.id} label={t("users.fields.password")} errors={f.password.errors} errorId={f.password.errorId} hint={t("password.policy")}>
            <input {...getInputProps(f.password, { type: "password" })} autoComplete="new-password" className={inputClass} />
          </FormField>
          <FormField id={f.confirmPassword.id} label={t("users.fields.confirmPassword")} errors={f.confirmPassword.errors} errorId={f.confirmPassword.errorId}>
            <input {...getInputProps(f.confirmPassword, { type: "password" })} autoComplete="new-password" className={inputClass} />
          </FormField>
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input {...getInputProps(f.mustChange, { type: "checkbox" })} />
            {t("users.fields.mustChange")}
          </label>
        </>
      )}
      <FormActions submitLabel={intent === "add" ? t("users.add") : t("common.save")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
    </Form>
  );
}

/** Set a new password for another user. */
export function ResetPasswordForm({ user, lastResult, cancelHref }: { user: User; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: "reset-password-form",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="password" />
      <input type="hidden" name="id" value={user.ID} />
      <input type="hidden" name="username" value={user.Username} />
      <p className="text-sm text-slate-600 sm:col-span-2 dark:text-slate-300">{t("users.passwordIntro", { username: user.Username })}</p>
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <FormField id={fields.password.id} label={t("users.fields.newPassword")} errors={fields.password.errors} errorId={fields.password.errorId} hint={t("password.policy")}>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" className={inputClass} />
      </FormField>
      <FormField id={fields.confirmPassword.id} label={t("users.fields.confirmPassword")} errors={fields.confirmPassword.errors} errorId={fields.confirmPassword.errorId}>
        <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" className={inputClass} />
      </FormField>
      <FormActions submitLabel={t("users.resetPassword")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
    </Form>
  );
}
