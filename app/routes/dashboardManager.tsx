import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useT } from "~/ui/useT";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import type { z } from "zod";
import {
  contentSchema,
  createSchema,
  EMPTY_CONTENT,
  layoutSchema,
  parseExportFile,
  RANGES,
  REFRESH,
  settingsSchema,
  toExportFile,
  WIDGET_TYPES,
  widgetFormSchema,
  widgetFromForm,
  type DashboardContent,
  type WidgetType,
} from "~/schemas/dashboards";
import { stateOf } from "~/services/context.server";
import { getDashboard, listDashboards, removeDashboard, saveDashboard, setDefaultDashboard, tryVariables, type StoredDashboard } from "~/services/dashboards.server";
import { readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { refusalOf } from "~/services/submission.server";
import { ConfirmAction, ConfirmPanel } from "~/ui/ConfirmAction";
import { LayoutEditor } from "~/ui/dashboard/LayoutEditor";
import { WidgetForm } from "~/ui/dashboard/WidgetForm";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/dashboardManager";

const PATH = "/dashboardManager";
const INTENTS = ["create", "settings", "duplicate", "remove", "setDefault", "import", "widget", "removeWidget", "layout"] as const;
const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";
const linkButton = "text-brand hover:underline";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "dashboardManager");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const editId = params.get("edit");
  const exportId = params.get("export");
  const [dashboards, editing, exporting] = await Promise.all([
    listDashboards(logger),
    editId ? getDashboard(logger, editId) : null,
    exportId ? getDashboard(logger, exportId) : null,
  ]);
  const listed = editing ? await tryVariables(logger) : { variables: [], error: null };
  return {
    dashboards,
    editing,
    editMissing: editId !== null && !editing,
    variables: listed.variables,
    variablesError: listed.error,
    exporting: exporting?.content ? { name: exporting.Name, json: JSON.stringify(toExportFile(exporting.Name, exporting.content), null, 2) } : null,
  };
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "dashboardManager");
  const formData = await args.request.formData();
  switch (readIntent(formData, INTENTS)) {
    case "create":
      return create(args, formData);
    case "settings":
      return saveSettings(args, formData);
    case "duplicate":
      return duplicate(args, formData);
    case "remove":
      return remove(args, formData);
    case "setDefault":
      return makeDefault(args, formData);
    case "import":
      return importFile(args, formData);
    case "widget":
      return saveWidget(args, formData);
    case "removeWidget":
      return removeWidget(args, formData);
    case "layout":
      return saveLayout(args, formData);
  }
}

type Args = Route.ActionArgs;
const readText = (formData: FormData, key: string) => {
  const v = formData.get(key);
  if (typeof v !== "string" || !v || v.length > 64) throw data({ reason: "bad-request" }, { status: 400 });
  return v;
};
const readVersion = (formData: FormData) => {
  const v = Number(formData.get("version"));
  return Number.isInteger(v) && v > 0 ? v : undefined;
};
const editHref = (id: string) => `${PATH}?edit=${id}`;

/** The dashboard an edit is about, or a redirect saying it is gone. */
async function stored(args: Args, id: string): Promise<StoredDashboard & { content: DashboardContent }> {
  const d = await getDashboard(stateOf(args.context).logger, id);
  if (d?.content) return d as StoredDashboard & { content: DashboardContent };
  throw redirectWithToast(args.context, PATH, { type: "error", text: getInstance(args.context).t("dashboardManager.manager.gone") });
}

async function create({ context }: Args, formData: FormData) {
  const submission = parseWithZod(formData, { schema: createSchema });
  if (submission.status !== "success") return data({ intent: "create" as const, result: submission.reply() }, { status: 400 });
  const saved = await saveDashboard(stateOf(context).logger, { Name: submission.value.name, Content: EMPTY_CONTENT });
  return redirectWithToast(context, editHref(saved.ID), { type: "success", text: getInstance(context).t("dashboardManager.manager.added") });
}

