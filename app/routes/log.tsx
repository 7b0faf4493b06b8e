import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Form, useSearchParams } from "react-router";
import { MAINTENANCE_TYPES, maintenanceSchema, MESSAGE_TYPES, PAGE_SIZES } from "~/schemas/log";
import { activeMaintenanceStart, MAINTAINER } from "~/services/banner";
import { keptData, stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { idAnswer, messagesAnswer, type Message } from "~/services/logger/schemas";
import { readMessageFilter } from "~/services/messages-query.server";
import { failureOf, loggerReply, refusalOf, replyStatus } from "~/services/submission.server";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { DateTimeField } from "~/ui/DateTimeField";
import { useFormatters } from "~/ui/format";
import { useAlarmText } from "~/ui/alarms/useAlarmText";
import { Pager } from "~/ui/Pager";
import { pageTitle } from "~/ui/title";
import { listPageClass } from "~/ui/ListPage";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import type { Route } from "./+types/log";

const MESSAGING = "GI.system/MessagingAPI";
const INTENTS = ["maintenanceStart", "maintenanceStop"] as const;
const MAINTENANCE_TOPIC = "Console";
/** The console's own maintenance notices: the active one is the last "Start" without its "Stop". */
const MAINTAINER_MESSAGES = { Filter: { Sender: MAINTAINER }, Limit: 5000, Offset: 0 };
const TYPE_COLOURS: Record<string, string> = {
  Error: "bg-red-100 text-red-900",
  Warning: "bg-amber-100 text-amber-900",
  Success: "bg-green-100 text-green-900",
  Info: "bg-sky-100 text-sky-900",
};

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "log");
  const { logger } = stateOf(args.context);
  const { filter, params, errors } = await readMessageFilter(args.context, args.request, args.url);
  const canMaintain = holds(auth, "ManageGlobalSettings");
  // Both kept for an outage: the page as last read, and the maintenance form with what was typed.
  const [page, maintainer] = await Promise.all([
    logger.readFreshRpc(`${MESSAGING}.GetMessages`, params, messagesAnswer),
    canMaintain ? logger.readFreshRpc(`${MESSAGING}.GetMessages`, MAINTAINER_MESSAGES, messagesAnswer).then((a) => a.Messages) : [],
  ]);
  return keptData(args.context, { messages: page.Messages, total: page.Total ?? page.Messages.length, filter, errors, canMaintain, maintenance: activeMaintenanceStart(maintainer) });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "log");
  requirePermission(auth, "ManageGlobalSettings");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, INTENTS);
  const back = `/log${args.url.search}`;

  if (intent === "maintenanceStop") {
    const refused = await refusalOf(async () => {
      const { Messages } = await logger.rpc(`${MESSAGING}.GetMessages`, MAINTAINER_MESSAGES, messagesAnswer);
      const active = activeMaintenanceStart(Messages);
      if (active) await logger.rpc(`${MESSAGING}.PostMessage`, { Sender: MAINTAINER, Topic: active.Topic, Type: "Info", Text: active.Text, Args: ["Stop"] }, idAnswer);
    }, t);
    if (refused) return data({ stopError: refused.message }, { status: replyStatus(refused) });
    return redirectWithToast(args.context, back, { type: "success", text: t("log.maintenance.stopped") });
  }

  const submission = parseWithZod(formData, { schema: maintenanceSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const v = submission.value;
    await logger.rpc(`${MESSAGING}.PostMessage`, { Sender: MAINTAINER, Topic: MAINTENANCE_TOPIC, Type: v.type, Text: v.text, Args: ["Start"] }, idAnswer);
  } catch (caught) {
    const error = failureOf(caught, t);
    const reply = loggerReply(submission, error, { conflict: error.message });
    return data({ result: reply.result }, { status: reply.status });
  }
  return redirectWithToast(args.context, back, { type: "success", text: t("log.maintenance.started") });
}

