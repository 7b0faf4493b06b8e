import { useRef, useState } from "react";
import { useT } from "~/ui/useT";
import { Form, useSearchParams } from "react-router";
import { AGGREGATES, EXPORT_ERROR_FIELDS, separatorsFor, TIME_FORMATS, type ExportErrorField } from "~/schemas/export";
import { keptData, stateOf } from "~/services/context.server";
import { userTimeZone } from "~/services/zoned.server";
import { requireFeature } from "~/services/guards.server";
import { listMeasurements } from "~/services/history.server";
import { getLocale } from "~/services/i18n.server";
import { loadVariables } from "~/services/variables.server";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { resolveHistoryRange } from "~/ui/history/historyRange";
import { RangeFields } from "~/ui/history/RangeFields";
import { FieldsetError, VariablePicker } from "~/ui/history/VariablePicker";
import { CsvRowCounter } from "~/ui/export/csvRowCounter";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/export";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "export");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const [{ variables }, measurements, zone] = await Promise.all([loadVariables(logger, { stored: true }), listMeasurements(logger), userTimeZone(args)]);
  const range = resolveHistoryRange(params, zone, Date.now(), measurements);
  const error = params.get("error");
  const field = params.get("errorField");
  return keptData(args.context, {
    variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName })),
    measurements: measurements.map((m) => ({ ID: m.ID, Name: m.Name })),
    selected: params.getAll("v"),
    range: { ...range, problem: null },
    language: getLocale(args.context),
    error: error ? { text: error.slice(0, 500), field: EXPORT_ERROR_FIELDS.find((f) => f === field) ?? null } : null,
  });
}

type Refusal = { text: string; field: ExportErrorField | null };
type Progress = { state: "idle" } | { state: "running" | "done"; rows: number; bytes: number } | { state: "cancelled" } | { state: "failed"; error: Refusal };

