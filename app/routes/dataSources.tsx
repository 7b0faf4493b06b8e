import type { TFunction } from "i18next";
import { data, Link, redirect, useSearchParams } from "react-router";
import { keptData, stateOf } from "~/services/context.server";
import { browseDraft, browseStep, BROWSE_INTENT, passwordOf, type FormReply } from "~/services/dataSources.form.server";
import { browseLevel, inputOf, sourceStates, variableOfNode } from "~/services/dataSources.server";
import { readId, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer } from "~/services/logger/schemas";
import { PROTOCOLS, sourceAnswer, sourcesAnswer, type DataSourceView } from "~/services/logger/sourceSchemas";
import { isRefusal, refusalOf } from "~/services/submission.server";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { BrowsePanel, type BrowseLevel } from "~/ui/dataSources/BrowsePanel";
import { checkDraft, draftFromForm, draftOf, isProtocol, loggerErrors, newDraft, newVariable, translated, type Draft, type Errors } from "~/ui/dataSources/draft";
import { problemMessage } from "~/ui/dataSources/problem";
import { SourceForm } from "~/ui/dataSources/SourceForm";
import { SourceList } from "~/ui/dataSources/SourceList";
import { buttonClass } from "~/ui/formClasses";
import { FormErrors } from "~/ui/FormField";
import { ListPage } from "~/ui/ListPage";
import { listHref } from "~/ui/pageState";
import { Panel } from "~/ui/Panel";
import { pageTitle } from "~/ui/title";
import { usePolling } from "~/ui/usePolling";
import { useT } from "~/ui/useT";
import type { Route } from "./+types/dataSources";

// Data sources (issue 16, decision 0010): MQTT, Modbus TCP and OPC UA devices the embedded logger
// acquires from. Page states in the URL (?add=<protocol>, ?edit=ID, ?remove=ID, ?browse=ID with
// the browse path) keep every step a link or a form post, so it all works without JavaScript.
const PATH = "/dataSources";
const PAGE_STATES = ["add", "edit", "remove", "browse", "node", "name"];

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "dataSources");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const [{ Sources }, states] = await Promise.all([logger.readFreshRpc("DataSourceAPI.List", {}, sourcesAnswer), sourceStates(logger)]);
  const browseId = params.get("browse");
  const browsed = browseId === null ? undefined : Sources.find((s) => String(s.ID) === browseId && s.Protocol === "opcua");
  const browse = browsed ? { id: browsed.ID, level: await browseLevel(logger, browsed, params) } : null;
  return keptData(args.context, { sources: Sources, states, browse });
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "dataSources");
  const formData = await args.request.formData();
  const intent = formData.get("intent");
  if (intent === "remove") return removeSource(args, formData);
  if (intent === "addNode") return addNode(args, formData);
  if (typeof intent === "string" && (intent === "save" || intent === "addRow" || /^removeRow:\d{1,4}$/.test(intent) || BROWSE_INTENT.test(intent))) return formStep(args, formData, intent);
  throw data({ reason: "bad-request" }, { status: 400 });
}

/**
 * Save; (without JavaScript) add or remove a variable row; or browse the OPC UA server with the
 * connection as typed: the form comes back as typed, its password kept server-side (never in the page).
 */
