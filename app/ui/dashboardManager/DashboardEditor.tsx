import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { RANGES, REFRESH, settingsSchema, WIDGET_TYPES, type DashboardContent, type WidgetType } from "~/schemas/dashboards";
import type { StoredDashboard } from "~/services/dashboards.server";
import type { Variable } from "~/services/logger/schemas";
import { LayoutEditor } from "~/ui/dashboard/LayoutEditor";
import { widgetListLabel } from "~/ui/dashboard/widgetTitle";
import { WidgetForm } from "~/ui/dashboard/WidgetForm";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { SelectField } from "~/ui/SelectField";
import { useT } from "~/ui/useT";
import { VersionHistory, type HistoryData } from "./VersionHistory";

const PATH = "/dashboardManager";
const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";
const linkButton = "text-brand hover:underline";
const editHref = (id: string) => `${PATH}?edit=${id}`;

/** What the manager's action answers when it does not redirect (a form to show again, or a refusal). */
export type Reply =
  | { intent: "create" | "settings" | "widget"; version?: number; result: SubmissionResult<string[]> }
  | { intent: "remove" | "import" | "row"; error: string };

/** One dashboard's editor (page state `?edit=ID`): settings, layout, widget list and widget form. */
export function DashboardEditor({
  variables,
  variablesError,
  dashboard,
  actionData,
  history,
}: {
  /** With their device's name: the widget form's picker groups by it. */
  variables: (Variable & { deviceName?: string })[];
  variablesError: string | null;
  dashboard: StoredDashboard & { content: DashboardContent };
  actionData?: Reply;
  /** The history page state (?history): versions, a version's changes, a restore to confirm. */
  history?: HistoryData | null;
}) {
  const t = useT();
  const [params] = useSearchParams();
  const content = dashboard.content;
  const last = actionData && "result" in actionData ? actionData : undefined;
  // After a conflict the forms carry the Version their next save is based on.
  const version = last?.version ?? dashboard.Version;
  const variableName = new Map(variables.map((v) => [v.Id, v.Name]));
  const titles = Object.fromEntries(content.Widgets.map((w) => [w.ID, widgetListLabel(w, variableName) || t(`dashboards.types.${w.Type}`)]));
  const widgetParam = params.get("widget");
  const editingWidget = content.Widgets.find((w) => w.ID === widgetParam);
  const wantedType = params.get("type");
  const newType = (WIDGET_TYPES as readonly string[]).includes(wantedType ?? "") ? (wantedType as WidgetType) : "chart";
  const closeWidget = editHref(dashboard.ID);
  return (
    <div className={`${cardClass} flex flex-col gap-6`} data-testid="dashboard-editor">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{t("dashboardManager.editor.title", { name: dashboard.Name })}</h2>
        <div className="flex gap-4">
          <Link to={`/${dashboard.ID}`} className={linkButton}>
            {t("dashboardManager.manager.open")}
          </Link>
          <Link to={`${editHref(dashboard.ID)}&history`} preventScrollReset className={linkButton} data-testid="history-link">
            {t("dashboardManager.history.open", { version: dashboard.Version })}
          </Link>
          <Link to={PATH} className={linkButton}>
            {t("dashboardManager.editor.close")}
          </Link>
        </div>
      </div>
      {history && <VersionHistory dashboardId={dashboard.ID} history={history} />}
      <SettingsForm key={`settings-${dashboard.Version}`} dashboard={dashboard} version={version} lastResult={last?.intent === "settings" ? last.result : undefined} />
      <section className="flex flex-col gap-3">
        <h3 className="font-semibold">{t("dashboardManager.editor.layout")}</h3>
        <LayoutEditor key={dashboard.Version} dashboardId={dashboard.ID} version={dashboard.Version} content={content} titles={titles} />
      </section>
      <section className="flex flex-col gap-3">
        <h3 className="font-semibold">{t("dashboardManager.editor.widgets")}</h3>
        {variablesError && <FormErrors errors={[t("dashboardManager.editor.variablesUnavailable", { error: variablesError })]} />}
        {content.Widgets.length === 0 ? (
          <p className="text-sm text-slate-500">{t("dashboardManager.editor.noWidgets")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100 dark:divide-slate-700" data-testid="widget-list">
            {content.Widgets.map((w) => (
              <li key={w.ID} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-widget={w.ID}>
                <span>
                  <span className="font-medium">{titles[w.ID]}</span> <span className="text-slate-500">· {t(`dashboards.types.${w.Type}`)} · {t("dashboardManager.editor.widgetAt", { title: "", x: w.X, y: w.Y, w: w.W, h: w.H }).replace(/^:\s*/, "")}</span>
                </span>
                <span className="flex gap-4">
                  <Link to={`${editHref(dashboard.ID)}&widget=${w.ID}`} preventScrollReset className={linkButton} aria-label={`${t("dashboardManager.editor.editWidget")}: ${titles[w.ID]}`}>
                    {t("dashboardManager.editor.editWidget")}
                  </Link>
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="intent" value="removeWidget" />
                    <input type="hidden" name="id" value={dashboard.ID} />
                    <input type="hidden" name="version" value={dashboard.Version} />
                    <input type="hidden" name="widgetId" value={w.ID} />
                    <button type="submit" className="text-red-700 hover:underline dark:text-red-400" aria-label={`${t("dashboardManager.editor.removeWidget")}: ${titles[w.ID]}`}>
                      {t("dashboardManager.editor.removeWidget")}
                    </button>
                  </Form>
                </span>
              </li>
            ))}
          </ul>
        )}
        {widgetParam === null && (
          <Form method="get" className="flex flex-wrap items-end gap-2" preventScrollReset>
            <input type="hidden" name="edit" value={dashboard.ID} />
            <input type="hidden" name="widget" value="new" />
            <FormField id="new-widget-type" label={t("dashboardManager.editor.chooseType")}>
              <select id="new-widget-type" name="type" defaultValue="chart" className={inputClass}>
                {WIDGET_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`dashboards.types.${type}`)}
                  </option>
                ))}
              </select>
            </FormField>
            <button type="submit" className={buttonClass}>
              {t("dashboardManager.editor.addWidget")}
            </button>
          </Form>
        )}
        {(widgetParam === "new" || editingWidget) && (
          <div className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
            <h4 className="mb-3 font-semibold">{editingWidget ? t("dashboardManager.editor.editWidgetTitle", { title: titles[editingWidget.ID] }) : t("dashboardManager.editor.addWidgetTitle", { type: t(`dashboards.types.${newType}`) })}</h4>
            <WidgetForm
              key={`${editingWidget?.ID ?? `new-${newType}`}-${dashboard.Version}`}
              dashboardId={dashboard.ID}
              version={version}
              type={editingWidget?.Type ?? newType}
              widget={editingWidget}
              nextRow={Math.max(0, ...content.Widgets.map((w) => w.Y + w.H))}
              variables={variables}
              lastResult={last?.intent === "widget" ? last.result : undefined}
              cancelHref={closeWidget}
            />
          </div>
        )}
      </section>
    </div>
  );
}