export default function LogMessages({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { messages, total, filter, errors, canMaintain, maintenance } = loaderData;
  const filtered = ["sender", "topic", "type", "text", "from", "to"].some((k) => params.get(k));
  const exportParams = new URLSearchParams(params);
  exportParams.delete("offset");
  exportParams.delete("limit");

  return (
    <section className={listPageClass}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("nav.log")}</h1>
        <a href={`/log/export${exportParams.size ? `?${exportParams}` : ""}`} download className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700" data-testid="csv-export">
          {t("log.export")}
        </a>
      </div>

      {canMaintain && <MaintenanceCard active={maintenance} lastResult={actionData && "result" in actionData ? actionData.result : undefined} stopError={actionData && "stopError" in actionData ? actionData.stopError : undefined} />}

      <Form method="get" className="grid gap-3 sm:grid-cols-3 lg:grid-cols-7 lg:items-end" aria-label={t("log.filters")}>
        <FormField id="f-sender" label={t("log.columns.sender")}>
          <input id="f-sender" name="sender" defaultValue={filter.sender} maxLength={256} className={inputClass} />
        </FormField>
        <FormField id="f-topic" label={t("log.columns.topic")}>
          <input id="f-topic" name="topic" defaultValue={filter.topic} maxLength={256} className={inputClass} />
        </FormField>
        <FormField id="f-type" label={t("log.columns.type")}>
          <select id="f-type" name="type" defaultValue={filter.type} className={inputClass}>
            <option value="">{t("log.anyType")}</option>
            {MESSAGE_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`log.type.${type}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="f-text" label={t("log.columns.text")}>
          <input id="f-text" name="text" type="search" defaultValue={filter.text} maxLength={256} className={inputClass} />
        </FormField>
        <FormField id="f-from" label={t("log.from")} errors={errors.from ? [errors.from] : undefined}>
          <DateTimeField id="f-from" name="from" label={t("log.from")} value={filter.from} flagInvalid={!errors.from} />
        </FormField>
        <FormField id="f-to" label={t("log.to")} errors={errors.to ? [errors.to] : undefined}>
          <DateTimeField id="f-to" name="to" label={t("log.to")} value={filter.to} flagInvalid={!errors.to} />
        </FormField>
        <div className="flex items-end gap-2">
          <FormField id="f-limit" label={t("log.pageSize")}>
            <select id="f-limit" name="limit" defaultValue={String(filter.limit)} className={inputClass}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </FormField>
          <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
            {t("log.filter")}
          </button>
        </div>
      </Form>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <span className="text-sm text-slate-500" data-testid="message-total">
          {t("log.total", { count: total })}
        </span>
        <Pager total={total} limit={filter.limit} offset={filter.offset} testId="messages-pager" />
      </div>
      <MessageTable messages={messages} hint={filtered ? t("log.noMatch") : null} />
    </section>
  );
}

function MessageTable({ messages, hint }: { messages: Message[]; hint: string | null }) {
  const t = useT();
  const texts = useAlarmText();
  // Alarming's arguments are its event and the state it led to: said in the reader's words too.
  const args = (m: Message) => (m.Sender === "Alarming" && m.Args.length === 2 ? [t(`alarmText.event.${m.Args[0]}`, { defaultValue: m.Args[0] }), t(`alarmState.${m.Args[1]}`, { defaultValue: m.Args[1] })] : m.Args);
  const { dateTime } = useFormatters();
  return (
    <DataTable
      label={t("nav.log")}
      testId="messages-table"
      columns={["time", "sender", "topic", "type", "text"].map((c) => ({ label: t(`log.columns.${c}`) }))}
      emptyTestId="messages-empty"
      empty={
        messages.length === 0 ? (
          <>
            {t("log.empty")}
            {hint && <div className="text-xs">{hint}</div>}
          </>
        ) : undefined
      }
    >
      {messages.map((m) => (
        <Row key={m.ID} data-message={m.ID}>
          <Cell className="whitespace-nowrap">{dateTime(m.Timestamp)}</Cell>
          <Cell>{m.Sender}</Cell>
          <Cell>{m.Topic}</Cell>
          <Cell>
            <span className={`rounded px-2 py-0.5 text-xs font-medium ${TYPE_COLOURS[m.Type] ?? "bg-slate-100"}`}>{t(`log.type.${m.Type}`, { defaultValue: m.Type })}</span>
          </Cell>
          <Cell className="min-w-48">
            <span data-testid="message-text">{texts.message(m)}</span>
            {m.Args.length > 0 && <span className="ml-2 text-xs text-slate-600 dark:text-slate-300">[{args(m).join(", ")}]</span>}
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}

function MaintenanceCard({ active, lastResult, stopError }: { active: Message | null; lastResult?: SubmissionResult<string[]>; stopError?: string }) {
  const t = useT();
  const [form, fields] = useForm({
    id: "maintenance-form",
    lastResult,
    defaultValue: { type: "Warning" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: maintenanceSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="rounded-lg bg-white p-5 shadow-sm dark:bg-slate-800" aria-labelledby="maintenance-title" data-testid="maintenance-card">
      <h2 id="maintenance-title" className="mb-3 text-lg font-semibold">
        {t("log.maintenance.title")}
      </h2>
      {active ? (
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="maintenanceStop" />
          <p className="flex-1">
            {t("log.maintenance.active", { type: t(`log.type.${active.Type}`, { defaultValue: active.Type }) })} <strong>{active.Text}</strong>
          </p>
          <button type="submit" className={buttonClass} aria-describedby={stopError ? "maintenance-stop-error" : undefined}>
            {t("log.maintenance.stop")}
          </button>
          {stopError && (
            <div className="basis-full">
              <FormErrors errors={[stopError]} id="maintenance-stop-error" />
            </div>
          )}
        </Form>
      ) : (
        <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
          <input type="hidden" name="intent" value="maintenanceStart" />
          <div className="sm:col-span-3">
            <FormErrors errors={form.errors} id={form.errorId} />
          </div>
          <FormField id={fields.text.id} label={t("log.maintenance.text")} errors={fields.text.errors} errorId={fields.text.errorId}>
            <textarea {...getTextareaProps(fields.text)} rows={1} className={inputClass} />
          </FormField>
          <FormField id={fields.type.id} label={t("log.maintenance.severity")} errors={fields.type.errors} errorId={fields.type.errorId}>
            <select {...getSelectProps(fields.type)} className={inputClass}>
              {MAINTENANCE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`log.type.${type}`)}
                </option>
              ))}
            </select>
          </FormField>
          <button type="submit" className={buttonClass}>
            {t("log.maintenance.start")}
          </button>
        </Form>
      )}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.log");
}