async function formStep({ context }: Route.ActionArgs, formData: FormData, intent: string) {
  const protocol = formData.get("Protocol");
  if (!isProtocol(protocol)) throw data({ reason: "bad-request" }, { status: 400 });
  const id = formData.get("id") ? readId(formData.get("id")) : null;
  const draft = draftFromForm(formData, protocol);
  const password = passwordOf(context, formData);
  const reply = (errors: Errors, status = 200, shown: Draft = draft, browse: BrowseLevel | null = null) =>
    data({ form: { id, draft: shown, errors, nonce: crypto.randomUUID(), pending: password.keep(), browse } satisfies FormReply }, { status });
  if (intent === "addRow") return reply({}, 200, { ...draft, variables: [...draft.variables, newVariable(protocol)] });
  if (intent.startsWith("removeRow:")) {
    const index = Number(intent.slice("removeRow:".length));
    return reply({}, 200, { ...draft, variables: draft.variables.filter((_, i) => i !== index) });
  }
  if (intent.startsWith("browse")) {
    if (protocol !== "opcua") throw data({ reason: "bad-request" }, { status: 400 });
    const step = browseStep(intent, formData, draft);
    if (!step) return reply({});
    const { level, errors } = await browseDraft(stateOf(context).logger, step.draft, password, id, step.trail);
    return reply(errors, level ? 200 : 400, step.draft, level);
  }
  const { payload, errors } = checkDraft(draft, password, id);
  if (!payload) return reply(errors, 400);
  const { t } = getInstance(context);
  let saved: DataSourceView | undefined;
  const refused = await refusalOf(async () => (saved = (await stateOf(context).logger.rpc("DataSourceAPI.Set", { Source: payload }, sourceAnswer)).Source), t);
  if (refused?.status === 404) return redirectWithToast(context, PATH, { type: "error", text: t("dataSources.gone") });
  if (!refused) password.done();
  if (refused) return reply(translated(loggerErrors(refused.description, draft), (text) => problemMessage(t, refused.problem, text)), 400);
  const text = t(id === null ? "dataSources.added" : "dataSources.saved", { name: saved!.Name });
  // A new OPC UA source saved without variables: straight on to picking them from the server.
  const next = id === null && saved!.Protocol === "opcua" && saved!.Variables.length === 0 ? `${PATH}?browse=${saved!.ID}` : PATH;
  return redirectWithToast(context, next, { type: "success", text });
}

async function removeSource({ context }: Route.ActionArgs, formData: FormData) {
  requireConfirmation(formData);
  const id = readId(formData.get("id"));
  const { t } = getInstance(context);
  const refused = await refusalOf(() => stateOf(context).logger.rpc("DataSourceAPI.Delete", { ID: id }, emptyAnswer.loose()), t);
  if (refused?.status === 404) return redirectWithToast(context, PATH, { type: "error", text: t("dataSources.gone") });
  if (refused) return data({ removeError: refused.message }, { status: 400 });
  return redirectWithToast(context, PATH, { type: "success", text: t("dataSources.removed") });
}

/** A browsed Variable node becomes a variable of the source, its attributes read again from the server. */
async function addNode({ context, url }: Route.ActionArgs, formData: FormData) {
  const id = readId(formData.get("id"));
  const nodeId = String(formData.get("NodeId") ?? "");
  const { logger } = stateOf(context);
  const { t } = getInstance(context);
  const back = `${PATH}${url.search}`;
  const Source = await logger.rpc("DataSourceAPI.Get", { ID: id }, sourceAnswer).then(
    (answer) => answer.Source,
    (error: unknown) => {
      if (isRefusal(error)) return null;
      throw error;
    },
  );
  if (!Source || Source.Protocol !== "opcua") return redirectWithToast(context, PATH, { type: "error", text: t("dataSources.gone") });
  if (Source.Variables.some((v) => v.Address.NodeId === nodeId)) return redirect(back);
  const failed = (text: string) => data({ browseError: text }, { status: 400 });
  const level = await browseLevel(logger, Source, url.searchParams);
  if (level.error) return failed(problemMessage(t, level.error.problem, level.error.text));
  const node = level.nodes.find((n) => n.NodeId === nodeId && n.NodeClass === "Variable");
  if (!node) return failed(t("dataSources.browse.nodeGone"));
  const variable = variableOfNode(Source, node);
  const refused = await refusalOf(() => logger.rpc("DataSourceAPI.Set", { Source: { ...inputOf(Source), Variables: [...Source.Variables, variable] } }, sourceAnswer), t);
  if (refused) return failed(problemMessage(t, refused.problem, refused.message));
  return redirectWithToast(context, back, { type: "success", text: t("dataSources.browse.addedToast", { name: variable.Name }) });
}

