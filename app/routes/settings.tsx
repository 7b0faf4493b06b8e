import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import type { z } from "zod";
import { useT } from "~/ui/useT";
import { data, Form, useNavigation } from "react-router";
import { LAYOUT_TYPES, LAYOUTS, preferencesSchema, SIDEBAR_WIDTHS, THEMES, ZONE_MODES } from "~/schemas/preferences";
import { keptData, stateOf } from "~/services/context.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, timezonesAnswer, userAnswer } from "~/services/logger/schemas";
import { changeOwnPassword } from "~/services/password.server";
import { isTimeZone, readPrefs, writePrefs } from "~/services/prefs.server";
import { anyFailureOf } from "~/services/submission.server";
import { localeCookie } from "~/services/session.server";
import { forgetAuth } from "~/services/auth-state.server";
import { zoneMode } from "~/services/timezone";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { PasswordForm } from "~/ui/PasswordForm";
import { SelectField } from "~/ui/SelectField";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/settings";

/** Each language in its own name. */
const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "it", label: "Italiano" },
];

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "settings");
  const { logger } = stateOf(args.context);
  const [user, zones, prefs] = await Promise.all([
    auth.userId !== null ? logger.readFreshRpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer).then((a) => a.User) : null,
    logger.readFreshRpc("ConfigAPI.ListTimezones", { Representation: "UTC" }, timezonesAnswer).then((a) => a.Timezones.List),
    readPrefs(args.request),
  ]);
  return keptData(args.context, { user, zones, prefs, locale: getInstance(args.context).language });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "settings");
  const { t } = getInstance(args.context);
  const formData = await args.request.formData();
  const intent = formData.get("intent");
  if (intent === "password") {
    if (auth.userId === null) throw data(null, { status: 404 });
    const failed = await changeOwnPassword(formData, args.context);
    if (failed) return data({ intent: "password" as const, result: failed }, { status: 400 });
    return redirectWithToast(args.context, "/settings", { type: "success", text: t("password.changed") });
  }
  if (intent !== "preferences") throw data({ reason: "bad-request" }, { status: 400 });

  const submission = parseWithZod(formData, { schema: preferencesSchema });
  if (submission.status !== "success") return data({ intent: "preferences" as const, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  if (v.zoneMode === "name" && !isTimeZone(v.timezone ?? "")) {
    return data({ intent: "preferences" as const, result: submission.reply({ fieldErrors: { timezone: ["validation.timezoneRequired"] } }) }, { status: 400 });
  }
  const { logger, session } = stateOf(args.context);
  const zone = {
    Timezone: v.zoneMode === "name" ? v.timezone! : "",
    TimezoneDiffSec: v.zoneMode === "offset" ? v.offsetMinutes! * 60 : 0,
    TimezoneUseDST: v.zoneMode !== "offset",
  };
  const prefs = await readPrefs(args.request);
  if (auth.userId !== null) {
    try {
      const { User } = await logger.rpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer);
      await logger.rpc(
        "GI.system/UserManagementAPI.SetUser",
        { User: { ID: User.ID, Version: User.Version, EMail: v.email ?? "", Language: v.language, Theme: v.theme, ...zone } },
        emptyAnswer,
      );
    } catch (caught) {
      const error = anyFailureOf(caught, getInstance(args.context).t);
      return data({ intent: "preferences" as const, result: submission.reply({ formErrors: [error.message] }) }, { status: error.status === 409 || error.status === 503 ? error.status : 400 });
    }
    session.set("lng", v.language);
    forgetAuth(args.context);
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await localeCookie.serialize(v.language));
  headers.append("Set-Cookie", await writePrefs({ ...prefs, theme: v.theme, layout: v.layout, layoutType: v.layoutType, sidebarWidth: v.sidebarWidth, timezone: zone.Timezone }));
  const response = redirectWithToast(args.context, "/settings", { type: "success", text: getInstance(args.context).t("settings.saved", { lng: v.language }) });
  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { user } = loaderData;
  return (
    <section className="flex flex-col gap-8">
      <h1 className="text-2xl font-semibold">{t("settings.title")}</h1>
      <div id="profile" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800">
        <h2 className="mb-4 text-lg font-semibold">{t("settings.preferences")}</h2>
        <PreferencesForm data={loaderData} lastResult={actionData?.intent === "preferences" ? actionData.result : undefined} />
      </div>
      {user && (
        <div id="password" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800">
          <h2 className="mb-4 text-lg font-semibold">{t("settings.passwordTitle")}</h2>
          <PasswordForm intent="password" lastResult={actionData?.intent === "password" ? actionData.result : undefined} submitLabel={t("password.submit")} />
        </div>
      )}
    </section>
  );
}

