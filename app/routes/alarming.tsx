import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import { acknowledgeSchema, shelveSchema } from "~/schemas/alarming";
import { stateOf } from "~/services/context.server";
import { readId, readIntent, readOffset } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { withFigures } from "~/services/alarmFigures.server";
import { featureOpen } from "~/services/header.server";
import { isLoggerAway } from "~/services/logger/client.server";
import { getInstance } from "~/services/i18n.server";
import { acknowledgeAnswer, ALARM_STATES, alarmHistoryAnswer, alarmsAnswer, alarmStateAnswer, devicesAnswer, SEVERITIES } from "~/services/logger/schemas";
import { failureOf, loggerReply } from "~/services/submission.server";
import { ActiveAlarmsTable, awaitsAck } from "~/ui/alarming/ActiveAlarmsTable";
import { HistoryTable } from "~/ui/alarming/HistoryTable";
import { ShelvePanel } from "~/ui/alarming/ShelvePanel";
import { ListPage } from "~/ui/ListPage";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { NoScriptRefresh } from "~/ui/NoScriptRefresh";
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
  const asked = params.get("period") ?? "";
  // Own keys only: `?period=constructor` named Object's.
  const period = Object.hasOwn(PERIODS, asked) ? asked : "";
  const offset = readOffset(params.get("offset"));
  return {
    severity: pick("severity", SEVERITIES),
    state: pick("state", ALARM_STATES),
    device: (params.get("device") ?? "").slice(0, 100),
    period,
    from: period ? new Date(now - PERIODS[period]!).toISOString() : "",
    offset,
  };
}

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "alarming");
  const { logger } = stateOf(args.context);
  const f = filtersOf(args.url.searchParams, Date.now());
  const devicesRead = logger.readFreshRpc("DeviceAPI.GetDevices", {}, devicesAnswer).then((a) => a.Devices.map((d) => ({ ID: d.ID, Name: d.Name })));
  let alarms, history;
  try {
    [alarms, history] = await Promise.all([
      logger.rpc(`${API}.GetAlarms`, { Filter: { Severity: f.severity, State: f.state, DeviceId: f.device, Since: f.from } }, alarmsAnswer),
      logger.rpc(`${API}.GetHistory`, { Filter: { Severity: f.severity, DeviceId: f.device }, From: f.from, Limit: HISTORY_PAGE, Offset: f.offset }, alarmHistoryAnswer),
    ]);
  } catch (error) {
    if (!isLoggerAway(error)) throw error;
    // The logger did not answer within the page's deadline: the page says the alarm state is
    // unknown (never alarms from before as if current) and tries again by itself (issue 26 §2).
    const devices = await devicesRead.catch(() => []);
    return { unknown: true, alarms: [], unacknowledged: 0, history: [], historyTotal: 0, devices, filters: f, canRules: featureOpen(auth, "rulesNotifications") };
  }
  const shown = alarms.Alarms.filter((a) => (f.state ? true : a.State !== "Normal")).toSorted(
    (a, b) => STATE_ORDER.indexOf(a.State) - STATE_ORDER.indexOf(b.State) || SEVERITIES.indexOf(a.Severity) - SEVERITIES.indexOf(b.Severity) || b.Since.localeCompare(a.Since),
  );
  // Each value at activation with its variable's decimals, and the value now beside it (issue 26 §4).
  const [figures, past, devices] = await Promise.all([withFigures(logger, shown), withFigures(logger, history.History, false), devicesRead.catch(() => [])]);
  return { unknown: false, alarms: figures, unacknowledged: alarms.Unacknowledged, history: past, historyTotal: history.Total, devices, filters: f, canRules: featureOpen(auth, "rulesNotifications") };
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "alarming");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const back = new URLSearchParams(args.url.searchParams);
  back.delete("shelve");
  back.delete("ack");
  const done = (key: string, values?: Record<string, unknown>) => redirectWithToast(args.context, `/alarming${back.size ? `?${back}` : ""}`, { type: "success", text: t(key, values) });
  const refused = (caught: unknown) => {
    const error = failureOf(caught, t);
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
  } catch (caught) {
    const error = failureOf(caught, t);
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
  // Choosing several alarms and typing a comment is a form of its own (?ack=select): the list
  // you watch reloads itself without JavaScript, a form in progress never does (issue 28 §2).
  const selecting = params.get("ack") === "select" && alarms.some(awaitsAck);
  // Not while a form is in progress: an update could take away the alarms being chosen, and the comment with them.
  usePolling(loaderData.unknown ? 3000 : 5000, !shelving && !selecting);
  const without = (key: string) => {
    const next = new URLSearchParams(params);
    next.delete(key);
    return `?${next}`;
  };
  const lastResult = (intent: string) => (actionData?.intent === intent ? (actionData.result ?? undefined) : undefined);
  const ackResult = lastResult("acknowledge");

  return (
    <ListPage
      title={t("nav.alarming")}
      actions={
        loaderData.canRules && (
          <Link to="/rulesNotifications" className="text-brand hover:underline" data-testid="rules-link">
            {t("alarming.manageRules")}
          </Link>
        )
      }
    >
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
        {/* Without JavaScript the list reloads itself (sooner while the state is unknown); not while a panel or a post's answer is open. */}
        {loaderData.unknown ? (
          <noscript>
            <meta httpEquiv="refresh" content="10" />
          </noscript>
        ) : (
          !shelving && !selecting && !actionData && <NoScriptRefresh params={params} />
        )}
        {loaderData.unknown && (
          <p role="alert" className="rounded-md border border-slate-400 bg-slate-100 px-3 py-2 font-semibold text-slate-900 dark:bg-slate-800 dark:text-slate-100" data-testid="alarms-unknown">
            {t("alarmBanner.unknown")}
          </p>
        )}
        <Form method="post" id="ack-form" className="flex flex-col gap-3" hidden={loaderData.unknown}>
          <input type="hidden" name="intent" value="acknowledge" />
          <FormErrors errors={ackResult?.error?.[""] ?? undefined} />
          <ActiveAlarmsTable alarms={alarms} selectable={selecting} shelveHref={(a) => `?${withParam(params, "shelve", String(a.ID))}`} />
          {selecting ? (
            <div className="flex flex-wrap items-end gap-3">
              <FormField id="ack-comment" label={t("alarming.comment")} errors={ackResult?.error?.comment ?? undefined}>
                <textarea id="ack-comment" name="comment" rows={2} maxLength={1000} className={`${inputClass} w-full sm:w-80`} />
              </FormField>
              <button type="submit" className={buttonClass}>
                {t("alarming.acknowledgeSelected")}
              </button>
              <Link to={without("ack")} className="inline-flex min-h-11 items-center text-brand hover:underline">
                {t("common.cancel")}
              </Link>
            </div>
          ) : (
            alarms.some(awaitsAck) && (
              <Link to={`?${withParam(params, "ack", "select")}`} className="inline-flex min-h-11 items-center self-start text-brand hover:underline" data-testid="ack-select">
                {t("alarming.selectSeveral")}
              </Link>
            )
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
    </ListPage>
  );
}

function withParam(params: URLSearchParams, key: string, value: string) {
  const next = new URLSearchParams(params);
  next.set(key, value);
  return next.toString();
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.alarming");
}
