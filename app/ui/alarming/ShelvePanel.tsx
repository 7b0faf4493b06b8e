import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { SHELVE_DURATIONS, shelveSchema } from "~/schemas/alarming";
import type { Alarm } from "~/services/logger/schemas";
import { FormActions } from "~/ui/FormActions";
import { FormErrors, FormField, inputClass } from "~/ui/FormField";
import { Panel } from "~/ui/Panel";
import { useT } from "~/ui/useT";

/** Shelve one alarm for a chosen time with a reason (page state `?shelve=ID`). */
export function ShelvePanel({ alarm, lastResult, cancelHref }: { alarm: Alarm; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: "shelve-form",
    lastResult,
    defaultValue: { id: String(alarm.ID), duration: "3600" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: shelveSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Panel title={t("alarming.shelveTitle", { name: alarm.Name })}>
      <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="shelve" />
        <input type="hidden" name="id" value={alarm.ID} />
        <div className="sm:col-span-2">
          <FormErrors errors={form.errors} id={form.errorId} />
        </div>
        <FormField id={fields.duration.id} label={t("alarming.duration")} errors={fields.duration.errors} errorId={fields.duration.errorId}>
          <select {...getSelectProps(fields.duration)} className={inputClass}>
            {SHELVE_DURATIONS.map((d) => (
              <option key={d} value={d}>
                {t(`alarming.durations.${d}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={fields.reason.id} label={t("alarming.reason")} errors={fields.reason.errors} errorId={fields.reason.errorId}>
          <textarea {...getTextareaProps(fields.reason)} rows={2} className={inputClass} />
        </FormField>
        <FormActions submitLabel={t("alarming.shelve")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
      </Form>
    </Panel>
  );
}
