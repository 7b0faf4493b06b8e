import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "react-router";
import { createSchema } from "~/schemas/dashboards";
import { FileInput } from "~/ui/FileInput";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { useT } from "~/ui/useT";

const PATH = "/dashboardManager";
const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";

/** Name a new dashboard (page state `?add`). */
export function CreateForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const t = useT();
  const [form, fields] = useForm({
    id: "dashboard-create",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="create" />
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.name.id} label={t("dashboardManager.manager.name")} errors={fields.name.errors} errorId={fields.name.errorId}>
        <input {...getInputProps(fields.name, { type: "text" })} className={inputClass} />
      </FormField>
      <FormActions submitLabel={t("dashboardManager.manager.create")} cancelHref={PATH} />
    </Form>
  );
}

/** The exported JSON with a download link (page state `?export=ID`). */
export function ExportPanel({ name, json }: { name: string; json: string }) {
  const t = useT();
  const file = `${name.replace(/[^\p{L}\p{N}_-]+/gu, "-").replace(/^-|-$/g, "") || "dashboard"}.json`;
  return (
    <div className={`${cardClass} flex flex-col gap-3`} data-testid="export-panel">
      <h2 className="text-lg font-semibold">{t("dashboardManager.export.title", { name })}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("dashboardManager.export.hint")}</p>
      <div className="flex gap-3">
        <a href={`data:application/json;charset=utf-8,${encodeURIComponent(json)}`} download={file} className={buttonClass}>
          {t("dashboardManager.export.download")}
        </a>
        <Link to={PATH} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700">
          {t("common.cancel")}
        </Link>
      </div>
      <textarea readOnly value={json} rows={8} aria-label={t("dashboardManager.export.title", { name })} className={`${inputClass} font-mono text-xs`} />
    </div>
  );
}

/** Import a dashboard from a JSON file or pasted text. */
export function ImportForm({ error }: { error?: string }) {
  const t = useT();
  const navigation = useNavigation();
  return (
    <Form method="post" encType="multipart/form-data" className={`${cardClass} flex flex-col gap-4`} data-testid="import-form">
      <h2 className="text-lg font-semibold">{t("dashboardManager.import.title")}</h2>
      <input type="hidden" name="intent" value="import" />
      <FormErrors errors={error ? [error] : undefined} />
      <FileInput id="import-file" label={t("dashboardManager.import.file")} accept="application/json,.json" />
      <FormField id="import-json" label={t("dashboardManager.import.text")}>
        <textarea id="import-json" name="json" rows={3} className={`${inputClass} font-mono text-xs`} />
      </FormField>
      <div>
        <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
          {t("dashboardManager.import.submit")}
        </button>
      </div>
    </Form>
  );
}