async function saveSettings(args: Args, formData: FormData) {
  const id = readText(formData, "id");
  const version = readVersion(formData);
  const submission = parseWithZod(formData, { schema: settingsSchema });
  const { t } = getInstance(args.context);
  const reply = (status: number, formErrors?: string[], basedOn = version) => data({ intent: "settings" as const, version: basedOn, result: submission.reply(formErrors && { formErrors }) }, { status });
  if (submission.status !== "success") return reply(400);
  const d = await stored(args, id);
  const v = submission.value;
  if (d.content.Widgets.some((w) => w.X + w.W > v.columns)) return reply(400, [t("dashboards.validation.pastColumns", { columns: v.columns })]);
  const content = { ...d.content, Columns: v.columns, RowHeight: v.rowHeight, Range: v.range, Refresh: v.refresh };
  return commit(args, { id, version, name: v.name, content, reply, done: "dashboardManager.manager.saved" });
}

/** SaveDashboard with the form's Version: a 409 keeps the input and offers the current Version. */
async function commit(
  args: Args,
  o: { id: string; version?: number; name: string; content: DashboardContent; reply: (status: number, formErrors?: string[], basedOn?: number) => unknown; done: string },
) {
  const { logger } = stateOf(args.context);
  const { t } = getInstance(args.context);
  const refused = await refusalOf(() => saveDashboard(logger, { ID: o.id, Version: o.version, Name: o.name, Content: o.content }));
  if (refused?.status === 409) return o.reply(409, [t("dashboardManager.manager.conflict")], (await getDashboard(logger, o.id))?.Version);
  if (refused?.status === 404) return redirectWithToast(args.context, PATH, { type: "error", text: t("dashboardManager.manager.gone") });
  if (refused) return o.reply(400, [refused.message]);
  return redirectWithToast(args.context, editHref(o.id), { type: "success", text: t(o.done) });
}

async function saveWidget(args: Args, formData: FormData) {
  const id = readText(formData, "id");
  const version = readVersion(formData);
  const widgetId = formData.get("widgetId");
  const submission = parseWithZod(formData, { schema: widgetFormSchema });
  const { t } = getInstance(args.context);
  const reply = (status: number, formErrors?: string[], basedOn = version) => data({ intent: "widget" as const, version: basedOn, result: submission.reply(formErrors && { formErrors }) }, { status });
  if (submission.status !== "success") return reply(400);
  const d = await stored(args, id);
  // Checked here too: the logger would refuse it, but with a less helpful text.
  if (submission.value.x + submission.value.w > d.content.Columns) {
    return data({ intent: "widget" as const, version, result: submission.reply({ fieldErrors: { w: [t("dashboards.validation.pastColumns", { columns: d.content.Columns })] } }) }, { status: 400 });
  }
  const existing = typeof widgetId === "string" && widgetId ? d.content.Widgets.find((w) => w.ID === widgetId) : undefined;
  if (!existing && d.content.Widgets.length >= 64) return reply(400, ["dashboards.validation.tooManyWidgets"]);
  const widget = widgetFromForm(existing?.ID ?? newWidgetId(d.content), submission.value);
  const Widgets = existing ? d.content.Widgets.map((w) => (w.ID === existing.ID ? widget : w)) : [...d.content.Widgets, widget];
  return commit(args, { id, version, name: d.Name, content: { ...d.content, Widgets }, reply, done: "dashboardManager.editor.widgetSaved" });
}

function newWidgetId(content: DashboardContent) {
  for (let n = content.Widgets.length + 1; ; n++) if (!content.Widgets.some((w) => w.ID === `w${n}`)) return `w${n}`;
}