export default function DataSources({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { sources, states, browse } = loaderData;
  const byId = (key: string) => sources.find((s) => String(s.ID) === params.get(key));
  const editing = byId("edit");
  const addProtocol = params.get("add");
  const adding = !editing && isProtocol(addProtocol) ? addProtocol : null;
  const removing = byId("remove");
  const browsed = browse ? sources.find((s) => s.ID === browse.id) : undefined;
  const reply = actionData && "form" in actionData ? actionData.form : undefined;
  const formOpen = adding !== null || editing !== undefined;
  // Connection states move on by themselves; refreshing would not touch an open form's inputs,
  // but its answer could replace a refused form's draft, so only the bare list polls.
  usePolling(5000, !formOpen && !removing && !browse);
  const form = formOpen ? formState(editing, adding, reply) : null;
  return (
    <ListPage
      title={t("nav.dataSources")}
      testId="data-sources"
      actions={PROTOCOLS.map((p) => (
        <Link key={p} to={pageHref(params, "add", p)} className={buttonClass} preventScrollReset>
          {t(`dataSources.add_${p}`)}
        </Link>
      ))}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("dataSources.intro")}</p>
      {removing && <ConfirmPanel title={t("dataSources.removeTitle")} {...removeForm(removing, params, t)} />}
      {form && (
        <Panel title={editing ? t("dataSources.editTitle", { name: editing.Name }) : t(`dataSources.addTitle_${form.draft.protocol}`)}>
          <SourceForm
            key={form.key}
            id={editing?.ID ?? null}
            draft={form.draft}
            errors={form.errors}
            hasPassword={editing !== undefined && "HasPassword" in editing.Connection && editing.Connection.HasPassword}
            cancelHref={pageHref(params)}
            pending={form.pending}
            browse={form.browse}
            seenFingerprint={editing ? states.find((s) => s.ID === editing.ID)?.ServerFingerprint : null}
          />
        </Panel>
      )}
      {browse && browsed && (
        <>
          <FormErrors errors={actionData && "browseError" in actionData && actionData.browseError ? [actionData.browseError] : undefined} />
          <BrowsePanel
            sourceId={browsed.ID}
            sourceName={browsed.Name}
            level={browse.level as BrowseLevel}
            added={new Set(browsed.Protocol === "opcua" ? browsed.Variables.map((v) => v.Address.NodeId) : [])}
            hrefOf={(trail) => browseHref(params, browsed.ID, trail)}
            closeHref={pageHref(params)}
          />
        </>
      )}
      <section className="flex min-w-0 flex-col gap-3" aria-labelledby="sources-title">
        <h2 id="sources-title" className="text-lg font-semibold">
          {t("dataSources.listTitle")}
        </h2>
        <FormErrors errors={actionData && "removeError" in actionData ? [actionData.removeError] : undefined} />
        <SourceList sources={sources} states={states} hrefOf={(state, id) => pageHref(params, state, id)} removeFormOf={(s) => removeForm(s, params, t)} />
      </section>
    </ListPage>
  );
}

/** The form's draft: the action's answer (as typed, with its errors) if it is about this form, else the stored source or a new one. */
function formState(editing: DataSourceView | undefined, adding: string | null, reply: FormReply | undefined) {
  const mine = reply && (editing ? reply.id === editing.ID : reply.id === null && reply.draft.protocol === adding);
  if (mine) return { draft: reply.draft, errors: reply.errors, key: reply.nonce, pending: reply.pending, browse: reply.browse };
  if (editing) return { draft: draftOf(editing), errors: {}, key: `edit-${editing.ID}`, pending: null, browse: null };
  return { draft: newDraft(isProtocol(adding) ? adding : "mqtt"), errors: {}, key: `add-${adding}`, pending: null, browse: null };
}

/** The page URL with at most one page state. */
const pageHref = (params: URLSearchParams, state?: string, id?: number | string) => listHref(PATH, params, PAGE_STATES, state, id);

function browseHref(params: URLSearchParams, id: number, trail: BrowseLevel["trail"]) {
  const next = new URLSearchParams(pageHref(params, "browse", id).split("?")[1]);
  for (const step of trail) {
    next.append("node", step.nodeId);
    next.append("name", step.name);
  }
  return `${PATH}?${next}`;
}

function removeForm(source: DataSourceView, params: URLSearchParams, t: TFunction) {
  return {
    fields: { intent: "remove", id: String(source.ID) },
    message: t("dataSources.removeConfirm", { name: source.Name }),
    confirmLabel: t("dataSources.removeConfirmButton"),
    cancelHref: pageHref(params),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.dataSources");
}
