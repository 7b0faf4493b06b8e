import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import { acknowledgeSchema, SHELVE_DURATIONS, shelveSchema } from "~/schemas/alarming";
import { stateOf } from "~/services/context.server";
import { readId, readIntent, readOffset } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { featureOpen } from "~/services/header.server";
import { getInstance } from "~/services/i18n.server";
import { acknowledgeAnswer, ALARM_STATES, alarmHistoryAnswer, alarmsAnswer, alarmStateAnswer, devicesAnswer, SEVERITIES, type Alarm } from "~/services/logger/schemas";
import { isRefusal, loggerReply } from "~/services/submission.server";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { Pager } from "~/ui/Pager";
import { pageTitle } from "~/ui/title";
import { Toast } from "~/ui/Toasts";
import { usePolling } from "~/ui/usePolling";
import type { Route } from "./+types/alarming";

const API = "AlarmAPI";
const INTENTS = ["acknowledge", "shelve", "unshelve"] as const;
const PERIODS: Record<string, number> = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 };
const HISTORY_PAGE = 25;
// Unacknowledged first, then what is still active, then the suppressed ones.
const STATE_ORDER = ["ActiveUnacknowledged", "ReturnedUnacknowledged", "ActiveAcknowledged", "Shelved", "OutOfService", "Normal"];

function filtersOf(params: URLSearchParams, now: number) {
  const pick = <T extends string>(key: string, allowed: readonly T[]) => {
    const v = params.get(key) ?? "";
    return (allowed as readonly string[]).includes(v) ? (v as T) : "";
  };
  const period = params.get("period") ?? "";
  const offset = readOffset(params.get("offset"));
  return {
    severity: pick("severity", SEVERITIES),
    state: pick("state", ALARM_STATES),
    device: (params.get("device") ?? "").slice(0, 100),
    period: period in PERIODS ? period : "",
    from: period in PERIODS ? new Date(now - PERIODS[period]!).toISOString() : "",
    offset,
  };
}

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "alarming");
  const { logger } = stateOf(args.context);
  const f = filtersOf(args.url.searchParams, Date.now());
  const [alarms, history, devices] = await Promise.all([
    logger.rpc(`${API}.GetAlarms`, { Filter: { Severity: f.severity, State: f.state, DeviceId: f.device, Since: f.from } }, alarmsAnswer),
    logger.rpc(`${API}.GetHistory`, { Filter: { Severity: f.severity, DeviceId: f.device }, From: f.from, Limit: HISTORY_PAGE, Offset: f.offset }, alarmHistoryAnswer),
    logger.rpc("DeviceAPI.GetDevices", {}, devicesAnswer).then((a) => a.Devices.map((d) => ({ ID: d.ID, Name: d.Name }))),
  ]);
  const shown = alarms.Alarms.filter((a) => (f.state ? true : a.State !== "Normal")).toSorted(
    (a, b) => STATE_ORDER.indexOf(a.State) - STATE_ORDER.indexOf(b.State) || SEVERITIES.indexOf(a.Severity) - SEVERITIES.indexOf(b.Severity) || b.Since.localeCompare(a.Since),
  );
  return { alarms: shown, unacknowledged: alarms.Unacknowledged, history: history.History, historyTotal: history.Total, devices, filters: f, canRules: featureOpen(auth, "rulesNotifications") };
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "alarming");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const back = new URLSearchParams(args.url.searchParams);
  back.delete("shelve");
  const done = (key: string, values?: Record<string, unknown>) => redirectWithToast(args.context, `/alarming${back.size ? `?${back}` : ""}`, { type: "success", text: t(key, values) });
  const refused = (error: unknown) => {
    if (!isRefusal(error)) throw error;
    return data({ intent, result: null, error: error.message, nonce: crypto.randomUUID() }, { status: error.status });
  };

  if (intent === "unshelve") {
    try {
      await logger.rpc(`${API}.Unshelve`, { ID: readId(formData.get("id")) }, alarmStateAnswer);
    } catch (error) {
      return refused(error);
    }
    return done("alarming.unshelved");
  }

  if (intent === "acknowledge") {
    const submission = parseWithZod(formData, { schema: acknowledgeSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply(), error: null, nonce: null }, { status: 400 });
    const { id, only, comment } = submission.value;
    const ids = only ? [only] : id;
    if (ids.length === 0) return data({ intent, result: submission.reply({ formErrors: ["alarming.validation.select"] }), error: null, nonce: null }, { status: 400 });
    try {
      const { Acknowledged } = await logger.rpc(`${API}.Acknowledge`, { IDs: ids, Comment: comment ?? "" }, acknowledgeAnswer);
      return done("alarming.acknowledged", { count: Acknowledged.length });
    } catch (error) {
      return refused(error);
    }
  }

  const submission = parseWithZod(formData, { schema: shelveSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply(), error: null, nonce: null }, { status: 400 });
  try {
    const v = submission.value;
    await logger.rpc(`${API}.Shelve`, { ID: v.id, DurationSec: Number(v.duration), Reason: v.reason }, alarmStateAnswer);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const reply = loggerReply(submission, error, { conflict: error.message, fields: { reason: /reason/i } });
    return data({ intent, result: reply.result, error: null, nonce: null }, { status: reply.status });
  }
  return done("alarming.shelved");
}

