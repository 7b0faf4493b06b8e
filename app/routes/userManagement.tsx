import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { addUserSchema, editUserSchema, resetPasswordSchema, zoneFields } from "~/schemas/users";
import { stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, idAnswer, rolesAnswer, timezonesAnswer, usersAnswer, type Role, type User } from "~/services/logger/schemas";
import { isRefusal, loggerReply } from "~/services/submission.server";
import { offsetZone, zoneMode } from "~/services/timezone";
import { ConfirmAction, ConfirmPanel } from "~/ui/ConfirmAction";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { SortHeader, sortRows } from "~/ui/SortHeader";
import { Toast } from "~/ui/Toasts";
import { pageTitle } from "~/ui/title";
import { FormActions } from "~/ui/FormActions";
import { panelHref, withoutPanels } from "~/ui/pageState";
import { Panel } from "~/ui/Panel";
import type { Route } from "./+types/userManagement";

const USERS = "GI.system/UserManagementAPI";
const INTENTS = ["add", "edit", "password", "remove"] as const;
const USER_PANELS = INTENTS;
const FIELD_PATTERNS = { username: /username/i, email: /e-?mail/i, role: /\brole\b/i, password: /password/i };

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "userManagement");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const formOpen = params.has("add") || params.has("edit");
  const [{ Users }, { Roles }, zones] = await Promise.all([
    logger.rpc(`${USERS}.GetUsers`, {}, usersAnswer),
    logger.rpc(`${USERS}.GetRoles`, {}, rolesAnswer),
    formOpen ? logger.rpc("ConfigAPI.ListTimezones", { Representation: "UTC" }, timezonesAnswer).then((a) => a.Timezones.List) : [],
  ]);
  return { users: Users, roles: Roles, zones, me: auth.userId };
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
    } catch (error) {
      if (!isRefusal(error)) throw error;
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
  } catch (error) {
    if (!isRefusal(error)) throw error;
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
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("users.title")}</h1>
        <Link to={panelHref(params, USER_PANELS, "add")} className={buttonClass} preventScrollReset>
          {t("users.add")}
        </Link>
      </div>
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

      <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
        <table className="w-full text-left text-sm" data-testid="users-table">
          <thead className="bg-slate-100 dark:bg-slate-700">
            <tr>
              <SortHeader column="username" label={t("users.columns.username")} />
              <SortHeader column="email" label={t("users.columns.email")} />
              <SortHeader column="role" label={t("users.columns.role")} />
              <SortHeader column="timezone" label={t("users.columns.timezone")} />
              <th scope="col" className="px-4 py-2">
                <span className="sr-only">{t("common.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={5} className="px-4 py-6 text-center text-slate-500">
                  {t("users.empty")}
                </td>
              </tr>
            )}
            {shown.map((u) => (
              <tr key={u.ID} className="border-t border-slate-100 dark:border-slate-700" data-username={u.Username}>
                <td className="px-4 py-2 font-medium">
                  {u.Username} {u.ID === me && <span className="text-xs text-slate-500">({t("users.you")})</span>}
                </td>
                <td className="px-4 py-2">{u.EMail}</td>
                <td className="px-4 py-2">{roleName(u.Role)}</td>
                <td className="px-4 py-2">{zoneLabel(u) || t("users.fields.browserZone")}</td>
                <td className="px-4 py-2">
                  <div className="flex flex-wrap justify-end gap-3">
                    <Link to={panelHref(params, USER_PANELS, "edit", u.ID)} preventScrollReset className="text-brand hover:underline" aria-label={`${t("common.edit")} ${u.Username}`}>
                      {t("common.edit")}
                    </Link>
                    <Link to={panelHref(params, USER_PANELS, "password", u.ID)} preventScrollReset className="text-brand hover:underline" aria-label={`${t("users.resetPassword")} ${u.Username}`}>
                      {t("users.resetPassword")}
                    </Link>
                    <ConfirmAction
                      label={t("common.remove")}
                      title={t("users.removeTitle", { username: u.Username })}
                      message={t("users.removeMessage", { username: u.Username })}
                      confirmLabel={t("users.removeConfirm")}
                      confirmHref={panelHref(params, USER_PANELS, "remove", u.ID)}
                      fields={{ intent: "remove", id: String(u.ID) }}
                      cancelHref={listHref}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}



function zoneLabel(u: User) {
  const mode = zoneMode(u);
  if (mode === "name") return u.Timezone;
  if (mode === "offset") return `UTC${offsetZone(u.TimezoneDiffSec / 60)}`;
  return "";
}


function UserForm({ intent, user, roles, zones, lastResult, cancelHref }: { intent: "add" | "edit"; user?: User; roles: Role[]; zones: { Value: string; Description: string }[]; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const schema = intent === "add" ? addUserSchema : editUserSchema;
  const currentZone = user ? (zoneMode(user) === "offset" ? `offset:${user.TimezoneDiffSec}` : user.Timezone) : "";
  const [form, fields] = useForm({
    id: `user-form-${intent}`,
    lastResult,
    defaultValue: user
      ? { id: String(user.ID), version: String(user.Version ?? ""), username: user.Username, email: user.EMail, role: String(user.Role), timezone: currentZone }
      : { mustChange: "on", timezone: "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schema as z.ZodType }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>;
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value={intent} />
      {user && <input type="hidden" name="id" value={user.ID} />}
      {user && <input type="hidden" name="version" value={user.Version ?? ""} />}
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <FormField id={f.username.id} label={t("users.fields.username")} errors={f.username.errors} errorId={f.username.errorId}>
        <input {...getInputProps(f.username, { type: "text" })} autoComplete="off" className={inputClass} />
      </FormField>
      <FormField id={f.email.id} label={t("users.fields.email")} errors={f.email.errors} errorId={f.email.errorId}>
        <input {...getInputProps(f.email, { type: "email" })} autoComplete="off" className={inputClass} />
      </FormField>
      <FormField id={f.role.id} label={t("users.fields.role")} errors={f.role.errors} errorId={f.role.errorId}>
        <select {...getSelectProps(f.role)} className={inputClass}>
          <option value="">{t("users.fields.chooseRole")}</option>
          {roles.map((r) => (
            <option key={r.ID} value={r.ID}>
              {r.Name}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={f.timezone.id} label={t("users.fields.timezone")} errors={f.timezone.errors} errorId={f.timezone.errorId}>
        <select {...getSelectProps(f.timezone)} className={inputClass}>
          <option value="">{t("users.fields.browserZone")}</option>
          {currentZone.startsWith("offset:") && <option value={currentZone}>{t("users.fields.fixedOffset", { offset: offsetZone(user!.TimezoneDiffSec / 60) })}</option>}
          {zones.map((z) => (
            <option key={z.Value} value={z.Value}>
              {z.Description}
            </option>
          ))}
        </select>
      </FormField>
      {intent === "add" && (
        <>
          <FormField id={f.password.id} label={t("users.fields.password")} errors={f.password.errors} errorId={f.password.errorId} hint={t("password.policy")}>
            <input {...getInputProps(f.password, { type: "password" })} autoComplete="new-password" className={inputClass} />
          </FormField>
          <FormField id={f.confirmPassword.id} label={t("users.fields.confirmPassword")} errors={f.confirmPassword.errors} errorId={f.confirmPassword.errorId}>
            <input {...getInputProps(f.confirmPassword, { type: "password" })} autoComplete="new-password" className={inputClass} />
          </FormField>
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input {...getInputProps(f.mustChange, { type: "checkbox" })} />
            {t("users.fields.mustChange")}
          </label>
        </>
      )}
      <FormActions submitLabel={intent === "add" ? t("users.add") : t("common.save")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
    </Form>
  );
}

function ResetPasswordForm({ user, lastResult, cancelHref }: { user: User; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: "reset-password-form",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="password" />
      <input type="hidden" name="id" value={user.ID} />
      <input type="hidden" name="username" value={user.Username} />
      <p className="text-sm text-slate-600 sm:col-span-2 dark:text-slate-300">{t("users.passwordIntro", { username: user.Username })}</p>
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      <FormField id={fields.password.id} label={t("users.fields.newPassword")} errors={fields.password.errors} errorId={fields.password.errorId} hint={t("password.policy")}>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" className={inputClass} />
      </FormField>
      <FormField id={fields.confirmPassword.id} label={t("users.fields.confirmPassword")} errors={fields.confirmPassword.errors} errorId={fields.confirmPassword.errorId}>
        <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" className={inputClass} />
      </FormField>
      <FormActions submitLabel={t("users.resetPassword")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.userManagement");
}
