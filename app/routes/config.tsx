import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, useNavigation } from "react-router";
import { configSchema, type ConfigInput, type ConfigOutput } from "~/schemas/config";
import { keptData, stateOf } from "~/services/context.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance, getLocale } from "~/services/i18n.server";
import { LOCALE_IDS, type Language } from "~/locales";
import { configChanges, type ConfigChange } from "~/schemas/configChanges";
import { ConfirmStep } from "~/ui/ConfirmAction";
import { formatNumber } from "~/ui/format";
import { projectConfigAnswer, storageAnswer } from "~/services/logger/schemas";
import { answerOf, refusalOf, replyStatus } from "~/services/submission.server";
import { LoggerError } from "~/services/logger/errors";
import { DiskEstimate } from "~/ui/DiskEstimate";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/config";

const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "config");
  const { logger } = stateOf(args.context);
  // The disk estimate is a hint: a logger without ConfigAPI.GetStorage (or any failure of it) shows none.
  const [answer, storage] = await Promise.all([
    logger.readFreshRpc("ConfigAPI.GetProjectConfig", {}, projectConfigAnswer),
    logger.readFreshRpc("ConfigAPI.GetStorage", {}, storageAnswer).then((a) => a.Storage, () => null),
  ]);
  return keptData(args.context, { config: answer.Config, sampleRates: answer.SampleRates, revision: answer.Revision, storage });
}

// Logger refusals name the parameter (Config.Channels.3.Name: …): shown next to that field.
const LOGGER_FIELDS: Record<string, string> = { Name: "name", Unit: "unit", RangeMin: "min", RangeMax: "max", Precision: "precision" };
function fieldOf(message: string): string | null {
  const channel = /Config\.Channels\.(\d+)\.(Name|Unit|RangeMin|RangeMax|Precision)\b/.exec(message);
  if (channel) return `channels[${channel[1]}].${LOGGER_FIELDS[channel[2]!]}`;
  if (/Config\.ProjectName\b/.test(message)) return "projectName";
  if (/Config\.SampleRateHz\b/.test(message)) return "sampleRate";
  return null;
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "config");
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: configSchema });
  // `revision` goes back to the form: the one its next save is based on.
  const reply = (status: number, result: SubmissionResult<string[]>, revision?: number) => data({ result, revision, confirm: null }, { status });
  if (submission.status !== "success") return reply(400, submission.reply());
  const v = submission.value;
  const { logger } = stateOf(args.context);
  const { t } = getInstance(args.context);
  const current = await answerOf(() => logger.rpc("ConfigAPI.GetProjectConfig", {}, projectConfigAnswer), t);
  if (current instanceof LoggerError) return reply(replyStatus(current), submission.reply({ formErrors: [current.message] }));
  if (v.sampleRate !== undefined && !current.SampleRates.includes(v.sampleRate)) {
    return reply(400, submission.reply({ fieldErrors: { sampleRate: ["config.validation.rate"] } }));
  }
  if (formData.get("confirm") !== "yes") {
    // Every change reaches the running acquisition at once: the first post only answers what
    // would change, old → new, and the same form posted back with confirm=yes applies it (issue 26 §5).
    const locale = LOCALE_IDS[getLocale(args.context) as Language] ?? "en-US";
    const changes = configChanges(current.Config, v, (n) => formatNumber(locale, n), { on: t("config.changes.on"), off: t("config.changes.off") });
    if (changes.length === 0) return redirectWithToast(args.context, "/config", { type: "success", text: t("config.unchanged") });
    const fields = Object.fromEntries([...formData].filter(([name, value]) => name !== "confirm" && typeof value === "string") as [string, string][]);
    return data({ result: submission.reply(), revision: v.revision, confirm: { changes, fields, nonce: crypto.randomUUID() } });
  }
  const Config = {
    ProjectName: v.projectName,
    SampleRateHz: v.sampleRate ?? current.Config.SampleRateHz ?? current.SampleRates[0],
    Channels: v.channels.map((c) => ({ VariableId: c.id, Enabled: c.enabled, Name: c.name, Unit: c.unit ?? "", RangeMin: c.min, RangeMax: c.max, Precision: c.precision })),
  };
  const refused = await refusalOf(() => logger.rpc("ConfigAPI.SetProjectConfig", { Config, Revision: v.revision }, projectConfigAnswer), t);
  // Changed elsewhere meanwhile: the input stays, and a second save knowingly overwrites.
  if (refused?.status === 409) return reply(409, submission.reply({ formErrors: ["config.conflict"] }), current.Revision);
  if (refused) {
    const field = fieldOf(refused.description);
    const result = field ? submission.reply({ fieldErrors: { [field]: [refused.message] } }) : submission.reply({ formErrors: [refused.message] });
    return reply(replyStatus(refused), result);
  }
  return redirectWithToast(args.context, "/config", { type: "success", text: t("config.saved") });
}