export default function Alarming({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { alarms, history, historyTotal, devices, filters } = loaderData;
  const shelving = alarms.find((a) => String(a.ID) === params.get("shelve"));
  usePolling(5000, !shelving);
  const without = (key: string) => {
    const next = new URLSearchParams(params);
    next.delete(key);
    return `?${next}`;
  };
  const lastResult = (intent: string) => (actionData?.intent === intent ? (actionData.result ?? undefined) : undefined);
  const ackResult = lastResult("acknowledge");

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("nav.alarming")}</h1>
        {loaderData.canRules && (
          <Link to="/rulesNotifications" className="text-brand hover:underline" data-testid="rules-link">
            {t("alarming.manageRules")}
          </Link>
        )}
      </div>
      {actionData?.error && <Toast key={actionData.nonce} toast={{ type: "error", text: actionData.error }} />}

      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t("alarming.filters")}>
        <FormField id="f-severity" label={t("alarming.columns.severity")}>
          <select id="f-severity" name="severity" defaultValue={filters.severity} className={inputClass}>
            <option value="">{t("alarming.any")}</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {t(`severity.${s}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="f-state" label={t("alarming.columns.state")}>
          <select id="f-state" name="state" defaultValue={filters.state} className={inputClass}>
            <option value="">{t("alarming.notNormal")}</option>
            {ALARM_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`alarmState.${s}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="f-device" label={t("alarming.device")}>
          <select id="f-device" name="device" defaultValue={filters.device} className={inputClass}>
            <option value="">{t("alarming.any")}</option>
            {devices.map((d) => (
              <option key={d.ID} value={d.ID}>
                {d.Name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="f-period" label={t("alarming.period")}>
          <select id="f-period" name="period" defaultValue={filters.period} className={inputClass}>
            <option value="">{t("alarming.anyTime")}</option>
            {Object.keys(PERIODS).map((p) => (
              <option key={p} value={p}>
                {t(`alarming.periods.${p}`)}
              </option>
            ))}
          </select>
        </FormField>
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
          {t("alarming.filter")}
        </button>
      </Form>

      {shelving && <ShelvePanel key={shelving.ID} alarm={shelving} lastResult={lastResult("shelve")} cancelHref={without("shelve")} />}

      <section aria-labelledby="active-title" className="flex flex-col gap-3">
        <h2 id="active-title" className="text-lg font-semibold">
          {t("alarming.activeTitle")}
        </h2>
        <Form method="post" id="ack-form" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="acknowledge" />
          <FormErrors errors={ackResult?.error?.[""] ?? undefined} />
          <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
            <table className="w-full text-left text-sm" data-testid="alarms-table">
              <thead className="bg-slate-100 dark:bg-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">{t("alarming.select")}</span>
                  </th>
                  {["severity", "name", "state", "value", "since", "ack"].map((c) => (
                    <th key={c} scope="col" className="px-3 py-2">
                      {t(`alarming.columns.${c}`)}
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">{t("common.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {alarms.length === 0 && (
                  <tr>
                    <td colSpan={8} className="px-4 py-6 text-center text-slate-500">
                      {t("alarming.noActive")}
                    </td>
                  </tr>
                )}
                {alarms.map((a) => (
                  <AlarmRow key={a.ID} alarm={a} shelveHref={`?${withParam(params, "shelve", String(a.ID))}`} />
                ))}
              </tbody>
            </table>
          </div>
          {alarms.some(awaitsAck) && (
            <div className="flex flex-wrap items-end gap-3">
              <FormField id="ack-comment" label={t("alarming.comment")} errors={ackResult?.error?.comment ?? undefined}>
                <textarea id="ack-comment" name="comment" rows={2} maxLength={1000} className={`${inputClass} w-80`} />
              </FormField>
              <button type="submit" className={buttonClass}>
                {t("alarming.acknowledgeSelected")}
              </button>
            </div>
          )}
        </Form>
        {alarms
          .filter((a) => a.State === "Shelved")
          .map((a) => (
            <Form key={a.ID} method="post" id={`unshelve-${a.ID}`} hidden>
              <input type="hidden" name="intent" value="unshelve" />
              <input type="hidden" name="id" value={a.ID} />
            </Form>
          ))}
      </section>

      <section aria-labelledby="history-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="history-title" className="text-lg font-semibold">
            {t("alarming.historyTitle")}
          </h2>
          <Pager total={historyTotal} limit={HISTORY_PAGE} offset={filters.offset} testId="history-pager" />
        </div>
        <HistoryTable history={history} />
      </section>
    </section>
  );
}

const awaitsAck = (a: Alarm) => a.State === "ActiveUnacknowledged" || a.State === "ReturnedUnacknowledged";

function withParam(params: URLSearchParams, key: string, value: string) {
  const next = new URLSearchParams(params);
  next.set(key, value);
  return next.toString();
}

function AlarmRow({ alarm: a, shelveHref }: { alarm: Alarm; shelveHref: string }) {
  const t = useT();
  const { dateTime, value } = useFormatters();
  const link = "text-brand hover:underline";
  return (
    <tr className="border-t border-slate-100 align-top dark:border-slate-700" data-alarm={a.Name} data-state={a.State}>
      <td className="px-3 py-2">
        {awaitsAck(a) && <input type="checkbox" name="id" value={a.ID} aria-label={t("alarming.selectOne", { name: a.Name })} />}
      </td>
      <td className="px-3 py-2">
        <SeverityBadge severity={a.Severity} />
      </td>
      <td className="px-3 py-2">
        <div className="font-medium">{a.Name}</div>
        <div className="text-xs text-slate-500">{a.Text}</div>
      </td>
      <td className="px-3 py-2" data-testid="alarm-state">
        {t(`alarmState.${a.State}`)}
        {a.State === "Shelved" && a.ShelvedUntil && (
          <div className="text-xs text-slate-500">
            {t("alarming.shelvedUntil", { when: dateTime(a.ShelvedUntil), who: a.ShelvedBy })} · {a.ShelveReason}
          </div>
        )}
      </td>
      <td className="px-3 py-2 tabular-nums">
        {value(a.Value)} {a.Unit}
      </td>
      <td className="px-3 py-2">{dateTime(a.Since)}</td>
      <td className="px-3 py-2 text-xs">
        {a.AckedBy && (
          <>
            {t("alarming.ackedBy", { who: a.AckedBy })}
            {a.AckComment && <div className="text-slate-500">“{a.AckComment}”</div>}
          </>
        )}
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-wrap justify-end gap-3">
          {awaitsAck(a) && (
            <button type="submit" name="only" value={a.ID} className={link} aria-label={`${t("alarming.acknowledge")} ${a.Name}`}>
              {t("alarming.acknowledge")}
            </button>
          )}
          {a.State === "Shelved" ? (
            <button type="submit" form={`unshelve-${a.ID}`} className={link} aria-label={`${t("alarming.unshelve")} ${a.Name}`}>
              {t("alarming.unshelve")}
            </button>
          ) : (
            a.State !== "OutOfService" && (
              <Link to={shelveHref} preventScrollReset className={link} aria-label={`${t("alarming.shelve")} ${a.Name}`}>
                {t("alarming.shelve")}
              </Link>
            )
          )}
        </div>
      </td>
    </tr>
  );
}

function ShelvePanel({ alarm, lastResult, cancelHref }: { alarm: Alarm; lastResult?: SubmissionResult<string[]>; cancelHref: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: "shelve-form",
    lastResult,
    defaultValue: { id: String(alarm.ID), duration: "3600" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: shelveSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const title = t("alarming.shelveTitle", { name: alarm.Name });
  return (
    <section className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800" aria-label={title}>
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="shelve" />
        <input type="hidden" name="id" value={alarm.ID} />
        <div className="sm:col-span-2">
          <FormErrors errors={form.errors} id={form.errorId} />
        </div>
        <FormField id={fields.duration.id} label={t("alarming.duration")} errors={fields.duration.errors} errorId={fields.duration.errorId}>
          <select {...getSelectProps(fields.duration)} className={inputClass}>
            {SHELVE_DURATIONS.map((d) => (
              <option key={d} value={d}>
                {t(`alarming.durations.${d}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={fields.reason.id} label={t("alarming.reason")} errors={fields.reason.errors} errorId={fields.reason.errorId}>
          <textarea {...getTextareaProps(fields.reason)} rows={2} className={inputClass} />
        </FormField>
        <FormActions submitLabel={t("alarming.shelve")} cancelHref={cancelHref} className="flex gap-2 sm:col-span-2" />
      </Form>
    </section>
  );
}

function HistoryTable({ history }: { history: Route.ComponentProps["loaderData"]["history"] }) {
  const t = useT();
  const { dateTime, value } = useFormatters();
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
      <table className="w-full text-left text-sm" data-testid="history-table">
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            {["time", "severity", "name", "event", "transition", "value", "user", "comment"].map((c) => (
              <th key={c} scope="col" className="px-3 py-2">
                {t(`alarming.columns.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {history.length === 0 && (
            <tr>
              <td colSpan={8} className="px-4 py-6 text-center text-slate-500">
                {t("alarming.noHistory")}
              </td>
            </tr>
          )}
          {history.map((h) => (
            <tr key={h.ID} className="border-t border-slate-100 dark:border-slate-700" data-event={h.Event} data-rule={h.RuleName}>
              <td className="whitespace-nowrap px-3 py-2">{dateTime(h.Timestamp)}</td>
              <td className="px-3 py-2">
                <SeverityBadge severity={h.Severity} />
              </td>
              <td className="px-3 py-2">{h.RuleName}</td>
              <td className="px-3 py-2">{t(`alarming.event.${h.Event}`, { defaultValue: h.Event })}</td>
              <td className="px-3 py-2 text-xs">
                {t(`alarmState.${h.FromState}`, { defaultValue: h.FromState })} → {t(`alarmState.${h.ToState}`, { defaultValue: h.ToState })}
              </td>
              <td className="px-3 py-2 tabular-nums">{value(h.Value)}</td>
              <td className="px-3 py-2">{h.User}</td>
              <td className="px-3 py-2">{h.Comment}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.alarming");
}
