import { getCollectionProps, getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { TFunction } from "i18next";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import type { Permission } from "~/features";
import { isKnownPermission, PERMISSION_GROUPS, roleSchema } from "~/schemas/roles";
import { keptData, stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import type { LoggerClient } from "~/services/logger/client.server";
import { emptyAnswer, idAnswer, rolesAnswer, usersAnswer } from "~/services/logger/schemas";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { Cell, cellClass, DataTable, Row } from "~/ui/DataTable";
import { ListPage } from "~/ui/ListPage";
import { RowActions, RowLink, RowRemove } from "~/ui/RowActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { sortRows } from "~/ui/SortHeader";
import { failureOf, refusalOf } from "~/services/submission.server";
import { pageTitle } from "~/ui/title";
import { useSeedText } from "~/ui/seedTexts";
import { permissionText } from "~/ui/users/permissionText";
import { FormActions } from "~/ui/FormActions";
import { listHref } from "~/ui/pageState";
import type { Route } from "./+types/roleManagement";

const API = "GI.system/UserManagementAPI";
const PATH = "/roleManagement";
/** Query keys of the page states (add form, edit form, no-JS remove confirmation). */
const PAGE_STATES = ["add", "edit", "remove"];
const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "roleManagement");
  const { logger } = stateOf(args.context);
  // GetUsers needs ManageUsers: without it the counts stay unknown rather than failing the page.
  const mayCountUsers = !auth.loginRequired || auth.permissions.includes("ManageUsers");
  const [roles, users] = await Promise.all([
    logger.readFreshRpc(`${API}.GetRoles`, {}, rolesAnswer).then((a) => a.Roles),
    mayCountUsers ? logger.readFreshRpc(`${API}.GetUsers`, {}, usersAnswer).then((a) => a.Users) : null,
  ]);
  return keptData(args.context, {
    roles: roles.map((role) => ({ ...role, users: users ? users.filter((u) => u.Role === role.ID).length : null })),
  });
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "roleManagement");
  const formData = await args.request.formData();
  switch (readIntent(formData, ["add", "edit", "remove"] as const)) {
    case "add":
      return addRole(args, formData);
    case "edit":
      return editRole(args, formData);
    case "remove":
      return removeRole(args, formData);
  }
}

async function addRole({ context, url }: Route.ActionArgs, formData: FormData) {
  const submission = parseWithZod(formData, { schema: roleSchema });
  if (submission.status !== "success") return data({ intent: "add" as const, result: submission.reply() }, { status: 400 });
  const { name, description = "", permissions } = submission.value;
  const { t } = getInstance(context);
  const refused = await refusalOf(() => stateOf(context).logger.rpc(`${API}.AddRole`, { Role: { Name: name, Description: description, Permissions: permissions } }, idAnswer), t);
  if (refused) return data({ intent: "add" as const, result: submission.reply({ formErrors: [refused.message] }) }, { status: 400 });
  return redirectWithToast(context, listPath(url), { type: "success", text: t("roles.added") });
}

async function editRole({ context, url }: Route.ActionArgs, formData: FormData) {
  const id = readId(formData.get("id"));
  const version = formData.get("version") ? readId(formData.get("version")) : undefined;
  const submission = parseWithZod(formData, { schema: roleSchema });
  // `version` goes back to the form: the one its next save is based on.
  const reply = (status: 400 | 409, formErrors?: string[], basedOn = version) =>
    data({ intent: "edit" as const, id, version: basedOn, result: submission.reply(formErrors && { formErrors }) }, { status });
  if (submission.status !== "success") return reply(400);
  const { logger } = stateOf(context);
  const { t } = getInstance(context);
  let stored: Awaited<ReturnType<typeof findRole>>;
  try {
    stored = await findRole(logger, id);
  } catch (caught) {
    return reply(400, [failureOf(caught, t).message]);
  }
  if (!stored) return redirectWithToast(context, listPath(url), { type: "error", text: t("roles.gone") });
  const { name, description = "", permissions } = submission.value;
  const Role = stored.BuiltIn
    ? // Name and permissions of a built-in role are fixed (disabled in the form, refused by the logger).
      { ID: id, Version: version, Description: description }
    : // Permissions this console does not know (a newer logger) are kept, not silently dropped.
      { ID: id, Version: version, Name: name, Description: description, Permissions: [...permissions, ...stored.Permissions.filter((p) => !isKnownPermission(p))] };
  const refused = await refusalOf(() => logger.rpc(`${API}.SetRole`, { Role }, emptyAnswer), t);
  // Someone changed the role meanwhile: the input stays, and a second save knowingly overwrites.
  if (refused?.status === 409) return reply(409, ["roles.conflict"], (await findRole(logger, id))?.Version);
  if (refused) return reply(400, [refused.message]);
  return redirectWithToast(context, listPath(url), { type: "success", text: t("roles.saved") });
}

