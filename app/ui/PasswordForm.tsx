import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { Form, useNavigation } from "react-router";
import { passwordChangeSchema } from "~/schemas/password";
import { buttonClass, FormErrors, FormField, inputClass } from "./FormField";

/** Current / new / confirm password, validated inline with JS and on the server without. */
export function PasswordForm({ lastResult, intent, submitLabel }: { lastResult?: SubmissionResult<string[]> | null; intent?: string; submitLabel: string }) {
  const t = useT();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "password-form",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordChangeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      {intent && <input type="hidden" name="intent" value={intent} />}
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.currentPassword.id} label={t("password.current")} errors={fields.currentPassword.errors} errorId={fields.currentPassword.errorId}>
        <input {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" className={inputClass} />
      </FormField>
      <FormField id={fields.newPassword.id} label={t("password.new")} errors={fields.newPassword.errors} errorId={fields.newPassword.errorId} hint={t("password.policy")}>
        <input {...getInputProps(fields.newPassword, { type: "password" })} autoComplete="new-password" className={inputClass} />
      </FormField>
      <FormField id={fields.confirmPassword.id} label={t("password.confirm")} errors={fields.confirmPassword.errors} errorId={fields.confirmPassword.errorId}>
        <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" className={inputClass} />
      </FormField>
      <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
        {submitLabel}
      </button>
    </Form>
  );
}