export default function Config({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { config } = loaderData;
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">{t("config.title")}</h1>
        {config.DeviceName && <p className="text-sm text-slate-600 dark:text-slate-300">{t("config.intro", { device: config.DeviceName })}</p>}
        <DiskEstimate storage={loaderData.storage} />
      </div>
      {actionData?.confirm && (
        <ConfirmStep
          nonce={actionData.confirm.nonce}
          title={t("config.confirmTitle")}
          message={<ChangeList changes={actionData.confirm.changes} />}
          confirmLabel={t("config.apply")}
          fields={actionData.confirm.fields}
          cancelHref="/config"
        />
      )}
      {/* Remounted when the stored config changes, so a saved form shows what was stored. */}
      <ConfigForm key={`${loaderData.revision}-${JSON.stringify(config)}`} data={loaderData} lastResult={actionData?.result} revision={actionData?.revision ?? loaderData.revision} />
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

/** What the save would change, each setting old → new. */
function ChangeList({ changes }: { changes: ConfigChange[] }) {
  const t = useT();
  return (
    <>
      <span className="block">{t("config.confirmIntro")}</span>
      <ul className="mt-2 list-disc pl-5" data-testid="config-changes">
        {changes.map((c, i) => (
          <li key={i} data-change={c.key.slice("config.changes.".length)}>
            {t(c.key, c.label)}: <span className="font-mono">{c.from || "—"}</span> → <span className="font-mono font-semibold">{c.to || "—"}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

function ConfigForm({ data: d, lastResult, revision }: { data: LoaderData; lastResult?: SubmissionResult<string[]>; revision: number }) {
  const t = useT();
  const navigation = useNavigation();
  const { config } = d;
  const [form, fields] = useForm<ConfigInput, ConfigOutput, string[]>({
    id: "config-form",
    lastResult,
    defaultValue: {
      projectName: config.ProjectName,
      sampleRate: config.SampleRateHz ?? undefined,
      revision: d.revision,
      channels: config.Channels.map((c) => ({ id: c.VariableId, enabled: c.Enabled, name: c.Name, unit: c.Unit, min: c.RangeMin, max: c.RangeMax, precision: c.Precision })),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: configSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const channels = fields.channels.getFieldList();
  const rates = config.SampleRateHz === null || d.sampleRates.includes(config.SampleRateHz) ? d.sampleRates : [config.SampleRateHz, ...d.sampleRates];
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-6">
      <input type="hidden" name={fields.revision.name} value={revision} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <div className={`${cardClass} grid gap-4 sm:grid-cols-2`}>
        <h2 className="text-lg font-semibold sm:col-span-2">{t("config.project")}</h2>
        <FormField id={fields.projectName.id} label={t("config.projectName")} errors={fields.projectName.errors} errorId={fields.projectName.errorId}>
          <input {...getInputProps(fields.projectName, { type: "text" })} key={fields.projectName.key} className={inputClass} maxLength={100} />
        </FormField>
        {config.SampleRateHz !== null && (
          <FormField id={fields.sampleRate.id} label={t("config.sampleRate")} errors={fields.sampleRate.errors} errorId={fields.sampleRate.errorId} hint={t("config.sampleRateHint", { device: config.DeviceName })}>
            <select {...getSelectProps(fields.sampleRate)} key={fields.sampleRate.key} className={inputClass}>
              {rates.map((rate) => (
                <option key={rate} value={rate}>
                  {t("config.sampleRateOption", { rate })}
                </option>
              ))}
            </select>
          </FormField>
        )}
      </div>
      <div className={`${cardClass} flex flex-col gap-4`}>
        <div>
          <h2 className="text-lg font-semibold">{t("config.channels")}</h2>
          <p className="text-xs text-slate-500">{config.Channels.length ? t("config.channelsHint") : t("config.noChannels")}</p>
        </div>
        {channels.length > 0 && (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label={t("config.channels")}>
              <thead className="whitespace-nowrap bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100">
                <tr>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.index")}</th>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.enabled")}</th>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.name")}</th>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.unit")}</th>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.min")}</th>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.max")}</th>
                  <th scope="col" className="px-2 py-2 font-semibold">{t("config.columns.precision")}</th>
                </tr>
              </thead>
              <tbody>
                {channels.map((channel, i) => {
                  const f = channel.getFieldset();
                  const n = i + 1;
                  return (
                    <tr key={channel.key} className="border-b border-slate-100 align-top last:border-0 dark:border-slate-700">
                      <td className="px-2 py-2 tabular-nums text-slate-500">
                        {n}
                        <input type="hidden" name={f.id.name} value={config.Channels[i]?.VariableId ?? String(f.id.value ?? "")} />
                      </td>
                      <td className="px-2 py-3">
                        <input {...getInputProps(f.enabled, { type: "checkbox" })} key={f.enabled.key} aria-label={t("config.labels.enabled", { n })} className="h-4 w-4 accent-brand" />
                      </td>
                      <Cell field={f.name} label={t("config.labels.name", { n })} maxLength={64} wide />
                      <Cell field={f.unit} label={t("config.labels.unit", { n })} maxLength={32} />
                      <Cell field={f.min} label={t("config.labels.min", { n })} numeric />
                      <Cell field={f.max} label={t("config.labels.max", { n })} numeric />
                      <Cell field={f.precision} label={t("config.labels.precision", { n })} numeric />
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <div>
        <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
          {t("config.save")}
        </button>
      </div>
    </Form>
  );
}

/** One input of the channel table, labelled for screen readers, with its translated errors below. */
function Cell({ field, label, wide, numeric, maxLength }: { field: FieldMetadata<string | number | undefined, Record<string, unknown>, string[]>; label: string; wide?: boolean; numeric?: boolean; maxLength?: number }) {
  const t = useT();
  // Numbers are text inputs: the browser must not block (or silently drop) what the server judges.
  const props = getInputProps(field, { type: "text" });
  return (
    <td className="px-2 py-2">
      <input {...props} key={field.key} aria-label={label} inputMode={numeric ? "decimal" : undefined} className={`${inputClass} ${wide ? "w-72" : "w-24"}`} maxLength={maxLength} />
      {field.errors?.length ? (
        <span id={field.errorId} role="alert" className="mt-1 block text-xs text-red-600">
          {field.errors.map((e) => t(e)).join(" ")}
        </span>
      ) : null}
    </td>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.config");
}
