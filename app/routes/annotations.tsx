import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useSearchParams } from "react-router";
import { LOCALE_IDS, type Language } from "~/locales";
import { annotationFormSchema, MAX_TEXT } from "~/schemas/annotations";
import { addAnnotation, listAnnotations, mayAddAnnotations, chartAnnotation, removeAnnotation, setAnnotation } from "~/services/annotations.server";
import { keptData, stateOf } from "~/services/context.server";
import { readId, readIntent, requireConfirmation } from "~/services/forms.server";
import { flashToast, redirectWithToast, requireAnyFeature } from "~/services/guards.server";
import { getInstance, getLocale } from "~/services/i18n.server";
import { safePath } from "~/services/redirects";
import { failureOf } from "~/services/submission.server";
import { loadVariables } from "~/services/variables.server";
import { userTimeZone } from "~/services/zoned.server";
import { ConfirmAction, ConfirmPanel } from "~/ui/ConfirmAction";
import { parseInstant, toLocalInput } from "~/ui/dashboard/timeRange";
import { Cell, DataTable, Row } from "~/ui/DataTable";
import { DateTimeField } from "~/ui/DateTimeField";
import { parseTypedDateTime } from "~/ui/dateTimeInput";
import { FormActions } from "~/ui/FormActions";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { ListPage } from "~/ui/ListPage";
import { Panel } from "~/ui/Panel";
import { pageTitle } from "~/ui/title";
import { useT } from "~/ui/useT";
import type { Route } from "./+types/annotations";

// Operator annotations (issue 28 §6) without JavaScript: the notes of a range, a form to add one
// (reached from a chart panel's "Add note", with the panel's range and variables), and Edit and
// Remove for those the viewer may. Charts add notes in place with JavaScript (ChartNotes.tsx) by
// posting the same form here (js=1: answered as JSON).