function SettingsForm({ dashboard, version, lastResult }: { dashboard: StoredDashboard & { content: DashboardContent }; version: number; lastResult?: SubmissionResult<string[]> }) {
  const t = useT();
  const c = dashboard.content;
  const [form, fields] = useForm<z.input<typeof settingsSchema>, z.output<typeof settingsSchema>, string[]>({
    id: `dashboard-settings-${dashboard.ID}`,
    lastResult,
    defaultValue: { name: dashboard.Name, columns: String(c.Columns) as never, rowHeight: String(c.RowHeight) as never, range: c.Range, refresh: c.Refresh },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4" preventScrollReset data-testid="settings-form">
      <input type="hidden" name="intent" value="settings" />
      <input type="hidden" name="id" value={dashboard.ID} />
      <input type="hidden" name="version" value={version} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <div className="grid gap-3 md:grid-cols-5">
        <div className="md:col-span-2">
          <FormField id={fields.name.id} label={t("dashboardManager.manager.name")} errors={fields.name.errors} errorId={fields.name.errorId}>
            <input {...getInputProps(fields.name, { type: "text" })} className={`${inputClass} w-full`} />
          </FormField>
        </div>
        <FormField id={fields.columns.id} label={t("dashboardManager.editor.columns")} errors={fields.columns.errors} errorId={fields.columns.errorId}>
          <input {...getInputProps(fields.columns, { type: "number" })} className={inputClass} />
        </FormField>
        <FormField id={fields.rowHeight.id} label={t("dashboardManager.editor.rowHeight")} errors={fields.rowHeight.errors} errorId={fields.rowHeight.errorId}>
          <input {...getInputProps(fields.rowHeight, { type: "number" })} className={inputClass} />
        </FormField>
        {/* The quick ranges; the older "5m" only for a dashboard that has it stored. */}
        <SelectField field={fields.range} label={t("dashboardManager.editor.range")} options={RANGES.filter((r) => r !== "5m" || c.Range === r).map((r) => ({ value: r, label: t(`dashboards.range.${r}`) }))} />
        <SelectField field={fields.refresh} label={t("dashboardManager.editor.refresh")} options={REFRESH.map((r) => ({ value: r, label: t(`dashboards.refresh.${r}`) }))} />
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          {t("dashboardManager.editor.saveSettings")}
        </button>
      </div>
    </Form>
  );
}
