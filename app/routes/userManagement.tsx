import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { addUserSchema, editUserSchema, resetPasswordSchema, zoneFields } from "~/schemas/users";
import { keptData, stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, idAnswer, rolesAnswer, timezonesAnswer, usersAnswer } from "~/services/logger/schemas";
import { failureOf, loggerReply } from "~/services/submission.server";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { buttonClass, FormField, inputClass } from "~/ui/FormField";
import { ListPage } from "~/ui/ListPage";
import { sortRows } from "~/ui/SortHeader";
import { Toast } from "~/ui/Toasts";
import { pageTitle } from "~/ui/title";
import { panelHref, withoutPanels } from "~/ui/pageState";
import { Panel } from "~/ui/Panel";
import { ResetPasswordForm, UserForm, zoneLabel } from "~/ui/users/UserForms";
import { USER_PANELS, UsersTable } from "~/ui/users/UsersTable";
import type { Route } from "./+types/userManagement";

const USERS = "GI.system/UserManagementAPI";
const INTENTS = USER_PANELS;
const FIELD_PATTERNS = { username: /username/i, email: /e-?mail/i, role: /\brole\b/i, password: /password/i };

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "userManagement");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const formOpen = params.has("add") || params.has("edit");
  const [{ Users }, { Roles }, zones] = await Promise.all([
    logger.readFreshRpc(`${USERS}.GetUsers`, {}, usersAnswer),
    logger.readFreshRpc(`${USERS}.GetRoles`, {}, rolesAnswer),
    formOpen ? logger.readFreshRpc("ConfigAPI.ListTimezones", { Representation: "UTC" }, timezonesAnswer).then((a) => a.Timezones.List) : [],
  ]);
  return keptData(args.context, { users: Users, roles: Roles, zones, me: auth.userId });
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "userManagement");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const done = (key: string) => redirectWithToast(args.context, "/userManagement", { type: "success", text: t(key) });

  if (intent === "remove") {
    requireConfirmation(formData);
    try {
      await logger.rpc(`${USERS}.RemoveUser`, { ID: readId(formData.get("id")) }, emptyAnswer);
    } catch (caught) {
      const error = failureOf(caught, t);
      return data({ intent, result: null, error: error.message, nonce: crypto.randomUUID() }, { status: error.status });
    }
    return done("users.removed");
  }

  const schema = intent === "add" ? addUserSchema : intent === "edit" ? editUserSchema : resetPasswordSchema;
  const submission = parseWithZod(formData, { schema: schema as z.ZodType });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return data({ intent, result: submission.reply({ hideFields }), error: null, nonce: null }, { status: 400 });
  try {
    if (intent === "add") {
      const v = submission.value as z.infer<typeof addUserSchema>;
      await logger.rpc(
        `${USERS}.AddUser`,
        { User: { Username: v.username, EMail: v.email ?? "", Role: v.role, ...zoneFields(v.timezone), MustChangePassword: v.mustChange ?? false }, Password: v.password },
        idAnswer,
      );
      return done("users.added");
    }
    if (intent === "edit") {
      const v = submission.value as z.infer<typeof editUserSchema>;
      await logger.rpc(
        `${USERS}.SetUser`,
        { User: { ID: v.id, Version: v.version, Username: v.username, EMail: v.email ?? "", Role: v.role, ...zoneFields(v.timezone) } },
        emptyAnswer,
      );
      return done("users.saved");
    }
    const v = submission.value as z.infer<typeof resetPasswordSchema>;
    await logger.rpc(`${USERS}.SetUser`, { User: { ID: v.id }, Password: v.password }, emptyAnswer);
    return done("users.saved");
  } catch (caught) {
    const error = failureOf(caught, t);
    const reply = loggerReply(submission, error, { conflict: t("users.conflict"), fields: FIELD_PATTERNS, hideFields });
    return data({ intent, result: reply.result, error: null, nonce: null }, { status: reply.status });
  }
}

export default function UserManagement({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { users, roles, me } = loaderData;
  const roleName = (id: number) => roles.find((r) => r.ID === id)?.Name ?? `#${id}`;
  const q = (params.get("q") ?? "").trim().toLowerCase();
  const shown = sortRows(
    users.filter((u) => !q || u.Username.toLowerCase().includes(q) || u.EMail.toLowerCase().includes(q)),
    params,
    { username: (u) => u.Username, email: (u) => u.EMail, role: (u) => roleName(u.Role), timezone: (u) => zoneLabel(u) },
    "username",
  );
  const find = (key: string) => users.find((u) => String(u.ID) === params.get(key));
  const editing = find("edit");
  const resetting = find("password");
  const removing = find("remove");
  const listHref = `?${withoutPanels(params, USER_PANELS)}`;
  const lastResult = (intent: string) => (actionData?.intent === intent ? (actionData.result ?? undefined) : undefined);

  return (
    <ListPage
      title={t("users.title")}
      actions={
        <Link to={panelHref(params, USER_PANELS, "add")} className={buttonClass} preventScrollReset>
          {t("users.add")}
        </Link>
      }
    >
      {actionData?.error && <Toast key={actionData.nonce} toast={{ type: "error", text: actionData.error }} />}

      {params.has("add") && (
        <Panel title={t("users.addTitle")}>
          <UserForm key="add" intent="add" roles={roles} zones={loaderData.zones} lastResult={lastResult("add")} cancelHref={listHref} />
        </Panel>
      )}
      {params.has("edit") && (
        <Panel title={editing ? t("users.editTitle", { username: editing.Username }) : t("users.notFound")}>
          {editing && <UserForm key={`edit-${editing.ID}`} intent="edit" user={editing} roles={roles} zones={loaderData.zones} lastResult={lastResult("edit")} cancelHref={listHref} />}
        </Panel>
      )}
      {params.has("password") && (
        <Panel title={resetting ? t("users.passwordTitle", { username: resetting.Username }) : t("users.notFound")}>
          {resetting && <ResetPasswordForm key={resetting.ID} user={resetting} lastResult={lastResult("password")} cancelHref={listHref} />}
        </Panel>
      )}
      {removing && (
        <ConfirmPanel
          title={t("users.removeTitle", { username: removing.Username })}
          message={t("users.removeMessage", { username: removing.Username })}
          confirmLabel={t("users.removeConfirm")}
          fields={{ intent: "remove", id: String(removing.ID) }}
          cancelHref={listHref}
        />
      )}

      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        {["sort", "dir"].map((k) => params.get(k) && <input key={k} type="hidden" name={k} value={params.get(k)!} />)}
        <FormField id="user-search" label={t("users.searchLabel")}>
          <input id="user-search" type="search" name="q" defaultValue={params.get("q") ?? ""} placeholder={t("users.searchPlaceholder")} className={inputClass} />
        </FormField>
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
          {t("common.search")}
        </button>
        <span className="ml-auto text-sm text-slate-500">{t("users.count", { count: shown.length })}</span>
      </Form>

      <UsersTable users={shown} me={me} roleName={roleName} params={params} listHref={listHref} />
    </ListPage>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.userManagement");
}