export default function Export({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const fmt = useFormatters();
  const [progress, setProgress] = useState<Progress>({ state: "idle" });
  const abort = useRef<AbortController | null>(null);
  const choice = (name: string, fallback: string) => params.get(name) ?? fallback;
  const localeSeps = separatorsFor("locale", loaderData.language);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const ac = new AbortController();
    abort.current = ac;
    setProgress({ state: "running", rows: 0, bytes: 0 });
    try {
      const result = await download(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter, ac.signal, (rows, bytes) => setProgress({ state: "running", rows, bytes }));
      setProgress({ state: "done", ...result });
    } catch (error) {
      setProgress(ac.signal.aborted ? { state: "cancelled" } : { state: "failed", error: error instanceof ExportRefused ? error.refusal : { text: error instanceof Error ? error.message : String(error), field: null } });
    } finally {
      abort.current = null;
    }
  }

  // The latest refusal: the script's answer once the form was sent with JavaScript, else the URL's.
  const refusal = progress.state === "failed" ? progress.error : progress.state === "idle" ? loaderData.error : null;
  const at = (field: ExportErrorField | null) => (refusal && refusal.field === field ? [refusal.text] : undefined);
  const size = (n: number) => `${fmt.number(n / 1e6, 1)} MB`;
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{t("nav.export")}</h1>
      <FormErrors errors={at(null)} />
      <Form method="post" action="/export/csv" reloadDocument onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="export-form">
        <VariablePicker variables={loaderData.variables} selected={loaderData.selected} errors={at("v")} filterAction="/export" />
        <RangeFields range={loaderData.range} measurements={loaderData.measurements} idPrefix="export" errors={at("range")} />
        <fieldset className="flex flex-wrap items-end gap-4">
          <legend className="mb-1 text-sm font-medium">{t("history.export.mode")}</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="mode" value="raw" defaultChecked={choice("mode", "raw") === "raw"} />
            {t("history.export.raw")}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="mode" value="resampled" defaultChecked={choice("mode", "raw") === "resampled"} />
            {t("history.export.resampled")}
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.export.interval")}
            <input type="number" name="interval" step="any" defaultValue={choice("interval", "1")} aria-invalid={at("interval") ? true : undefined} aria-describedby={at("interval") ? "interval-error" : undefined} className={`${inputClass} w-32`} />
            <FieldsetError id="interval-error" errors={at("interval")} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.export.aggregate")}
            <select name="aggregate" defaultValue={choice("aggregate", "mean")} className={inputClass}>
              {AGGREGATES.map((a) => (
                <option key={a} value={a}>
                  {t(`history.export.aggregates.${a}`)}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        <div className="flex flex-wrap items-end gap-4">
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.export.timeFormat")}
            <select name="time" defaultValue={choice("time", "iso")} className={inputClass}>
              {TIME_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {t(`history.export.timeFormats.${f}`, { zone: fmt.timeZone })}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.export.separators")}
            <select name="sep" defaultValue={choice("sep", "locale")} className={inputClass}>
              <option value="locale">{t("history.export.separatorChoices.locale", { example: `1${localeSeps.DecimalSeparator}5${localeSeps.ColumnSeparator}2${localeSeps.DecimalSeparator}5` })}</option>
              <option value="comma">{t("history.export.separatorChoices.comma")}</option>
              <option value="semicolon">{t("history.export.separatorChoices.semicolon")}</option>
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="bom" defaultChecked={params.get("bom") === "on"} />
            {t("history.export.bom")}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="meta" defaultChecked={params.get("meta") === "on"} />
            {t("history.export.metadata")}
          </label>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {/* One button per file format: the pressed one's format is posted, with or without JavaScript. */}
          <button type="submit" name="format" value="csv" className={buttonClass} disabled={progress.state === "running"}>
            {t("history.export.download")}
          </button>
          <button type="submit" name="format" value="udbf" className={buttonClass} disabled={progress.state === "running"} title={t("history.export.udbfNote")}>
            {t("history.export.downloadUdbf")}
          </button>
          {progress.state === "running" && (
            <button type="button" onClick={() => abort.current?.abort()} className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
              {t("history.export.cancel")}
            </button>
          )}
          <p role="status" className="text-sm text-slate-600 dark:text-slate-300" data-testid="export-progress">
            {progress.state === "running" && t("history.export.progress", { rows: fmt.number(progress.rows), bytes: size(progress.bytes) })}
            {progress.state === "done" && t("history.export.done", { rows: fmt.number(progress.rows), bytes: size(progress.bytes) })}
            {progress.state === "cancelled" && t("history.export.cancelled")}
          </p>
        </div>
      </Form>
    </section>
  );
}

/** Posts the form, counts rows and bytes as they stream in, then saves the file under the server's name. */
async function download(form: HTMLFormElement, submitter: HTMLElement | null, signal: AbortSignal, onProgress: (rows: number, bytes: number) => void): Promise<{ rows: number; bytes: number }> {
  const body = new FormData(form, submitter);
  body.set("js", "1");
  const res = await fetch(form.action, { method: "POST", body, signal });
  if (!res.ok || !res.body) {
    const answer = (await res.json().catch(() => null)) as { error?: string; field?: string | null } | null;
    throw new ExportRefused({ text: answer?.error ?? res.statusText, field: EXPORT_ERROR_FIELDS.find((f) => f === answer?.field) ?? null });
  }
  const parts: Uint8Array[] = [];
  let bytes = 0;
  // A UDBF file's rows are fixed-size after its header: counted from the sizes the logger names.
  const offset = Number(res.headers.get("X-UDBF-Data-Offset") ?? NaN);
  const rowBytes = Number(res.headers.get("X-UDBF-Row-Bytes") ?? NaN);
  const udbf = Number.isFinite(offset) && rowBytes > 0;
  const csvRows = new CsvRowCounter();
  const rows = udbf ? { add() {}, rows: () => Math.max(0, Math.floor((bytes - offset) / rowBytes)) } : csvRows;
  let last = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    bytes += value.length;
    rows.add(value);
    if (performance.now() - last > 200) (last = performance.now()), onProgress(rows.rows(), bytes);
  }
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: udbf ? "application/octet-stream" : "text/csv" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName(res.headers.get("Content-Disposition")) ?? "export.csv";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { rows: udbf ? rows.rows() : csvRows.rows(true), bytes };
}

class ExportRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.text);
  }
}

function fileName(disposition: string | null): string | null {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "");
  if (utf8) return decodeURIComponent(utf8[1]!);
  return /filename="([^"]+)"/i.exec(disposition ?? "")?.[1] ?? null;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.export");
}