/** Whoever sees a chart a note is drawn on may read notes. */
const READERS = ["dashboard", "analytics", "export", "measurementUI"];
const DAY_MS = 86_400_000;

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireAnyFeature(args, READERS);
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const zone = await userTimeZone(args);
  const now = Date.now();
  const to = parseInstant(params.get("to"), zone) ?? now;
  const from = parseInstant(params.get("from"), zone) ?? to - DAY_MS;
  const range = to > from ? { from, to } : { from: to - DAY_MS, to };
  const wanted = params.getAll("v");
  // Kept for an outage under the page's own range choice (the last day moves with the clock).
  const keptAs = JSON.stringify({ from: params.get("from"), to: params.get("to"), v: wanted });
  const [{ Annotations, Total }, { variables }] = await Promise.all([listAnnotations(logger, range, wanted, keptAs), loadVariables(logger).catch(() => ({ variables: [] }))]);
  const names = Object.fromEntries(variables.map((v) => [v.Id, v.Name]));
  const notes = Annotations.map((a) => ({ ...chartAnnotation(a, auth), names: a.Variables.map((id) => names[id] ?? id) }));
  const start = parseInstant(params.get("start"), zone);
  const end = parseInstant(params.get("end"), zone);
  const editing = notes.find((n) => n.id === Number(params.get("edit")) && n.canEdit) ?? null;
  const removing = notes.find((n) => n.id === Number(params.get("remove")) && n.canRemove) ?? null;
  return keptData(args.context, {
    range,
    notes,
    total: Total ?? notes.length,
    chosen: wanted.map((id) => ({ id, name: names[id] ?? id })),
    mayAdd: mayAddAnnotations(auth),
    /** The add form's times: what a chart panel asked for, else now. */
    draft: { start: toLocalInput(start ?? Math.min(now, range.to), zone), end: end !== null && start !== null && end > start ? toLocalInput(end, zone) : "" },
    editing: editing && { ...editing, startInput: toLocalInput(editing.start, zone), endInput: editing.end > editing.start ? toLocalInput(editing.end, zone) : "" },
    removing,
    back: safePath(params.get("back")),
  });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireAnyFeature(args, READERS);
  const { logger } = stateOf(args.context);
  const { t } = getInstance(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, ["add", "edit", "remove"] as const);
  const viaScript = formData.get("js") === "1";
  const back = safePath(String(formData.get("back") ?? "")) ?? `/annotations${args.url.search}`;
  const done = (text: string) => {
    if (!viaScript) return redirectWithToast(args.context, back, { type: "success", text });
    flashToast(args.context, { type: "success", text });
    return data({ ok: true as const });
  };
  const refused = (error: string, result?: SubmissionResult<string[]>) => data({ intent, error, result }, { status: 400 });

  if (intent === "remove") {
    requireConfirmation(formData);
    try {
      await removeAnnotation(logger, readId(formData.get("id")));
    } catch (caught) {
      const error = failureOf(caught, t);
      return refused(error.message);
    }
    return done(t("annotations.removed"));
  }

  if (!mayAddAnnotations(auth)) throw data({ reason: "forbidden" }, { status: 403 });
  const submission = parseWithZod(formData, { schema: annotationFormSchema });
  if (submission.status !== "success") return data({ intent, error: viaScript ? t(Object.values(submission.error ?? {}).flat()[0] ?? "annotations.errors.text") : undefined, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  // Times: epoch ms from a chart, or typed in the user's locale and zone.
  const zone = await userTimeZone(args);
  const localeId = LOCALE_IDS[getLocale(args.context) as Language] ?? "en-US";
  const instant = (text: string | undefined) => (!text ? null : /^\d{1,15}$/.test(text) ? Number(text) : parseInstant(parseTypedDateTime(text, localeId), zone));
  const start = instant(v.start);
  const end = v.end ? instant(v.end) : start;
  const fieldError = (field: "start" | "end", key: string) => data({ intent, error: viaScript ? t(key) : undefined, result: submission.reply({ fieldErrors: { [field]: [key] } }) }, { status: 400 });
  if (start === null) return fieldError("start", "annotations.errors.start");
  if (end === null) return fieldError("end", "annotations.errors.end");
  if (end < start) return fieldError("end", "annotations.errors.endBeforeStart");
  const input = { Start: start, End: end, Text: v.text, Tags: v.tags, Variables: v.v };
  try {
    if (intent === "add") await addAnnotation(logger, input);
    else await setAnnotation(logger, { ...input, ID: readId(formData.get("id")) });
  } catch (caught) {
    const error = failureOf(caught, t);
    return refused(error.message, submission.reply({ formErrors: [error.message] }));
  }
  return done(t(intent === "add" ? "annotations.added" : "annotations.saved"));
}

type Loaded = Route.ComponentProps["loaderData"];

export default function Annotations({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const fmt = useFormatters();
  const [params] = useSearchParams();
  const { range, notes, editing, removing, back } = loaderData;
  const here = `/annotations?${params}`;
  const without = (...keys: string[]) => {
    const next = new URLSearchParams(params);
    for (const k of keys) next.delete(k);
    return `/annotations?${next}`;
  };
  const when = (a: { start: number; end: number }) => (a.end > a.start ? `${fmt.dateTime(a.start)} – ${fmt.dateTime(a.end)}` : fmt.dateTime(a.start));
  const answer = actionData && "intent" in actionData ? actionData : undefined;
  const reply = answer?.result;
  const error = answer && !reply ? answer.error : undefined;
  return (
    <ListPage title={t("annotations.title")} actions={back ? <Link to={back} className="text-brand hover:underline">{t("annotations.back")}</Link> : undefined}>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("annotations.intro")}</p>
      {removing && (
        <ConfirmPanel title={t("annotations.removeTitle")} fields={{ intent: "remove", id: String(removing.id), back: back ?? here }} message={t("annotations.removeConfirm", { text: removing.text })} confirmLabel={t("annotations.remove")} cancelHref={without("remove")} />
      )}
      <FormErrors errors={error ? [error] : undefined} />
      {editing ? (
        <Panel title={t("annotations.editTitle")}>
          <NoteForm key={`edit-${editing.id}`} intent="edit" id={editing.id} values={{ start: editing.startInput, end: editing.endInput, text: editing.text, tags: editing.tags.join(", ") }} variables={editing.variables.map((id, k) => ({ id, name: editing.names[k] ?? id }))} back={back ?? without("edit")} cancelHref={without("edit")} lastResult={answer?.intent === "edit" ? reply : undefined} />
        </Panel>
      ) : (
        loaderData.mayAdd && (
          <Panel title={t("annotations.addTitle")}>
            <NoteForm key="add" intent="add" values={{ start: loaderData.draft.start, end: loaderData.draft.end, text: "", tags: "" }} variables={loaderData.chosen} back={back ?? here} cancelHref={back ?? "/annotations"} lastResult={answer?.intent === "add" ? reply : undefined} />
          </Panel>
        )
      )}
      <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="annotations-range">
        {loaderData.chosen.map((v) => (
          <input key={v.id} type="hidden" name="v" value={v.id} />
        ))}
        {back && <input type="hidden" name="back" value={back} />}
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("annotations.from")}
          <DateTimeField name="from" label={t("annotations.from")} value={toLocalInput(range.from, fmt.timeZone)} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("annotations.to")}
          <DateTimeField name="to" label={t("annotations.to")} value={toLocalInput(range.to, fmt.timeZone)} showHint={false} />
        </label>
        <button type="submit" className={buttonClass}>
          {t("annotations.show")}
        </button>
      </Form>
      <NotesTable notes={notes} when={when} here={here} back={back} without={without} />
    </ListPage>
  );
}