async function removeRole({ context, url }: Route.ActionArgs, formData: FormData) {
  requireConfirmation(formData);
  const id = readId(formData.get("id"));
  const { t } = getInstance(context);
  const refused = await refusalOf(() => stateOf(context).logger.rpc(`${API}.RemoveRole`, { ID: id }, emptyAnswer), t);
  // No redirect: the refusal (e.g. who still holds the role) stays on screen to act on.
  if (refused) return data({ intent: "remove" as const, error: refused.message, nonce: crypto.randomUUID() }, { status: 400 });
  return redirectWithToast(context, listPath(url), { type: "success", text: t("roles.removed") });
}

async function findRole(logger: LoggerClient, id: number) {
  const { Roles } = await logger.rpc(`${API}.GetRoles`, {}, rolesAnswer);
  return Roles.find((r) => r.ID === id);
}

/** Back to the list after a change, keeping the chosen sort order. */
function listPath(url: URL) {
  const keep = new URLSearchParams();
  for (const key of ["sort", "dir"]) if (url.searchParams.get(key)) keep.set(key, url.searchParams.get(key)!);
  return keep.size ? `${PATH}?${keep}` : PATH;
}

type RoleRow = Route.ComponentProps["loaderData"]["roles"][number];

const SORT_COLUMNS: Record<string, (r: RoleRow) => string | number> = {
  name: (r) => r.Name,
  description: (r) => r.Description,
  permissions: (r) => r.Permissions.length,
  users: (r) => r.users ?? -1,
  builtIn: (r) => (r.BuiltIn ? 1 : 0),
};

