import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import type { z } from "zod";
import { data, Form, redirectDocument, useNavigation } from "react-router";
import { ANNUNCIATOR_SEVERITIES, annunciatorSeverities } from "~/schemas/annunciator";
import {
  chosenColour,
  generalSchema,
  normaliseColour,
  START_PAGES,
  stylingSchema,
  SWITCHABLE_FEATURES,
} from "~/schemas/globalSettings";
import { forgetAuth, getAuth } from "~/services/auth-state.server";
import { keptData, stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { flashToast, redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, globalSettingsAnswer, timezonesAnswer } from "~/services/logger/schemas";
import { startPagePath } from "~/services/redirects";
import { checkLogo, prepareLogoCheck, readLimitedFormData, readWebUiSetting, saveStyling, uploadLogo } from "~/services/styling.server";
import { anyFailureOf } from "~/services/submission.server";
import { forgetTheme } from "~/services/theme.server";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { SelectField } from "~/ui/SelectField";
import { StylingForm } from "~/ui/StylingForm";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/globalSettings";

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "globalSettings");
  prepareLogoCheck();
  const { logger } = stateOf(args.context);
  const [config, zones, webUi] = await Promise.all([
    logger.readFreshRpc("AdminAPI.GetGlobalSettings", {}, globalSettingsAnswer).then((a) => a.Config),
    logger.readFreshRpc("ConfigAPI.ListTimezones", { Representation: "UTC" }, timezonesAnswer).then((a) => a.Timezones.List),
    readWebUiSetting(logger),
  ]);
  return keptData(args.context, {
    general: {
      defaultStartPage: config.DefaultStartPage,
      loginRequired: config.LoginRequired ?? true,
      features: config.Features,
      defaultLanguage: config.DefaultLanguage ?? "en",
      defaultTimezone: config.DefaultTimezone ?? "UTC",
      jupyterUrl: config.JupyterUrl ?? "",
      mapTileUrl: config.MapTileUrl ?? "",
      mapTileAttribution: config.MapTileAttribution ?? "",
      annunciator: annunciatorSeverities(config),
    },
    styling: { mainColor: webUi.theme.mainColor, hoverColor: webUi.theme.hoverColor, customLogo: webUi.theme.logo !== null },
    zones,
    loginRequiredNow: auth.loginRequired,
  });
}

const INTENTS = ["general", "styling"] as const;

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "globalSettings");
  const formData = await readLimitedFormData(args.request);
  // Only the styling form can grow this large, and its body was not read: nothing to keep.
  if (formData === "too-large") {
    return data({ intent: "styling" as const, result: { status: "error", error: { logo: ["globalSettings.errors.logoTooLarge"] } } satisfies SubmissionResult<string[]> }, { status: 413 });
  }
  switch (readIntent(formData, INTENTS)) {
    case "general":
      return saveGeneral(args, formData);
    case "styling":
      return saveStylingForm(args, formData);
  }
}

async function saveGeneral(args: Route.ActionArgs, formData: FormData) {
  const refuse = (result: SubmissionResult<string[]>, status = 400) => data({ intent: "general" as const, result }, { status });
  const submission = parseWithZod(formData, { schema: generalSchema });
  if (submission.status !== "success") return refuse(submission.reply());
  const v = submission.value;
  const { logger } = stateOf(args.context);
  // Read in the same try as the write: a logger away at either keeps the form as typed.
  let newPolicy = false;
  try {
    const { Config: current } = await logger.rpc("AdminAPI.GetGlobalSettings", {}, globalSettingsAnswer);
    // A value set elsewhere (not one of our choices) may stay; the form offers it as it is.
    if (!START_PAGES.some((p) => p.value === v.defaultStartPage) && v.defaultStartPage !== current.DefaultStartPage) {
      return refuse(submission.reply({ fieldErrors: { defaultStartPage: ["globalSettings.errors.startPage"] } }));
    }
    // Keys the form has no checkbox for (screens without a permission, unknown keys) stay as stored.
    const kept = current.Features.filter((key) => !SWITCHABLE_FEATURES.some((f) => f.key === key));
    const Config = {
      DefaultStartPage: v.defaultStartPage,
      LoginRequired: v.loginRequired,
      Features: [...new Set([...v.features, ...kept])],
      DefaultLanguage: v.defaultLanguage,
      DefaultTimezone: v.defaultTimezone,
      JupyterUrl: v.jupyterUrl ?? "",
      MapTileUrl: v.mapTileUrl ?? "",
      MapTileAttribution: v.mapTileAttribution ?? "",
      AnnunciatorSeverities: v.annunciator,
    };
    await logger.rpc("AdminAPI.SetGlobalSettings", { Config }, emptyAnswer);
    // Every page's Content-Security-Policy names the tile server and the Jupyter server
    // (csp.server.ts), and a client-side navigation keeps the policy it started with: a new one
    // takes a fresh document.
    newPolicy = (current.JupyterUrl ?? "") !== Config.JupyterUrl || (current.MapTileUrl ?? "") !== Config.MapTileUrl;
  } catch (caught) {
    const error = anyFailureOf(caught, getInstance(args.context).t);
    return refuse(submission.reply({ formErrors: [error.message] }), error.status === 403 || error.status === 503 ? error.status : 400);
  }
  const { t } = getInstance(args.context);
  const target = await pageAfterSave(args);
  if (newPolicy) {
    flashToast(args.context, { type: "success", text: t("globalSettings.saved") });
    return redirectDocument(target);
  }
  return redirectWithToast(args.context, target, { type: "success", text: t("globalSettings.saved") });
}