function NotesTable({ notes, when, here, back, without }: { notes: Loaded["notes"]; when: (a: { start: number; end: number }) => string; here: string; back: string | null; without: (...k: string[]) => string }) {
  const t = useT();
  const withParam = (key: string, value: number) => {
    const base = without("edit", "remove");
    return `${base}${base.includes("?") ? "&" : "?"}${key}=${value}`;
  };
  return (
    <DataTable
      label={t("annotations.title")}
      testId="annotations-table"
      columns={[{ label: t("annotations.columns.time") }, { label: t("annotations.columns.text") }, { label: t("annotations.columns.tags") }, { label: t("annotations.columns.variables") }, { label: t("annotations.columns.author") }, { label: t("common.actions"), srOnly: true }]}
      empty={notes.length === 0 ? t("annotations.empty") : undefined}
    >
      {notes.map((a) => (
        <Row key={a.id} data-annotation={a.id}>
          <Cell className="whitespace-nowrap tabular-nums">{when(a)}</Cell>
          <Cell className="whitespace-pre-line break-words">{a.text}</Cell>
          <Cell>{a.tags.join(", ")}</Cell>
          <Cell>{a.names.length ? a.names.join(", ") : t("annotations.allCharts")}</Cell>
          <Cell>{a.author}</Cell>
          <Cell>
            <span className="flex gap-3">
              {a.canEdit && (
                <Link to={withParam("edit", a.id)} className="text-brand hover:underline" aria-label={`${t("annotations.edit")}: ${a.text}`}>
                  {t("annotations.edit")}
                </Link>
              )}
              {a.canRemove && (
                <ConfirmAction
                  label={t("annotations.remove")}
                  title={t("annotations.removeTitle")}
                  confirmHref={withParam("remove", a.id)}
                  fields={{ intent: "remove", id: String(a.id), back: back ?? here }}
                  message={t("annotations.removeConfirm", { text: a.text })}
                  confirmLabel={t("annotations.remove")}
                  cancelHref={without("remove")}
                />
              )}
            </span>
          </Cell>
        </Row>
      ))}
    </DataTable>
  );
}

function NoteForm({
  intent,
  id,
  values,
  variables,
  back,
  cancelHref,
  lastResult,
}: {
  intent: "add" | "edit";
  id?: number;
  values: { start: string; end: string; text: string; tags: string };
  variables: { id: string; name: string }[];
  back: string;
  cancelHref: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const t = useT();
  const [form, fields] = useForm({
    id: `annotation-${intent}`,
    lastResult,
    defaultValue: values,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: annotationFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4" data-testid={`annotation-${intent}-form`}>
      <input type="hidden" name="intent" value={intent} />
      {id !== undefined && <input type="hidden" name="id" value={id} />}
      <input type="hidden" name="back" value={back} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <div className="flex flex-wrap gap-4">
        <FormField id={fields.start.id} label={t("annotations.start")} errors={fields.start.errors} errorId={fields.start.errorId}>
          <DateTimeField id={fields.start.id} name="start" label={t("annotations.start")} value={values.start} />
        </FormField>
        <FormField id={fields.end.id} label={t("annotations.end")} errors={fields.end.errors} errorId={fields.end.errorId}>
          <DateTimeField id={fields.end.id} name="end" label={t("annotations.end")} value={values.end} showHint={false} />
        </FormField>
      </div>
      <p className="-mt-2 text-xs text-slate-600 dark:text-slate-300">{t("annotations.endHint")}</p>
      <FormField id={fields.text.id} label={t("annotations.text")} errors={fields.text.errors} errorId={fields.text.errorId}>
        <textarea {...getTextareaProps(fields.text)} rows={3} maxLength={MAX_TEXT} className={`${inputClass} w-full`} />
      </FormField>
      <FormField id={fields.tags.id} label={t("annotations.tags")} errors={fields.tags.errors} errorId={fields.tags.errorId}>
        <input {...getInputProps(fields.tags, { type: "text" })} placeholder={t("dashboards.notes.tagsHint")} className={`${inputClass} w-full`} />
      </FormField>
      {variables.length > 0 && (
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="mb-1 font-medium">{t("annotations.about")}</legend>
          {variables.map((v) => (
            <label key={v.id} className="flex items-center gap-2">
              <input type="checkbox" name="v" value={v.id} defaultChecked className="size-4" />
              {v.name}
            </label>
          ))}
          <span className="text-xs text-slate-600 dark:text-slate-300">{t("annotations.aboutHint")}</span>
        </fieldset>
      )}
      <FormActions submitLabel={t(intent === "add" ? "annotations.add" : "annotations.save")} cancelHref={cancelHref} />
    </Form>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "annotations.title");
}
