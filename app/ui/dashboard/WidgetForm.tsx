import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { Form } from "react-router";
import type { z } from "zod";
import { useState } from "react";
import { ALARM_ROWS_DEFAULT, ALARM_ROWS_MAX, ALARM_SEVERITIES, defaultWidgetTitle, MAX_VARIABLES, stateText, thresholdFormRows, TYPE_OPTIONS, widgetFormSchema, type Widget, type WidgetType } from "~/schemas/dashboards";
import type { Variable } from "~/services/logger/schemas";
import { FormActions } from "~/ui/FormActions";
import { FormErrors, FormField, inputClass } from "~/ui/FormField";
import { SelectField } from "~/ui/SelectField";
import { VariablePicker } from "~/ui/history/VariablePicker";
import { groupVariables, variableLabel } from "~/ui/picker/pickerModel";
import { ThresholdRows } from "./ThresholdRows";

interface Props {
  dashboardId: string;
  version: number;
  type: WidgetType;
  widget?: Widget;
  /** Where a new widget goes by default: below everything else. */
  nextRow: number;
  /** With the device's name when known (the picker groups by it, else by device ID). */
  variables: (Variable & { deviceName?: string })[];
  lastResult?: SubmissionResult<string[]>;
  cancelHref: string;
}

/** Add or configure one widget; plain form fields, so it works without JavaScript. */
export function WidgetForm({ dashboardId, version, type, widget, nextRow, variables, lastResult, cancelHref }: Props) {
  const t = useT();
  const o = widget?.Options ?? {};
  const [form, fields] = useForm<z.input<typeof widgetFormSchema>, z.output<typeof widgetFormSchema>, string[]>({
    id: `widget-form-${widget?.ID ?? "new"}`,
    lastResult,
    defaultValue: {
      type,
      title: widget?.Title ?? "",
      x: String(widget?.X ?? 0) as never,
      y: String(widget?.Y ?? nextRow) as never,
      w: String(widget?.W ?? (type === "chart" || type === "alarms" ? 6 : 3)) as never,
      h: String(widget?.H ?? (type === "chart" || type === "alarms" ? 4 : 2)) as never,
      variables: widget?.Variables ?? [],
      min: o.Min === undefined ? "" : (String(o.Min) as never),
      max: o.Max === undefined ? "" : (String(o.Max) as never),
      precision: o.Precision === undefined ? "" : (String(o.Precision) as never),
      thresholds: thresholdFormRows(o.Thresholds) as never,
      states: stateText(o.States),
      text: o.Text ?? "",
      sparkline: (o.Sparkline ? "on" : undefined) as never,
      onlyUnacknowledged: (o.OnlyUnacknowledged ? "on" : undefined) as never,
      minSeverity: o.MinSeverity ?? "",
      maxRows: String(o.MaxRows ?? (widget ? "" : ALARM_ROWS_DEFAULT)) as never,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: widgetFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const uses = TYPE_OPTIONS[type];
  const colours = t("dashboards.colours");
  // One posted variable comes back from the action as a string, several as an array.
  const posted = fields.variables.initialValue as string[] | string | undefined;
  const initialVariables = Array.isArray(posted) ? posted : posted ? [posted] : [];
  // The title shown when the field is left empty follows the chosen variables as they change.
  const [chosen, setChosen] = useState<string[]>(initialVariables);
  const names = new Map(variables.map((v) => [v.Id, v.Name]));
  const fallbackTitle = defaultWidgetTitle({ Title: "", Type: type, Variables: uses.includes("manyVariables") ? chosen : chosen.slice(0, 1) }, names) || t(`dashboards.types.${type}`);
  const field = (name: "x" | "y" | "w" | "h" | "min" | "max" | "precision" | "maxRows", label: string, hint?: string) => (
    <FormField id={fields[name].id} label={label} errors={fields[name].errors} errorId={fields[name].errorId} hint={hint}>
      <input {...getInputProps(fields[name], { type: "number" })} step={name === "min" || name === "max" ? "any" : 1} className={inputClass} />
    </FormField>
  );
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4" preventScrollReset data-testid="widget-form">
      <input type="hidden" name="intent" value="widget" />
      <input type="hidden" name="id" value={dashboardId} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="widgetId" value={widget?.ID ?? ""} />
      <input type="hidden" name="type" value={type} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.title.id} label={t("dashboardManager.editor.widgetTitle")} errors={fields.title.errors} errorId={fields.title.errorId} hint={t("dashboardManager.editor.widgetTitleHint")}>
        <input {...getInputProps(fields.title, { type: "text" })} placeholder={type === "text" ? t("widgetForm.noTitlePlaceholder") : t("widgetForm.titlePlaceholder", { title: fallbackTitle })} className={inputClass} />
      </FormField>
      <fieldset className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <legend className="mb-1 text-sm font-medium">{t("dashboardManager.editor.position")}</legend>
        {field("x", t("dashboardManager.editor.x"))}
        {field("y", t("dashboardManager.editor.y"))}
        {field("w", t("dashboardManager.editor.w"))}
        {field("h", t("dashboardManager.editor.h"))}
      </fieldset>
      {uses.includes("variables") &&
        (uses.includes("manyVariables") ? (
          <VariablePicker
            variables={variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName, DeviceId: v.DeviceId }))}
            selected={initialVariables}
            name={fields.variables.name}
            label={t("dashboardManager.editor.variables")}
            hint={`${t(uses.includes("alarms") ? "dashboardManager.editor.alarmVariablesHint" : "dashboardManager.editor.variablesHint", { max: MAX_VARIABLES })}`}
            errors={fields.variables.errors?.map((e) => t(e))}
            errorId={fields.variables.errorId}
            onChange={setChosen}
          />
        ) : (
          <FormField id={fields.variables.id} label={t("dashboardManager.editor.variable")} errors={fields.variables.errors} errorId={fields.variables.errorId}>
            <select {...getSelectProps(fields.variables)} multiple={false} defaultValue={initialVariables[0] ?? ""} onChange={(e) => setChosen(e.currentTarget.value ? [e.currentTarget.value] : [])} className={inputClass}>
              <option value="">{t("dashboardManager.editor.noVariable")}</option>
              {groupVariables(variables, "").map((g) => (
                <optgroup key={g.key} label={g.label || (g.key ? t("picker.device", { id: g.key }) : t("picker.noDevice"))}>
                  {g.variables.map((v) => (
                    <option key={v.Id} value={v.Id}>
                      {variableLabel(v)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </FormField>
        ))}
      {uses.includes("scale") && (
        <div className="grid grid-cols-2 gap-3">
          {field("min", t("dashboardManager.editor.min"), t("dashboardManager.editor.scaleHint"))}
          {field("max", t("dashboardManager.editor.max"), t("dashboardManager.editor.scaleHint"))}
        </div>
      )}
      {uses.includes("precision") && field("precision", t("dashboardManager.editor.precision"), t("dashboardManager.editor.precisionHint"))}
      {uses.includes("thresholds") && (
        <ThresholdRows form={form} field={fields.thresholds} />
      )}
      {uses.includes("states") && (
        <FormField id={fields.states.id} label={t("dashboardManager.editor.states")} errors={fields.states.errors} errorId={fields.states.errorId} hint={t("dashboardManager.editor.statesHint", { colours })}>
          <textarea {...getTextareaProps(fields.states)} rows={3} className={`${inputClass} font-mono`} />
        </FormField>
      )}
      {uses.includes("text") && (
        <FormField id={fields.text.id} label={t("dashboardManager.editor.text")} errors={fields.text.errors} errorId={fields.text.errorId} hint={t("dashboardManager.editor.textHint")}>
          <textarea {...getTextareaProps(fields.text)} rows={5} className={inputClass} />
        </FormField>
      )}
      {uses.includes("sparkline") && (
        <label className="flex items-center gap-2 text-sm font-medium">
          <input {...getInputProps(fields.sparkline, { type: "checkbox" })} className="h-4 w-4 accent-brand" />
          {t("dashboardManager.editor.sparkline")}
        </label>
      )}
      {uses.includes("alarms") && (
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            field={fields.minSeverity}
            label={t("dashboardManager.editor.minSeverity")}
            placeholder={t("dashboardManager.editor.anySeverity")}
            options={ALARM_SEVERITIES.filter((s) => s !== "low").map((s) => ({ value: s, label: t("dashboardManager.editor.fromSeverity", { severity: t(`severity.${s}`) }) }))}
          />
          {field("maxRows", t("dashboardManager.editor.maxRows"), t("dashboardManager.editor.maxRowsHint", { max: ALARM_ROWS_MAX }))}
          <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
            <input {...getInputProps(fields.onlyUnacknowledged, { type: "checkbox" })} className="h-4 w-4 accent-brand" />
            {t("dashboardManager.editor.onlyUnacknowledged")}
          </label>
        </div>
      )}
      <FormActions submitLabel={t("dashboardManager.editor.saveWidget")} cancelHref={cancelHref} />
    </Form>
  );
}
