import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import type { z } from "zod";
import { useT } from "~/ui/useT";
import { data, Form, useNavigation } from "react-router";
import { LAYOUT_TYPES, LAYOUTS, preferencesSchema, SIDEBAR_WIDTHS, THEMES, ZONE_MODES } from "~/schemas/preferences";
import { stateOf } from "~/services/context.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { LoggerError } from "~/services/logger/errors";
import { emptyAnswer, timezonesAnswer, userAnswer } from "~/services/logger/schemas";
import { changeOwnPassword } from "~/services/password.server";
import { isTimeZone, readPrefs, writePrefs } from "~/services/prefs.server";
import { localeCookie } from "~/services/session.server";
import { forgetAuth } from "~/services/auth-state.server";
import { zoneMode } from "~/services/timezone";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { PasswordForm } from "~/ui/PasswordForm";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/settings";

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "settings");
  const { logger } = stateOf(args.context);
  const [user, zones, prefs] = await Promise.all([
    auth.userId !== null ? logger.rpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer).then((a) => a.User) : null,
    logger.rpc("ConfigAPI.ListTimezones", { Representation: "UTC" }, timezonesAnswer).then((a) => a.Timezones.List),
    readPrefs(args.request),
  ]);
  return { user, zones, prefs, locale: getInstance(args.context).language };
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
    const { User } = await logger.rpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer);
    try {
      await logger.rpc(
        "GI.system/UserManagementAPI.SetUser",
        { User: { ID: User.ID, Version: User.Version, EMail: v.email ?? "", Language: v.language, Theme: v.theme, ...zone } },
        emptyAnswer,
      );
    } catch (error) {
      if (error instanceof LoggerError && error.status < 500) {
        return data({ intent: "preferences" as const, result: submission.reply({ formErrors: [error.message] }) }, { status: error.status === 409 ? 409 : 400 });
      }
      throw error;
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
    <section className="flex max-w-3xl flex-col gap-8">
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
      <FormField id={fields.language.id} label={t("settings.language")} errors={fields.language.errors}>
        <select {...getSelectProps(fields.language)} className={inputClass}>
          <option value="en">English</option>
          <option value="it">Italiano</option>
        </select>
      </FormField>
      <FormField id={fields.theme.id} label={t("settings.theme")} errors={fields.theme.errors}>
        <select {...getSelectProps(fields.theme)} className={inputClass}>
          {THEMES.map((x) => (
            <option key={x} value={x}>
              {t(`settings.themes.${x}`)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={fields.layout.id} label={t("settings.layout")} errors={fields.layout.errors}>
        <select {...getSelectProps(fields.layout)} className={inputClass}>
          {LAYOUTS.map((x) => (
            <option key={x} value={x}>
              {t(`settings.layouts.${x}`)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={fields.layoutType.id} label={t("settings.layoutType")} errors={fields.layoutType.errors}>
        <select {...getSelectProps(fields.layoutType)} className={inputClass}>
          {LAYOUT_TYPES.map((x) => (
            <option key={x} value={x}>
              {t(`settings.layoutTypes.${x}`)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={fields.sidebarWidth.id} label={t("settings.sidebarWidth")} errors={fields.sidebarWidth.errors} hint={t("settings.sidebarWidthHint")}>
        <select {...getSelectProps(fields.sidebarWidth)} className={inputClass}>
          {SIDEBAR_WIDTHS.map((w) => (
            <option key={w} value={String(w)}>
              {t("settings.sidebarWidthPx", { px: w })}
            </option>
          ))}
        </select>
      </FormField>
      <fieldset className="flex flex-col gap-2 text-sm sm:col-span-2">
        <legend className="mb-1 font-medium">{t("settings.timezone")}</legend>
        {ZONE_MODES.map((m) => (
          <label key={m} className="flex items-center gap-2">
            <input type="radio" name={fields.zoneMode.name} value={m} defaultChecked={zoneChoice === m} onChange={() => setZoneChoice(m)} />
            {t(`settings.zoneModes.${m}`)}
          </label>
        ))}
      </fieldset>
      <FormField id={fields.timezone.id} label={t("settings.zoneName")} errors={fields.timezone.errors} errorId={fields.timezone.errorId}>
        <select {...getSelectProps(fields.timezone)} className={inputClass}>
          <option value="">{t("settings.chooseZone")}</option>
          {d.zones.map((z) => (
            <option key={z.Value} value={z.Value}>
              {z.Description}
            </option>
          ))}
        </select>
      </FormField>
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
