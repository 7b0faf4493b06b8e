import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { folderSchema, renameSchema } from "~/schemas/fileBrowser";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { useT } from "~/ui/useT";

/** New folder (intent folder) or rename (intent rename, with a Cancel link). */
export function NameForm({ intent, path, entry, initial, lastResult, cancelHref }: { intent: "folder" | "rename"; path: string; entry?: string; initial: string; lastResult?: SubmissionResult<string[]>; cancelHref?: string }) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { name: initial },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: intent === "folder" ? folderSchema : renameSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="path" value={path} />
      {entry !== undefined && <input type="hidden" name="entry" value={entry} />}
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.name.id} label={t(intent === "folder" ? "fileBrowser.folderName" : "fileBrowser.newName")} errors={fields.name.errors} errorId={fields.name.errorId}>
        <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={inputClass} maxLength={255} />
      </FormField>
      {cancelHref ? (
        <FormActions submitLabel={t("fileBrowser.rename")} cancelHref={cancelHref} />
      ) : (
        <div>
          <button type="submit" className={buttonClass} disabled={busy}>
            {t("fileBrowser.create")}
          </button>
        </div>
      )}
    </Form>
  );
}