/** A removal or layout change that has no form to keep: a conflict becomes an error toast. */
async function changeContent(args: Args, formData: FormData, change: (c: DashboardContent) => DashboardContent | null, done: string) {
  const id = readText(formData, "id");
  const { t } = getInstance(args.context);
  const d = await stored(args, id);
  const version = readVersion(formData);
  const next = change(d.content);
  const valid = next && contentSchema.safeParse(next);
  if (!valid?.success) throw data({ reason: "bad-request" }, { status: 400 });
  const fail = (text: string) => redirectWithToast(args.context, editHref(id), { type: "error", text });
  if (version !== undefined && version !== d.Version) return fail(t("dashboardManager.manager.conflict"));
  const refused = await refusalOf(() => saveDashboard(stateOf(args.context).logger, { ID: id, Version: version, Name: d.Name, Content: valid.data }));
  if (refused) return fail(refused.status === 409 ? t("dashboardManager.manager.conflict") : refused.message);
  return redirectWithToast(args.context, editHref(id), { type: "success", text: t(done) });
}

function removeWidget(args: Args, formData: FormData) {
  const widgetId = formData.get("widgetId");
  return changeContent(args, formData, (c) => ({ ...c, Widgets: c.Widgets.filter((w) => w.ID !== widgetId) }), "dashboardManager.editor.widgetRemoved");
}

function saveLayout(args: Args, formData: FormData) {
  let boxes: z.output<typeof layoutSchema>;
  try {
    boxes = layoutSchema.parse(JSON.parse(String(formData.get("layout"))));
  } catch {
    throw data({ reason: "bad-request" }, { status: 400 });
  }
  const at = new Map(boxes.map((b) => [b.ID, b]));
  return changeContent(args, formData, (c) => ({ ...c, Widgets: c.Widgets.map((w) => ({ ...w, ...at.get(w.ID), ID: w.ID })) }), "dashboardManager.editor.layoutSaved");
}

async function duplicate(args: Args, formData: FormData) {
  const d = await stored(args, readText(formData, "id"));
  const { t } = getInstance(args.context);
  await saveDashboard(stateOf(args.context).logger, { Name: t("dashboardManager.manager.copyOf", { name: d.Name }).slice(0, 100), Content: d.content });
  return redirectWithToast(args.context, PATH, { type: "success", text: t("dashboardManager.manager.duplicated") });
}

async function remove(args: Args, formData: FormData) {
  requireConfirmation(formData);
  const { t } = getInstance(args.context);
  const refused = await refusalOf(() => removeDashboard(stateOf(args.context).logger, readText(formData, "id")));
  if (refused && refused.status !== 404) return data({ intent: "remove" as const, error: refused.message }, { status: 400 });
  return redirectWithToast(args.context, PATH, { type: "success", text: t("dashboardManager.manager.removed") });
}

async function makeDefault(args: Args, formData: FormData) {
  const d = await stored(args, readText(formData, "id"));
  await setDefaultDashboard(stateOf(args.context).logger, d.ID);
  return redirectWithToast(args.context, PATH, { type: "success", text: getInstance(args.context).t("dashboardManager.manager.defaultSet", { name: d.Name }) });
}

async function importFile({ context }: Args, formData: FormData) {
  const { t } = getInstance(context);
  const file = formData.get("file");
  const pasted = formData.get("json");
  const text = file instanceof File && file.size > 0 ? await file.text() : typeof pasted === "string" ? pasted.trim() : "";
  const fail = (message: string) => data({ intent: "import" as const, error: message }, { status: 400 });
  if (!text) return fail(t("dashboardManager.import.empty"));
  if (text.length > 1_000_000) return fail(t("dashboardManager.import.bad", { problem: "larger than 1 MB" }));
  const parsed = parseExportFile(text);
  if (!parsed.ok) return fail(t("dashboardManager.import.bad", { problem: parsed.problem }));
  const refused = await refusalOf(() => saveDashboard(stateOf(context).logger, { Name: parsed.file.Name, Content: parsed.file.Content }));
  if (refused) return fail(t("dashboardManager.import.bad", { problem: refused.message }));
  return redirectWithToast(context, PATH, { type: "success", text: t("dashboardManager.manager.imported", { name: parsed.file.Name }) });
}