export default function RoleManagement({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const seed = useSeedText();
  const [params] = useSearchParams();
  const byId = (key: string) => loaderData.roles.find((r) => String(r.ID) === params.get(key));
  const editing = byId("edit");
  const adding = !editing && params.has("add");
  const removeError = actionData?.intent === "remove" ? actionData : undefined;
  // After a refused removal the error replaces the no-JS confirmation.
  const removing = removeError ? undefined : byId("remove");
  const lastEdit = actionData?.intent === "edit" && actionData.id === editing?.ID ? actionData : undefined;
  const lastAdd = actionData?.intent === "add" ? actionData : undefined;
  return (
    <ListPage
      title={t("roles.title")}
      actions={
        <Link to={pageHref(params, "add")} className={buttonClass}>
          {t("roles.add")}
        </Link>
      }
    >
      {removing && <ConfirmPanel title={t("roles.removeTitle")} {...removeForm(removing, params, t)} />}
      {(adding || editing) && (
        <div className={cardClass}>
          <h2 className="mb-4 text-lg font-semibold">{editing ? t("roles.editTitle", { name: editing.Name }) : t("roles.addTitle")}</h2>
          <RoleForm
            key={editing ? `edit-${editing.ID}` : "add"}
            role={editing}
            version={lastEdit ? lastEdit.version : editing?.Version}
            lastResult={(lastEdit ?? lastAdd)?.result}
            cancelHref={pageHref(params)}
          />
        </div>
      )}
      <FormErrors errors={removeError && [removeError.error]} />
      <DataTable
        label={t("roles.title")}
        testId="roles-table"
        columns={[
          { label: t("roles.name"), sort: "name" },
          { label: t("roles.description"), sort: "description" },
          { label: t("roles.permissionCount"), sort: "permissions" },
          { label: t("roles.userCount"), sort: "users" },
          { label: t("roles.builtIn"), sort: "builtIn" },
          { label: t("common.actions"), srOnly: true },
        ]}
      >
        {sortRows(loaderData.roles, params, SORT_COLUMNS, "name").map((role) => (
          <Row key={role.ID}>
            <th scope="row" className={`${cellClass} font-medium`}>
              {role.Name}
            </th>
            <Cell className="text-slate-600 dark:text-slate-300">{seed(role.Description)}</Cell>
            <Cell className="tabular-nums">{role.Permissions.length}</Cell>
            <Cell className="tabular-nums">
              {role.users ?? (
                <span title={t("roles.usersUnknown")}>
                  <span aria-hidden="true">–</span>
                  <span className="sr-only">{t("roles.usersUnknown")}</span>
                </span>
              )}
            </Cell>
            <Cell>{role.BuiltIn && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium dark:bg-slate-700">{t("roles.builtIn")}</span>}</Cell>
            <Cell>
              <RowActions className="justify-start whitespace-nowrap">
                <RowLink to={pageHref(params, "edit", role.ID)}>{t("common.edit")}</RowLink>
                {!role.BuiltIn && (
                  // Remounted after a refusal so the dialog closes and the error behind it shows.
                  <RowRemove key={removeError?.nonce} label={t("common.remove")} title={t("roles.removeTitle")} confirmHref={pageHref(params, "remove", role.ID)} {...removeForm(role, params, t)} />
                )}
              </RowActions>
            </Cell>
          </Row>
        ))}
      </DataTable>
    </ListPage>
  );
}

/** The page URL with at most one page state (add, edit=ID, remove=ID). */
const pageHref = (params: URLSearchParams, state?: string, id?: number) => listHref(PATH, params, PAGE_STATES, state, id);

function removeForm(role: RoleRow, params: URLSearchParams, t: TFunction) {
  return {
    fields: { intent: "remove", id: String(role.ID) },
    message: t("roles.removeConfirm", { name: role.Name }),
    confirmLabel: t("roles.removeConfirmButton"),
    cancelHref: pageHref(params),
  };
}

function RoleForm({ role, version, lastResult, cancelHref }: { role?: RoleRow; version?: number; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm<z.input<typeof roleSchema>, z.output<typeof roleSchema>, string[]>({
    id: role ? `role-form-${role.ID}` : "role-form-add",
    lastResult,
    defaultValue: { name: role?.Name ?? "", description: role?.Description ?? "", permissions: role?.Permissions.filter(isKnownPermission) ?? [] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roleSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const builtIn = role?.BuiltIn ?? false;
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value={role ? "edit" : "add"} />
      {role && <input type="hidden" name="id" value={role.ID} />}
      {version !== undefined && <input type="hidden" name="version" value={version} />}
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.name.id} label={t("roles.name")} errors={fields.name.errors} errorId={fields.name.errorId} hint={builtIn ? t("roles.builtInHint") : undefined}>
        <input {...getInputProps(fields.name, { type: "text" })} readOnly={builtIn} className={`${inputClass} read-only:bg-slate-100 dark:read-only:bg-slate-700`} />
      </FormField>
      <FormField id={fields.description.id} label={t("roles.description")} errors={fields.description.errors} errorId={fields.description.errorId}>
        <textarea {...getTextareaProps(fields.description)} rows={2} className={inputClass} />
      </FormField>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium">{t("roles.permissions")}</legend>
        <div className="grid gap-6 md:grid-cols-3">
          {PERMISSION_GROUPS.map((group) => {
            const options = getCollectionProps(fields.permissions, { type: "checkbox", options: [...group.permissions] });
            return (
              <fieldset key={group.key} className="flex flex-col gap-3">
                <legend className="mb-2 text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">{t(`roles.groups.${group.key}`)}</legend>
                {options.map(({ key, ...input }) => (
                  // Disabled boxes are not posted; the action leaves a built-in role's permissions alone.
                  <PermissionOption key={key} permission={input.value as Permission} input={builtIn ? { id: input.id, defaultChecked: true, disabled: true } : input} />
                ))}
              </fieldset>
            );
          })}
        </div>
        {fields.permissions.errors?.length ? <FormErrors errors={fields.permissions.errors} id={fields.permissions.errorId} /> : null}
      </fieldset>
      <FormActions submitLabel={role ? t("common.save") : t("roles.add")} cancelHref={cancelHref} />
    </Form>
  );
}

function PermissionOption({ permission, input }: { permission: Permission; input: React.ComponentProps<"input"> & { id: string } }) {
  const t = useT();
  const hintId = `${input.id}-hint`;
  return (
    <div className="flex items-start gap-2 text-sm">
      <input {...input} type="checkbox" aria-describedby={[hintId, input["aria-describedby"]].filter(Boolean).join(" ")} className="mt-0.5 h-4 w-4 shrink-0 accent-brand disabled:opacity-60" />
      <div className="flex flex-col">
        <label htmlFor={input.id} className="font-medium">
          {permission}
        </label>
        <span id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {permissionText(t, permission)}
        </span>
      </div>
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.roleManagement");
}
