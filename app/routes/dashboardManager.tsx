import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useT } from "~/ui/useT";
import { data, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import {
  contentSchema,
  createSchema,
  EMPTY_CONTENT,
  layoutSchema,
  parseExportFile,
  settingsSchema,
  toExportFile,
  widgetFormSchema,
  widgetFromForm,
  type DashboardContent,
} from "~/schemas/dashboards";
import { stateOf } from "~/services/context.server";
import type { LoggerClient } from "~/services/logger/client.server";
import { loadVariables } from "~/services/variables.server";
import { failureText, getDashboard, getDashboardVersion, listDashboards, listDashboardVersions, removeDashboard, restoreDashboardVersion, saveDashboard, setDefaultDashboard, type StoredDashboard } from "~/services/dashboards.server";
import { versionDiff } from "~/ui/dashboardManager/versionDiff";
import { seedText } from "~/ui/seedTexts";
import type { HistoryData } from "~/ui/dashboardManager/VersionHistory";
import { readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { answerOf, refusalOf, replyStatus } from "~/services/submission.server";
import { LoggerError } from "~/services/logger/errors";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { DashboardEditor, type Reply } from "~/ui/dashboardManager/DashboardEditor";
import { DashboardsTable } from "~/ui/dashboardManager/DashboardsTable";
import { CreateForm, ExportPanel, ImportForm } from "~/ui/dashboardManager/ManagerForms";
import { buttonClass, FormErrors } from "~/ui/FormField";
import { ListPage } from "~/ui/ListPage";
import { Panel } from "~/ui/Panel";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/dashboardManager";

const PATH = "/dashboardManager";
const INTENTS = ["create", "settings", "duplicate", "remove", "setDefault", "import", "widget", "removeWidget", "layout", "restore"] as const;

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
  const listed = editing ? await pickable(logger) : { variables: [], error: null };
  const history = editing?.content && params.has("history") ? await loadHistory(logger, editing as StoredDashboard & { content: DashboardContent }, params, listed.variables) : null;
  return {
    dashboards,
    editing,
    history,
    editMissing: editId !== null && !editing,
    variables: listed.variables,
    variablesError: listed.error,
    exporting: exporting?.content ? { name: exporting.Name, json: JSON.stringify(toExportFile(exporting.Name, exporting.content), null, 2) } : null,
  };
}

/** The history page state: the kept versions, the changes of one (&diff=N), or what restoring one changes (&restore=N). */
async function loadHistory(logger: LoggerClient, d: StoredDashboard & { content: DashboardContent }, params: URLSearchParams, variables: { Id: string; Name: string }[]): Promise<HistoryData> {
  const { Current, Kept, Versions } = await listDashboardVersions(logger, d.ID);
  const nameOf = new Map(variables.map((v) => [v.Id, v.Name]));
  const names = (id: string) => nameOf.get(id);
  const asked = (key: string) => {
    const n = Number(params.get(key));
    return Number.isInteger(n) && Versions.some((v) => v.Version === n) ? n : null;
  };
  const current = { Name: d.Name, Content: d.content };
  let diff: HistoryData["diff"] = null;
  const diffOf = asked("diff");
  if (diffOf !== null) {
    const before = Versions.find((v) => v.Version < diffOf)?.Version ?? null;
    const [after, prev] = await Promise.all([getDashboardVersion(logger, d.ID, diffOf), before === null ? null : getDashboardVersion(logger, d.ID, before)]);
    if (after) diff = { version: diffOf, against: prev ? before : null, changes: versionDiff(prev ?? { Name: after.Name, Content: { ...after.Content, Widgets: [] } }, after, names) };
  }
  let restore: HistoryData["restore"] = null;
  const restoreOf = asked("restore");
  if (restoreOf !== null && restoreOf !== d.Version) {
    const target = await getDashboardVersion(logger, d.ID, restoreOf);
    if (target) restore = { version: restoreOf, changes: versionDiff(current, target, names) };
  }
  return { current: Current, kept: Kept ?? 100, versions: Versions, diff, restore };
}

/** The variables with their device's name (the widget form's picker groups by it), or an error text. */
async function pickable(logger: LoggerClient) {
  try {
    return { variables: (await loadVariables(logger)).variables, error: null };
  } catch (error) {
    return { variables: [], error: failureText(error) };
  }
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
    case "restore":
      return restore(args, formData);
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

/** The dashboard an edit is about, how reading it failed (said like a failed save), or a redirect saying it is gone. */
async function stored(args: Args, id: string): Promise<(StoredDashboard & { content: DashboardContent }) | LoggerError> {
  const d = await answerOf(() => getDashboard(stateOf(args.context).logger, id), getInstance(args.context).t);
  if (d instanceof LoggerError || d?.content) return d as (StoredDashboard & { content: DashboardContent }) | LoggerError;
  throw redirectWithToast(args.context, PATH, { type: "error", text: getInstance(args.context).t("dashboardManager.manager.gone") });
}

async function create({ context }: Args, formData: FormData) {
  const submission = parseWithZod(formData, { schema: createSchema });
  if (submission.status !== "success") return data({ intent: "create" as const, result: submission.reply() }, { status: 400 });
  const saved = await answerOf(() => saveDashboard(stateOf(context).logger, { Name: submission.value.name, Content: EMPTY_CONTENT }), getInstance(context).t);
  if (saved instanceof LoggerError) return data({ intent: "create" as const, result: submission.reply({ formErrors: [saved.message] }) }, { status: replyStatus(saved) });
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
  if (d instanceof LoggerError) return reply(replyStatus(d), [d.message]);
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
  const refused = await refusalOf(() => saveDashboard(logger, { ID: o.id, Version: o.version, Name: o.name, Content: o.content }), t);
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
  if (d instanceof LoggerError) return reply(replyStatus(d), [d.message]);
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
  const fail = (text: string) => redirectWithToast(args.context, editHref(id), { type: "error", text });
  const d = await stored(args, id);
  if (d instanceof LoggerError) return fail(d.message);
  const version = readVersion(formData);
  const next = change(d.content);
  const valid = next && contentSchema.safeParse(next);
  if (!valid?.success) throw data({ reason: "bad-request" }, { status: 400 });
  if (version !== undefined && version !== d.Version) return fail(t("dashboardManager.manager.conflict"));
  const refused = await refusalOf(() => saveDashboard(stateOf(args.context).logger, { ID: id, Version: version, Name: d.Name, Content: valid.data }), t);
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

/** A kept version becomes the current one (as a new version); confirmed, with the Version it was confirmed against. */
async function restore(args: Args, formData: FormData) {
  requireConfirmation(formData);
  const id = readText(formData, "id");
  const version = Number(formData.get("version"));
  if (!Number.isInteger(version) || version < 1) throw data({ reason: "bad-request" }, { status: 400 });
  const { t } = getInstance(args.context);
  const history = `${editHref(id)}&history`;
  const current = Number(formData.get("current"));
  const refused = await refusalOf(() => restoreDashboardVersion(stateOf(args.context).logger, id, version, Number.isInteger(current) && current > 0 ? current : undefined), t);
  if (refused?.status === 409) return redirectWithToast(args.context, history, { type: "error", text: t("dashboardManager.manager.conflict") });
  if (refused) return redirectWithToast(args.context, history, { type: "error", text: refused.message });
  return redirectWithToast(args.context, history, { type: "success", text: t("dashboardManager.history.restored", { version }) });
}

/** A row's button (duplicate, make default) that failed: said under the list, where the remove's refusal is. */
const rowFailure = (error: LoggerError) => data({ intent: "row" as const, error: error.message }, { status: replyStatus(error) });

async function duplicate(args: Args, formData: FormData) {
  const d = await stored(args, readText(formData, "id"));
  if (d instanceof LoggerError) return rowFailure(d);
  const { t } = getInstance(args.context);
  const refused = await refusalOf(() => saveDashboard(stateOf(args.context).logger, { Name: t("dashboardManager.manager.copyOf", { name: seedText(t, d.Name) }).slice(0, 100), Content: d.content }), t);
  if (refused) return rowFailure(refused);
  return redirectWithToast(args.context, PATH, { type: "success", text: t("dashboardManager.manager.duplicated") });
}

async function remove(args: Args, formData: FormData) {
  requireConfirmation(formData);
  const { t } = getInstance(args.context);
  const refused = await refusalOf(() => removeDashboard(stateOf(args.context).logger, readText(formData, "id")), t);
  if (refused && refused.status !== 404) return data({ intent: "remove" as const, error: refused.message }, { status: replyStatus(refused) });
  return redirectWithToast(args.context, PATH, { type: "success", text: t("dashboardManager.manager.removed") });
}

async function makeDefault(args: Args, formData: FormData) {
  const d = await stored(args, readText(formData, "id"));
  if (d instanceof LoggerError) return rowFailure(d);
  const { t } = getInstance(args.context);
  const refused = await refusalOf(() => setDefaultDashboard(stateOf(args.context).logger, d.ID), t);
  if (refused) return rowFailure(refused);
  return redirectWithToast(args.context, PATH, { type: "success", text: t("dashboardManager.manager.defaultSet", { name: seedText(t, d.Name) }) });
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
  const refused = await refusalOf(() => saveDashboard(stateOf(context).logger, { Name: parsed.file.Name, Content: parsed.file.Content }), t);
  if (refused) return fail(t("dashboardManager.import.bad", { problem: refused.message }));
  return redirectWithToast(context, PATH, { type: "success", text: t("dashboardManager.manager.imported", { name: parsed.file.Name }) });
}

export default function DashboardManager({ loaderData, actionData: raw }: Route.ComponentProps) {
  const actionData = raw as Reply | undefined;
  const t = useT();
  const [params] = useSearchParams();
  const { dashboards, editing } = loaderData;
  const removing = dashboards.find((d) => d.ID === params.get("remove"));
  const removeError = actionData?.intent === "remove" || actionData?.intent === "row" ? actionData.error : undefined;
  const importError = actionData?.intent === "import" ? actionData.error : undefined;
  const createResult = actionData?.intent === "create" ? actionData.result : undefined;
  return (
    <ListPage
      title={t("dashboardManager.manager.title")}
      actions={
        <Link to={`${PATH}?add`} className={buttonClass}>
          {t("dashboardManager.manager.add")}
        </Link>
      }
    >
      {removing && <ConfirmPanel title={t("dashboardManager.manager.removeTitle")} {...removeForm(removing, t)} />}
      {loaderData.editMissing && <FormErrors errors={[t("dashboardManager.manager.gone")]} />}
      {params.has("add") && (
        <Panel title={t("dashboardManager.manager.addTitle")}>
          <CreateForm lastResult={createResult} />
        </Panel>
      )}
      {loaderData.exporting && <ExportPanel {...loaderData.exporting} />}
      {editing?.content && <DashboardEditor variables={loaderData.variables} variablesError={loaderData.variablesError} dashboard={editing as StoredDashboard & { content: DashboardContent }} actionData={actionData} history={loaderData.history} />}
      <FormErrors errors={removeError ? [removeError] : undefined} />
      <DashboardsTable dashboards={dashboards} removeForm={(d) => removeForm(d, t)} />
      <ImportForm error={importError} />
    </ListPage>
  );
}

function removeForm(d: { ID: string; Name: string }, t: TFunction) {
  return { fields: { intent: "remove", id: d.ID }, message: t("dashboardManager.manager.removeConfirm", { name: seedText(t, d.Name) }), confirmLabel: t("dashboardManager.manager.removeButton"), cancelHref: PATH };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.dashboardManager");
}