/**
 * Switching sign-in on or off, or unticking this screen, can lock the caller out of this page.
 * Then the toast goes straight to where they are let in — sign-in (which remembers this page)
 * or the start page — because a detour through a refusing page would consume it.
 */
async function pageAfterSave(args: Route.ActionArgs): Promise<string> {
  forgetAuth(args.context);
  try {
    await requireFeature(args, "globalSettings");
    return "/globalSettings";
  } catch (refused) {
    if (refused instanceof Response) return refused.headers.get("Location") ?? "/signin";
    const auth = await getAuth(args.context);
    return startPagePath(auth.settings?.DefaultStartPage, auth);
  }
}

async function saveStylingForm(args: Route.ActionArgs, formData: FormData) {
  const refuse = (result: SubmissionResult<string[]>, status = 400) => data({ intent: "styling" as const, result }, { status });
  const submission = parseWithZod(formData, { schema: stylingSchema });
  if (submission.status !== "success") return refuse(submission.reply());
  const v = submission.value;
  const { logger } = stateOf(args.context);
  try {
    const stored = await readWebUiSetting(logger);
    let logo = v.restoreDefaultLogo ? "default_image" : stored.logo;
    if (v.logo) {
      const bytes = new Uint8Array(await v.logo.arrayBuffer());
      const check = await checkLogo(bytes);
      if (!check.ok) return refuse(submission.reply({ fieldErrors: { logo: [check.error] } }));
      logo = await uploadLogo(logger, check.bytes, check.kind);
    }
    await saveStyling(logger, stored, {
      logo,
      mainColor: normaliseColour(chosenColour(v, "mainColor")!),
      hoverColor: normaliseColour(chosenColour(v, "hoverColor")!),
    });
  } catch (caught) {
    const error = anyFailureOf(caught, getInstance(args.context).t);
    return refuse(submission.reply({ formErrors: [error.message] }), error.status === 403 || error.status === 503 ? error.status : 400);
  }
  // The root loader paints the next page from the theme; it must not come from the cache.
  forgetTheme();
  const { t } = getInstance(args.context);
  return redirectWithToast(args.context, "/globalSettings", { type: "success", text: t("globalSettings.saved") });
}

