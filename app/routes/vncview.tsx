import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { DEFAULT_PORT, vncTargetSchema } from "~/schemas/vnc";
import { keptData, stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, idAnswer, vncTargetsAnswer, type VncTarget } from "~/services/logger/schemas";
import { refusalOf } from "~/services/submission.server";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { ListPage } from "~/ui/ListPage";
import { Panel } from "~/ui/Panel";
import { RowActions, RowLink, RowRemove } from "~/ui/RowActions";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { pageTitle } from "~/ui/title";
import { VncViewer } from "~/ui/vnc/VncViewer";
import { listHref } from "~/ui/pageState";
import type { Route } from "./+types/vncview";

// The VNC view (issue #8): noVNC in the page, connected through the console's WebSocket proxy
// (server/vnc-proxy.ts) to a target an administrator configured here. The password of a target
// stays on the logger: the list carries only whether one is set.
const PATH = "/vncview";
const PAGE_STATES = ["add", "edit", "remove"];

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "vncview");
  const { Targets } = await stateOf(args.context).logger.readFreshRpc("VncAPI.List", {}, vncTargetsAnswer);
  return keptData(args.context, { targets: Targets, canManage: holds(auth, "ManageGlobalSettings") });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "vncview");
  requirePermission(auth, "ManageGlobalSettings");
  const formData = await args.request.formData();
  switch (readIntent(formData, ["add", "edit", "remove"] as const)) {
    case "add":
      return saveTarget(args, formData, null);
    case "edit":
      return saveTarget(args, formData, readId(formData.get("id")));
    case "remove":
      return removeTarget(args, formData);
  }
}

async function saveTarget({ context }: Route.ActionArgs, formData: FormData, id: number | null) {
  const intent = id === null ? ("add" as const) : ("edit" as const);
  const submission = parseWithZod(formData, { schema: vncTargetSchema });
  // The password field is never sent back to the page.
  const reply = (status: number, formErrors?: string[]) =>
    data({ intent, id, result: submission.reply({ formErrors, hideFields: ["password"] }) }, { status });
  if (submission.status !== "success") return reply(400);
  const { name, host, port, password, clearPassword } = submission.value;
  const { logger } = stateOf(context);
  const { t } = getInstance(context);
  // Empty password: keep the stored one (edit) or none (add); the box removes it.
  const Password = clearPassword ? "" : password || undefined;
  const refused = await refusalOf(() => logger.rpc("VncAPI.Set", { ID: id ?? -1, Name: name, Host: host, Port: port, ...(Password === undefined ? {} : { Password }) }, idAnswer), t);
  if (refused?.status === 404) return redirectWithToast(context, PATH, { type: "error", text: t("vnc.gone") });
  if (refused) return reply(400, [refused.message]);
  return redirectWithToast(context, PATH, { type: "success", text: t(id === null ? "vnc.added" : "vnc.saved") });
}

async function removeTarget({ context }: Route.ActionArgs, formData: FormData) {
  requireConfirmation(formData);
  const id = readId(formData.get("id"));
  const { t } = getInstance(context);
  const refused = await refusalOf(() => stateOf(context).logger.rpc("VncAPI.Remove", { ID: id }, emptyAnswer), t);
  if (refused?.status === 404) return redirectWithToast(context, PATH, { type: "error", text: t("vnc.gone") });
  if (refused) return data({ intent: "remove" as const, id, error: refused.message }, { status: 400 });
  return redirectWithToast(context, PATH, { type: "success", text: t("vnc.removed") });
}