type LoaderData = Route.ComponentProps["loaderData"];
/** What the action answers when it does not redirect (a form to show again, or a refusal). */
type Reply =
  | { intent: "create" | "settings" | "widget"; version?: number; result: SubmissionResult<string[]> }
  | { intent: "remove" | "import"; error: string };

export default function DashboardManager({ loaderData, actionData: raw }: Route.ComponentProps) {
  const actionData = raw as Reply | undefined;
  const t = useT();
  const [params] = useSearchParams();
  const { dashboards, editing } = loaderData;
  const removing = dashboards.find((d) => d.ID === params.get("remove"));
  const removeError = actionData?.intent === "remove" ? actionData.error : undefined;
  const importError = actionData?.intent === "import" ? actionData.error : undefined;
  const createResult = actionData?.intent === "create" ? actionData.result : undefined;
  return (
    <section className="flex max-w-6xl flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("dashboardManager.manager.title")}</h1>
        <Link to={`${PATH}?add`} className={buttonClass}>
          {t("dashboardManager.manager.add")}
        </Link>
      </div>
      {removing && <ConfirmPanel title={t("dashboardManager.manager.removeTitle")} {...removeForm(removing, t)} />}
      {loaderData.editMissing && <FormErrors errors={[t("dashboardManager.manager.gone")]} />}
      {params.has("add") && (
        <div className={cardClass}>
          <h2 className="mb-4 text-lg font-semibold">{t("dashboardManager.manager.addTitle")}</h2>
          <CreateForm lastResult={createResult} />
        </div>
      )}
      {loaderData.exporting && <ExportPanel {...loaderData.exporting} />}
      {editing?.content && <Editor loaderData={loaderData} dashboard={editing as StoredDashboard & { content: DashboardContent }} actionData={actionData} />}
      <div className={`${cardClass} flex flex-col gap-4 overflow-x-auto`}>
        <FormErrors errors={removeError ? [removeError] : undefined} />
        {dashboards.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">{t("dashboardManager.manager.empty")}</p>
        ) : (
          <table className="w-full text-left text-sm" aria-label={t("dashboardManager.manager.title")} data-testid="dashboards-table">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-500 dark:border-slate-700">
              <tr>
                <th scope="col" className="px-4 py-2">
                  {t("dashboardManager.manager.name")}
                </th>
                <th scope="col" className="px-4 py-2">
                  {t("dashboardManager.manager.default")}
                </th>
                <th scope="col" className="px-4 py-2">
                  <span className="sr-only">{t("common.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {dashboards.map((d) => (
                <tr key={d.ID} className="border-b border-slate-100 last:border-0 dark:border-slate-700" data-dashboard={d.Name}>
                  <th scope="row" className={`px-4 py-2 ${d.IsDefault ? "font-bold" : "font-medium"}`}>
                    <Link to={`/${d.ID}`} className="hover:underline">
                      {d.Name}
                    </Link>
                  </th>
                  <td className="px-4 py-2">
                    {d.IsDefault ? (
                      <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-white">{t("dashboardManager.manager.default")}</span>
                    ) : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="setDefault" />
                        <input type="hidden" name="id" value={d.ID} />
                        <button type="submit" className={linkButton} aria-label={`${t("dashboardManager.manager.setDefault")}: ${d.Name}`}>
                          {t("dashboardManager.manager.setDefault")}
                        </button>
                      </Form>
                    )}
                  </td>
                  <td className="px-4 py-2">
                    <div className="flex flex-wrap justify-end gap-4 whitespace-nowrap">
                      <Link to={`${PATH}?edit=${d.ID}`} className={linkButton} aria-label={`${t("dashboardManager.manager.edit")}: ${d.Name}`}>
                        {t("dashboardManager.manager.edit")}
                      </Link>
                      <Form method="post">
                        <input type="hidden" name="intent" value="duplicate" />
                        <input type="hidden" name="id" value={d.ID} />
                        <button type="submit" className={linkButton} aria-label={`${t("dashboardManager.manager.duplicate")}: ${d.Name}`}>
                          {t("dashboardManager.manager.duplicate")}
                        </button>
                      </Form>
                      <Link to={`${PATH}?export=${d.ID}`} className={linkButton} aria-label={`${t("dashboardManager.manager.export")}: ${d.Name}`}>
                        {t("dashboardManager.manager.export")}
                      </Link>
                      <ConfirmAction label={t("dashboardManager.manager.remove")} title={t("dashboardManager.manager.removeTitle")} confirmHref={`${PATH}?remove=${d.ID}`} {...removeForm(d, t)} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <ImportForm error={importError} />
    </section>
  );
}

function removeForm(d: { ID: string; Name: string }, t: TFunction) {
  return { fields: { intent: "remove", id: d.ID }, message: t("dashboardManager.manager.removeConfirm", { name: d.Name }), confirmLabel: t("dashboardManager.manager.removeButton"), cancelHref: PATH };
}

function CreateForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
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

function ExportPanel({ name, json }: { name: string; json: string }) {
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

function ImportForm({ error }: { error?: string }) {
  const t = useT();
  const navigation = useNavigation();
  return (
    <Form method="post" encType="multipart/form-data" className={`${cardClass} flex flex-col gap-4`} data-testid="import-form">
      <h2 className="text-lg font-semibold">{t("dashboardManager.import.title")}</h2>
      <input type="hidden" name="intent" value="import" />
      <FormErrors errors={error ? [error] : undefined} />
      <FormField id="import-file" label={t("dashboardManager.import.file")}>
        <input id="import-file" type="file" name="file" accept="application/json,.json" className="text-sm" />
      </FormField>
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

function Editor({ loaderData, dashboard, actionData }: { loaderData: LoaderData; dashboard: StoredDashboard & { content: DashboardContent }; actionData?: Reply }) {
  const t = useT();
  const [params] = useSearchParams();
  const content = dashboard.content;
  const last = actionData && "result" in actionData ? actionData : undefined;
  // After a conflict the forms carry the Version their next save is based on.
  const version = last?.version ?? dashboard.Version;
  const variableName = new Map(loaderData.variables.map((v) => [v.Id, v.Name]));
  const titles = Object.fromEntries(content.Widgets.map((w) => [w.ID, w.Title || (w.Type === "alarms" ? "" : variableName.get(w.Variables[0] ?? "")) || t(`dashboards.types.${w.Type}`)]));
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
          <Link to={PATH} className={linkButton}>
            {t("dashboardManager.editor.close")}
          </Link>
        </div>
      </div>
      <SettingsForm key={`settings-${dashboard.Version}`} dashboard={dashboard} version={version} lastResult={last?.intent === "settings" ? last.result : undefined} />
      <section className="flex flex-col gap-3">
        <h3 className="font-semibold">{t("dashboardManager.editor.layout")}</h3>
        <LayoutEditor key={dashboard.Version} dashboardId={dashboard.ID} version={dashboard.Version} content={content} titles={titles} />
      </section>
      <section className="flex flex-col gap-3">
        <h3 className="font-semibold">{t("dashboardManager.editor.widgets")}</h3>
        {loaderData.variablesError && <FormErrors errors={[t("dashboardManager.editor.variablesUnavailable", { error: loaderData.variablesError })]} />}
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
              variables={loaderData.variables}
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
        <FormField id={fields.range.id} label={t("dashboardManager.editor.range")}>
          <select {...getSelectProps(fields.range)} className={inputClass}>
            {RANGES.map((r) => (
              <option key={r} value={r}>
                {t(`dashboards.range.${r}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={fields.refresh.id} label={t("dashboardManager.editor.refresh")}>
          <select {...getSelectProps(fields.refresh)} className={inputClass}>
            {REFRESH.map((r) => (
              <option key={r} value={r}>
                {t(`dashboards.refresh.${r}`)}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          {t("dashboardManager.editor.saveSettings")}
        </button>
      </div>
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.dashboardManager");
}