export default function GlobalSettings({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { general, styling } = loaderData;
  return (
    <section className="flex flex-col gap-8">
      <h1 className="text-2xl font-semibold">{t("globalSettings.title")}</h1>
      <div id="general" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800">
        <h2 className="mb-4 text-lg font-semibold">{t("globalSettings.general")}</h2>
        {/* Remounted when the stored values change, so a saved form shows what was stored. */}
        <GeneralForm
          key={JSON.stringify(general)}
          data={loaderData}
          lastResult={actionData?.intent === "general" ? actionData.result : undefined}
        />
      </div>
      <div id="styling" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800">
        <h2 className="mb-4 text-lg font-semibold">{t("globalSettings.styling")}</h2>
        <StylingForm
          key={JSON.stringify(styling)}
          saved={styling}
          lastResult={actionData?.intent === "styling" ? actionData.result : undefined}
        />
      </div>
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function GeneralForm({ data: d, lastResult }: { data: LoaderData; lastResult?: SubmissionResult<string[]> }) {
  const t = useT();
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof generalSchema>, z.output<typeof generalSchema>, string[]>({
    id: "general-form",
    lastResult,
    defaultValue: { ...d.general, features: d.general.features.filter((key) => SWITCHABLE_FEATURES.some((f) => f.key === key)) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: generalSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const stored = d.general.defaultStartPage;
  const startPages = START_PAGES.some((p) => p.value === stored) ? START_PAGES : [...START_PAGES, { value: stored, label: "" }];
  const zones = d.zones.some((z) => z.Value === d.general.defaultTimezone) ? d.zones : [{ Value: d.general.defaultTimezone, Description: d.general.defaultTimezone }, ...d.zones];
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="general" />
      <div className="sm:col-span-2">
        <FormErrors errors={form.errors} id={form.errorId} />
        {!d.loginRequiredNow && (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="no-login-note">
            {t("globalSettings.noLoginNow")}
          </p>
        )}
      </div>
      <div className="sm:col-span-2">
        <FormField id={fields.defaultStartPage.id} label={t("globalSettings.startPage")} errors={fields.defaultStartPage.errors} errorId={fields.defaultStartPage.errorId} hint={t("globalSettings.startPageHint")}>
          <select {...getSelectProps(fields.defaultStartPage)} className={inputClass}>
            {startPages.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label ? t(p.label) : t("globalSettings.startPageOther", { path: p.value })}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <SelectField
        field={fields.defaultLanguage}
        label={t("globalSettings.language")}
        options={[
          { value: "en", label: "English" },
          { value: "it", label: "Italiano" },
        ]}
      />
      <SelectField field={fields.defaultTimezone} label={t("globalSettings.timezone")} options={zones.map((z) => ({ value: z.Value, label: z.Description }))} />
      <div className="sm:col-span-2">
        <FormField id={fields.jupyterUrl.id} label={t("globalSettings.jupyterUrl")} errors={fields.jupyterUrl.errors} errorId={fields.jupyterUrl.errorId} hint={t("globalSettings.jupyterUrlHint")}>
          <input {...getInputProps(fields.jupyterUrl, { type: "url" })} key={fields.jupyterUrl.key} className={inputClass} maxLength={500} placeholder="http://jupyter.example:8888/lab" />
        </FormField>
      </div>
      <div className="sm:col-span-2">
        <FormField id={fields.mapTileUrl.id} label={t("globalSettings.mapTileUrl")} errors={fields.mapTileUrl.errors} errorId={fields.mapTileUrl.errorId} hint={t("globalSettings.mapTileUrlHint")}>
          <input {...getInputProps(fields.mapTileUrl, { type: "text" })} key={fields.mapTileUrl.key} className={inputClass} maxLength={500} placeholder="https://tiles.example/{z}/{x}/{y}.png" inputMode="url" />
        </FormField>
      </div>
      <div className="sm:col-span-2">
        <FormField id={fields.mapTileAttribution.id} label={t("globalSettings.mapTileAttribution")} errors={fields.mapTileAttribution.errors} errorId={fields.mapTileAttribution.errorId} hint={t("globalSettings.mapTileAttributionHint")}>
          <input {...getInputProps(fields.mapTileAttribution, { type: "text" })} key={fields.mapTileAttribution.key} className={inputClass} maxLength={300} />
        </FormField>
      </div>
      <div className="flex flex-col gap-1 text-sm sm:col-span-2">
        <label className="flex items-center gap-2 font-medium">
          <input {...getInputProps(fields.loginRequired, { type: "checkbox" })} className="h-4 w-4 accent-brand" />
          {t("globalSettings.loginRequired")}
        </label>
        <span className="text-xs text-slate-500">{t("globalSettings.loginRequiredHint")}</span>
      </div>
      <fieldset className="flex flex-col gap-2 text-sm sm:col-span-2" aria-describedby={fields.features.errors?.length ? `${fields.features.id}-hint ${fields.features.errorId}` : `${fields.features.id}-hint`}>
        <legend className="mb-1 font-medium">{t("globalSettings.features")}</legend>
        <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
          {getCollectionProps(fields.features, { type: "checkbox", options: SWITCHABLE_FEATURES.map((f) => f.key) }).map((props, i) => (
            <label key={props.key} className="flex items-center gap-2">
              <input {...props} className="h-4 w-4 accent-brand" />
              {t(SWITCHABLE_FEATURES[i].label)}
            </label>
          ))}
        </div>
        <span id={`${fields.features.id}-hint`} className="text-xs text-slate-500">
          {t("globalSettings.featuresHint")}
        </span>
        {fields.features.errors?.length ? (
          <span id={fields.features.errorId} role="alert" className="text-sm text-red-600">
            {fields.features.errors.map((e) => t(e)).join(" ")}
          </span>
        ) : null}
      </fieldset>
      <fieldset className="flex flex-col gap-2 text-sm sm:col-span-2" aria-describedby={`${fields.annunciator.id}-hint`}>
        <legend className="mb-1 font-medium">{t("globalSettings.annunciator")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {getCollectionProps(fields.annunciator, { type: "checkbox", options: [...ANNUNCIATOR_SEVERITIES] }).map((props, i) => (
            <label key={props.key} className="flex items-center gap-2">
              <input {...props} className="h-4 w-4 accent-brand" />
              {t(`severity.${ANNUNCIATOR_SEVERITIES[i]}`)}
            </label>
          ))}
        </div>
        <span id={`${fields.annunciator.id}-hint`} className="text-xs text-slate-500">
          {t("globalSettings.annunciatorHint")}
        </span>
      </fieldset>
      <div className="sm:col-span-2">
        <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
          {t("globalSettings.save")}
        </button>
      </div>
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.globalSettings");
}
