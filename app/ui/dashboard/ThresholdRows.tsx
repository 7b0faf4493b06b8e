import { getInputProps, getSelectProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { COLOURS } from "~/schemas/dashboardConstants";
import { MAX_THRESHOLDS } from "~/schemas/dashboards";
import { inputClass } from "~/ui/FormField";
import { useT } from "~/ui/useT";

type Row = { value?: number | string; color?: string } | undefined;

const smallButton = "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand dark:border-slate-600 dark:hover:bg-slate-700";

/**
 * A widget's thresholds as rows of "from value" + colour. Adding and removing rows are conform
 * list intents: with JavaScript they change the rows in place, without it they post the form and
 * the action answers with the rows changed and everything typed kept. The form starts with the
 * stored rows plus a blank one; blank rows are ignored when saving.
 */
export function ThresholdRows<Schema extends Record<string, unknown>>({ form, field }: { form: FormMetadata<Schema, string[]>; field: FieldMetadata<Row[] | undefined, Schema, string[]> }) {
  const t = useT();
  const rows = field.getFieldList();
  return (
    <fieldset className="flex flex-col gap-2" data-testid="threshold-rows" aria-describedby={`${field.id}-hint`}>
      <legend className="text-sm font-medium">{t("widgetForm.thresholds")}</legend>
      <p id={`${field.id}-hint`} className="text-xs text-slate-600 dark:text-slate-300">
        {t("widgetForm.thresholdsHint", { max: MAX_THRESHOLDS })}
      </p>
      {rows.map((row, i) => {
        const f = row.getFieldset();
        const n = i + 1;
        return (
          <div key={row.key} className="flex flex-wrap items-start gap-2" data-testid="threshold-row">
            <div className="flex flex-col gap-1">
              <input {...getInputProps(f.value, { type: "number" })} key={f.value.key} step="any" aria-label={t("widgetForm.rowValue", { row: n })} placeholder={t("widgetForm.value")} className={`${inputClass} w-36`} />
              <RowError id={f.value.errorId} errors={f.value.errors} />
            </div>
            <div className="flex flex-col gap-1">
              <select {...getSelectProps(f.color)} key={f.color.key} aria-label={t("widgetForm.rowColour", { row: n })} className={inputClass}>
                <option value="">{t("widgetForm.noColour")}</option>
                {COLOURS.map((c) => (
                  <option key={c} value={c}>
                    {t(`widgetForm.colours.${c}`)}
                  </option>
                ))}
              </select>
              <RowError id={f.color.errorId} errors={f.color.errors} />
            </div>
            <button {...form.remove.getButtonProps({ name: field.name, index: i })} className={smallButton} aria-label={t("widgetForm.removeRow", { row: n })}>
              ×
            </button>
          </div>
        );
      })}
      {rows.length < MAX_THRESHOLDS && (
        <div>
          <button {...form.insert.getButtonProps({ name: field.name, defaultValue: { value: "", color: "" } })} className={smallButton}>
            {t("widgetForm.addRow")}
          </button>
        </div>
      )}
      <RowError id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

function RowError({ id, errors }: { id: string; errors?: string[] }) {
  const t = useT();
  if (!errors?.length) return null;
  return (
    <span id={id} role="alert" className="text-sm text-red-600 dark:text-red-400">
      {errors.map((e) => t(e)).join(" ")}
    </span>
  );
}
