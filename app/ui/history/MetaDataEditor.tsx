import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useSeedText } from "~/ui/seedTexts";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { Form, useNavigation } from "react-router";
import { metaEntrySchema } from "~/schemas/metadata";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";

/**
 * Key/value metadata as a table with a remove button per key and one form to set a key; keys
 * suggested from the ones already in use. Posts intent=meta plus the `hidden` fields. Validated
 * with conform (metaEntrySchema, in the browser and again in the action): errors next to the
 * field they concern, the logger's refusals above, what was typed kept (also without JavaScript).
 */
export function MetaDataEditor({ entries, keys, canEdit, hidden, lastResult }: { entries: { Key: string; Value: string }[]; keys: string[]; canEdit: boolean; hidden: Record<string, string>; lastResult?: SubmissionResult<string[]> }) {
  const t = useT();
  const seed = useSeedText();
  const busy = useNavigation().state === "submitting";
  const [form, fieldsOf] = useForm({
    id: `metadata-${Object.values(hidden).join("-")}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: metaEntrySchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const fields = (
    <>
      <input type="hidden" name="intent" value="meta" />
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
  return (
    <div className="flex flex-col gap-2" data-testid="metadata">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">{t("history.measurements.noMetadata")}</p>
      ) : (
        <table className="w-full max-w-2xl text-left text-sm">
          <thead>
            <tr>
              <th className="py-1 pr-4">{t("history.metadata.key")}</th>
              <th className="py-1 pr-4">{t("history.metadata.value")}</th>
              {canEdit && <th className="sr-only">{t("common.actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.Key} className="border-t border-slate-100 dark:border-slate-700" data-key={e.Key}>
                <td className="py-1 pr-4 font-medium">{seed(e.Key)}</td>
                <td className="py-1 pr-4">{seed(e.Value)}</td>
                {canEdit && (
                  <td className="py-1">
                    <Form method="post" preventScrollReset>
                      {fields}
                      <input type="hidden" name="key" value={e.Key} />
                      <input type="hidden" name="value" value="" />
                      <button type="submit" className="text-red-700 hover:underline dark:text-red-400" aria-label={`${t("history.metadata.remove")} ${e.Key}`}>
                        {t("history.metadata.remove")}
                      </button>
                    </Form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit ? (
        <Form method="post" preventScrollReset {...getFormProps(form)} className="flex flex-wrap items-start gap-2" data-testid="metadata-form">
          {fields}
          <FormField id={fieldsOf.key.id} label={t("history.metadata.key")} errors={fieldsOf.key.errors} errorId={fieldsOf.key.errorId}>
            <input {...getInputProps(fieldsOf.key, { type: "text" })} key={fieldsOf.key.key} list="metadata-keys" required maxLength={64} className={inputClass} />
          </FormField>
          <FormField id={fieldsOf.value.id} label={t("history.metadata.value")} errors={fieldsOf.value.errors} errorId={fieldsOf.value.errorId} hint={t("history.metadata.valueHint")}>
            <input {...getInputProps(fieldsOf.value, { type: "text" })} key={fieldsOf.value.key} maxLength={1000} className={inputClass} />
          </FormField>
          <button type="submit" className={`${buttonClass} mt-6`} disabled={busy}>
            {t("history.metadata.add")}
          </button>
          <datalist id="metadata-keys">
            {keys.map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
        </Form>
      ) : (
        <p className="text-sm text-slate-500">{t("history.metadata.readOnly")}</p>
      )}
      <FormErrors errors={form.errors} id={form.errorId} />
    </div>
  );
}