function PreferencesForm({ data: d, lastResult }: { data: Route.ComponentProps["loaderData"]; lastResult?: SubmissionResult<string[]> }) {
  const t = useT();
  const navigation = useNavigation();
  const user = d.user;
  const mode = user ? zoneMode(user) : d.prefs.timezone ? "name" : "browser";
  const [form, fields] = useForm<z.input<typeof preferencesSchema>, z.output<typeof preferencesSchema>, string[]>({
    id: "preferences-form",
    lastResult,
    defaultValue: {
      email: user?.EMail ?? "",
      language: user?.Language || d.locale,
      theme: user?.Theme ?? d.prefs.theme,
      layout: d.prefs.layout,
      layoutType: d.prefs.layoutType,
      sidebarWidth: String(d.prefs.sidebarWidth),
      zoneMode: mode,
      timezone: user?.Timezone || d.prefs.timezone,
      offsetMinutes: user && mode === "offset" ? String(user.TimezoneDiffSec / 60) : "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: preferencesSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [zoneChoice, setZoneChoice] = useState<string>(fields.zoneMode.initialValue as string);
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="preferences" />
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
      </div>
      {user && (
        <>
          <FormField id="settings-username" label={t("settings.username")}>
            <input id="settings-username" value={user.Username} readOnly disabled className={inputClass} />
          </FormField>
          <FormField id={fields.email.id} label={t("settings.email")} errors={fields.email.errors} errorId={fields.email.errorId}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" className={inputClass} />
          </FormField>
        </>
      )}
      <SelectField field={fields.language} label={t("settings.language")} options={LANGUAGES} />
      <SelectField field={fields.theme} label={t("settings.theme")} options={THEMES.map((x) => ({ value: x, label: t(`settings.themes.${x}`) }))} />
      <SelectField field={fields.layout} label={t("settings.layout")} options={LAYOUTS.map((x) => ({ value: x, label: t(`settings.layouts.${x}`) }))} />
      <SelectField field={fields.layoutType} label={t("settings.layoutType")} options={LAYOUT_TYPES.map((x) => ({ value: x, label: t(`settings.layoutTypes.${x}`) }))} />
      <SelectField field={fields.sidebarWidth} label={t("settings.sidebarWidth")} hint={t("settings.sidebarWidthHint")} options={SIDEBAR_WIDTHS.map((w) => ({ value: String(w), label: t("settings.sidebarWidthPx", { px: w }) }))} />
      <fieldset className="flex flex-col gap-2 text-sm sm:col-span-2">
        <legend className="mb-1 font-medium">{t("settings.timezone")}</legend>
        {ZONE_MODES.map((m) => (
          <label key={m} className="flex items-center gap-2">
            <input type="radio" name={fields.zoneMode.name} value={m} defaultChecked={zoneChoice === m} onChange={() => setZoneChoice(m)} />
            {t(`settings.zoneModes.${m}`)}
          </label>
        ))}
      </fieldset>
      <SelectField field={fields.timezone} label={t("settings.zoneName")} placeholder={t("settings.chooseZone")} options={d.zones.map((z) => ({ value: z.Value, label: z.Description }))} />
      <FormField id={fields.offsetMinutes.id} label={t("settings.offset")} errors={fields.offsetMinutes.errors} errorId={fields.offsetMinutes.errorId} hint={t("settings.offsetHint")}>
        <input {...getInputProps(fields.offsetMinutes, { type: "number" })} step={15} className={inputClass} />
      </FormField>
      <div className="sm:col-span-2">
        <button type="submit" name="save" className={buttonClass} disabled={navigation.state === "submitting"}>
          {t("settings.save")}
        </button>
      </div>
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.settings");
}