export default function VncView({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { targets, canManage } = loaderData;
  // The server renders the "needs JavaScript" note; the viewer takes its place once React runs.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const byId = (key: string) => targets.find((target) => String(target.ID) === params.get(key));
  const editing = canManage ? byId("edit") : undefined;
  const adding = canManage && !editing && params.has("add");
  const removing = canManage ? byId("remove") : undefined;
  const removeError = actionData?.intent === "remove" ? actionData.error : undefined;
  const lastSave = actionData && actionData.intent !== "remove" && (actionData.intent === "add" ? adding : actionData.id === editing?.ID) ? actionData.result : undefined;
  return (
    <ListPage
      title={t("nav.vncview")}
      actions={
        canManage && (
          <Link to={pageHref(params, "add")} className={buttonClass}>
            {t("vnc.add")}
          </Link>
        )
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("vnc.intro")}</p>

      {targets.length > 0 &&
        (hydrated ? (
          <VncViewer targets={targets.map(({ ID, Name }) => ({ ID, Name }))} initialTarget={Number(params.get("target")) || undefined} />
        ) : (
          // Only browsers without JavaScript show this; with it the viewer replaces it at once.
          <noscript>
            <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900" data-testid="vnc-needs-js">
              {t("vnc.needsJs")}
            </div>
          </noscript>
        ))}

      {removing && <ConfirmPanel title={t("vnc.removeTitle")} {...removeForm(removing, params, t)} />}
      {(adding || editing) && (
        <Panel title={editing ? t("vnc.editTitle", { name: editing.Name }) : t("vnc.addTitle")}>
          <TargetForm key={editing ? `edit-${editing.ID}` : "add"} target={editing} lastResult={lastSave} cancelHref={pageHref(params)} />
        </Panel>
      )}

      <section className="flex min-w-0 flex-col gap-3" aria-labelledby="vnc-targets-title">
        <h2 id="vnc-targets-title" className="text-lg font-semibold">
          {t("vnc.targets")}
        </h2>
        <FormErrors errors={removeError ? [removeError] : undefined} />
        <DataTable
          label={t("vnc.targets")}
          testId="vnc-targets"
          columns={[{ label: t("vnc.name") }, { label: t("vnc.address") }, { label: t("vnc.password") }, ...(canManage ? [{ label: t("common.actions"), srOnly: true }] : [])]}
          empty={targets.length === 0 ? t(canManage ? "vnc.noneAdmin" : "vnc.none") : undefined}
          emptyTestId="vnc-empty"
        >
          {targets.map((target) => (
            <Row key={target.ID} data-testid="vnc-target-row">
              <th scope="row" className={`${cellClass} font-medium`}>
                {target.Name}
              </th>
              <Cell className="font-mono text-xs">{formatAddress(target)}</Cell>
              <Cell>{t(target.HasPassword ? "vnc.passwordSet" : "vnc.passwordNone")}</Cell>
              {canManage && (
                <Cell>
                  <RowActions className="justify-start whitespace-nowrap">
                    <RowLink to={pageHref(params, "edit", target.ID)}>{t("common.edit")}</RowLink>
                    <RowRemove label={t("common.remove")} title={t("vnc.removeTitle")} confirmHref={pageHref(params, "remove", target.ID)} {...removeForm(target, params, t)} />
                  </RowActions>
                </Cell>
              )}
            </Row>
          ))}
        </DataTable>
      </section>
    </ListPage>
  );
}

function formatAddress(target: VncTarget) {
  return target.Host.includes(":") ? `[${target.Host}]:${target.Port}` : `${target.Host}:${target.Port}`;
}

/** The page URL with at most one page state (add, edit=ID, remove=ID). */
const pageHref = (params: URLSearchParams, state?: string, id?: number) => listHref(PATH, params, PAGE_STATES, state, id);

function removeForm(target: VncTarget, params: URLSearchParams, t: TFunction) {
  return {
    fields: { intent: "remove", id: String(target.ID) },
    message: t("vnc.removeConfirm", { name: target.Name }),
    confirmLabel: t("vnc.removeConfirmButton"),
    cancelHref: pageHref(params),
  };
}

function TargetForm({ target, lastResult, cancelHref }: { target?: VncTarget; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm<z.input<typeof vncTargetSchema>, z.output<typeof vncTargetSchema>, string[]>({
    id: target ? `vnc-form-${target.ID}` : "vnc-form-add",
    lastResult,
    defaultValue: { name: target?.Name ?? "", host: target?.Host ?? "", port: String(target?.Port ?? DEFAULT_PORT) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: vncTargetSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex max-w-xl flex-col gap-4">
      <input type="hidden" name="intent" value={target ? "edit" : "add"} />
      {target && <input type="hidden" name="id" value={target.ID} />}
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.name.id} label={t("vnc.name")} errors={fields.name.errors} errorId={fields.name.errorId}>
        <input {...getInputProps(fields.name, { type: "text" })} className={inputClass} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <FormField id={fields.host.id} label={t("vnc.host")} errors={fields.host.errors} errorId={fields.host.errorId}>
          <input {...getInputProps(fields.host, { type: "text" })} className={inputClass} autoComplete="off" spellCheck={false} />
        </FormField>
        <FormField id={fields.port.id} label={t("vnc.port")} errors={fields.port.errors} errorId={fields.port.errorId}>
          <input {...getInputProps(fields.port, { type: "number" })} min={1} max={65535} className={inputClass} />
        </FormField>
      </div>
      <FormField
        id={fields.password.id}
        label={t("vnc.password")}
        errors={fields.password.errors}
        errorId={fields.password.errorId}
        hint={t(target?.HasPassword ? "vnc.passwordHintEdit" : "vnc.passwordHintAdd")}
      >
        <input {...getInputProps(fields.password, { type: "password" })} defaultValue="" className={inputClass} autoComplete="new-password" />
      </FormField>
      {target?.HasPassword && (
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.clearPassword, { type: "checkbox" })} className="h-4 w-4 accent-brand" />
          {t("vnc.clearPassword")}
        </label>
      )}
      <FormActions submitLabel={target ? t("common.save") : t("vnc.add")} cancelHref={cancelHref} />
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.vncview");
}
