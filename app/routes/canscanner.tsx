import { useT } from "~/ui/useT";
import { data, Form, Link, useNavigation } from "react-router";
import { addVariableForm, CAPTURE_LIMIT, DBC_LIMIT } from "~/schemas/canscanner";
import { stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { canDatabaseAnswer, canScanAnswer, canSignalsAnswer, canSourceAnswer, canVariableAnswer, type CanScanRow, type CanSignal } from "~/services/logger/canSchemas";
import { emptyAnswer } from "~/services/logger/schemas";
import { isRefusal } from "~/services/submission.server";
import { buttonClass, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { usePolling } from "~/ui/usePolling";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/canscanner";

const PATH = "/canscanner";
const INTENTS = ["capture", "database", "simulation", "removeDatabase", "addVariable"] as const;
type Intent = (typeof INTENTS)[number];
// Room for the multipart framing around the file itself.
const FRAMING = 64 * 1024;

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "canscanner");
  const { logger } = stateOf(args.context);
  try {
    const [scan, signals] = await Promise.all([logger.rpc("CANAPI.GetScan", {}, canScanAnswer), logger.rpc("CANAPI.GetSignals", {}, canSignalsAnswer)]);
    return { supported: true as const, scan, signals, canSeeVariables: holds(auth, "UseMetaData") };
  } catch (error) {
    // A logger without a CAN interface (an external one through LOGGER_URL) does not know CANAPI.
    if (isRefusal(error) && error.status === 404) return { supported: false as const };
    throw error;
  }
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "canscanner");
  const { context, request } = args;
  const { t } = getInstance(context);
  const { logger } = stateOf(context);
  const fail = (intent: Intent, error: string, status = 400) => data({ intent, error }, { status });
  const tooLarge = Number(request.headers.get("Content-Length") ?? 0) > CAPTURE_LIMIT + FRAMING;
  if (tooLarge) return fail("capture", t("can.validation.tooLarge", { mb: CAPTURE_LIMIT / 1024 / 1024 }), 413);
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return fail("capture", t("can.validation.unreadable"));
  }
  const intent = readIntent(formData, INTENTS);
  try {
    switch (intent) {
      case "capture":
      case "database": {
        const file = formData.get("file");
        if (!(file instanceof File) || file.name === "" || file.size === 0) return fail(intent, t("can.validation.fileRequired"));
        const limit = intent === "capture" ? CAPTURE_LIMIT : DBC_LIMIT;
        if (file.size > limit) return fail(intent, t("can.validation.tooLarge", { mb: limit / 1024 / 1024 }), 413);
        const content = decodeText(new Uint8Array(await file.arrayBuffer()));
        try {
          if (intent === "capture") await logger.rpc("CANAPI.UploadCapture", { FileName: file.name, Content: content }, canSourceAnswer);
          else await logger.rpc("CANAPI.UploadDatabase", { FileName: file.name, Content: content }, canDatabaseAnswer);
        } catch (error) {
          if (!isRefusal(error)) throw error;
          return fail(intent, fileError(t, file.name, error.message), error.status);
        }
        return redirectWithToast(context, PATH, { type: "success", text: t(intent === "capture" ? "can.captureLoaded" : "can.databaseLoaded", { name: file.name }) });
      }
      case "simulation":
        await logger.rpc("CANAPI.UseSimulation", {}, canSourceAnswer);
        return redirectWithToast(context, PATH, { type: "success", text: t("can.simulationOn") });
      case "removeDatabase":
        await logger.rpc("CANAPI.RemoveDatabase", {}, emptyAnswer.loose());
        return redirectWithToast(context, PATH, { type: "success", text: t("can.databaseRemoved") });
      case "addVariable": {
        const parsed = addVariableForm.safeParse(Object.fromEntries(formData));
        if (!parsed.success) return fail(intent, t("can.validation.signal"));
        const { Variable, Created } = await logger.rpc("CANAPI.AddVariable", { Message: parsed.data.message, Signal: parsed.data.signal }, canVariableAnswer);
        return redirectWithToast(context, PATH, { type: "success", text: t(Created ? "can.variableAdded" : "can.variableExists", { name: Variable.Name }) });
      }
    }
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return fail(intent, error.message, error.status);
  }
}

/** UTF-8, or Windows-1252 for the many DBC files written by Windows tools. */
function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** "Line 3: why" from the logger becomes a translated sentence naming the file and the line. */
function fileError(t: (key: string, o?: Record<string, unknown>) => string, name: string, message: string): string {
  const m = /^Line (\d+): (.*)$/s.exec(message);
  return m ? t("can.validation.atLine", { name, line: Number(m[1]), reason: m[2] }) : t("can.validation.rejected", { name, reason: message });
}

export default function CanScanner({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  if (!loaderData.supported) {
    return (
      <section className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold">{t("nav.canscanner")}</h1>
        <p role="status" className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800">
          {t("can.unsupported")}
        </p>
      </section>
    );
  }
  return <Scanner data={loaderData} actionData={actionData} />;
}

function Scanner({ data: { scan, signals, canSeeVariables }, actionData }: { data: Extract<Route.ComponentProps["loaderData"], { supported: true }>; actionData: Route.ComponentProps["actionData"] }) {
  const t = useT();
  const { dateTime } = useFormatters();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errorOf = (intent: Intent) => (actionData?.intent === intent ? actionData.error : undefined);
  usePolling(1000, !busy);
  const source = scan.Source;

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t("nav.canscanner")}</h1>
        <Form method="get" action={PATH}>
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
            {t("can.refresh")}
          </button>
        </Form>
      </div>

      <div className="flex flex-wrap items-center gap-3 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="can-source">
        <span>
          {source.Kind === "simulation" && t("can.source.simulation", { since: source.LoadedAt ? dateTime(source.LoadedAt) : "" })}
          {source.Kind === "capture" && t("can.source.capture", { name: source.FileName, format: source.Format === "asc" ? "Vector ASC" : "candump", frames: source.Frames })}
          {source.Kind === "none" && t("can.source.none")}
        </span>
        {source.Kind === "capture" && (
          <Form method="post">
            <input type="hidden" name="intent" value="simulation" />
            <button type="submit" className="text-brand hover:underline" disabled={busy}>
              {t("can.useSimulation")}
            </button>
          </Form>
        )}
        <ErrorAlert text={errorOf("simulation")} />
      </div>

      <ScanTable rows={scan.Scan} windowMs={scan.WindowMs} />

      <div className="grid gap-4 md:grid-cols-2">
        <UploadForm intent="capture" title={t("can.uploadCapture")} hint={t("can.captureHint", { mb: CAPTURE_LIMIT / 1024 / 1024 })} accept=".log,.asc,.txt,.candump" error={errorOf("capture")} busy={busy} />
        <UploadForm intent="database" title={t("can.uploadDatabase")} hint={t("can.databaseHint", { mb: DBC_LIMIT / 1024 / 1024 })} accept=".dbc,.txt" error={errorOf("database")} busy={busy} />
      </div>

      <section className="rounded-lg bg-white shadow-sm dark:bg-slate-800" aria-label={t("can.signalsTitle")}>
        <div className="flex flex-wrap items-center justify-between gap-3 p-4">
          <h2 className="text-lg font-semibold">{t("can.signalsTitle")}</h2>
          {signals.Database && (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span data-testid="can-database">{t("can.databaseInfo", { name: signals.Database.FileName, messages: signals.Database.Messages, signals: signals.Database.Signals })}</span>
              <Form method="post">
                <input type="hidden" name="intent" value="removeDatabase" />
                <button type="submit" className="text-red-700 hover:underline dark:text-red-400" disabled={busy}>
                  {t("can.removeDatabase")}
                </button>
              </Form>
            </div>
          )}
        </div>
        <ErrorAlert text={errorOf("addVariable") ?? errorOf("removeDatabase")} />
        {signals.Database ? <SignalsTable signals={signals.Signals} busy={busy} canSeeVariables={canSeeVariables} /> : <p className="px-4 pb-4 text-slate-500">{t("can.noDatabase")}</p>}
      </section>
    </section>
  );
}

function ScanTable({ rows, windowMs }: { rows: CanScanRow[]; windowMs: number }) {
  const t = useT();
  const { number } = useFormatters();
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
      <table className="w-full text-left text-sm" data-testid="can-scan">
        <caption className="p-4 text-left text-lg font-semibold">
          {t("can.scanTitle")} <span className="text-sm font-normal text-slate-500">{t("can.scanHint", { seconds: number(windowMs / 1000) })}</span>
        </caption>
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            <th scope="col" className="px-4 py-2">{t("can.columns.id")}</th>
            <th scope="col" className="px-4 py-2 text-right">{t("can.columns.dlc")}</th>
            <th scope="col" className="px-4 py-2 text-right">{t("can.columns.count")}</th>
            <th scope="col" className="px-4 py-2 text-right">{t("can.columns.rate")}</th>
            <th scope="col" className="px-4 py-2">{t("can.columns.payload")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={5} className="px-4 py-6 text-center text-slate-500">
                {t("can.noFrames")}
              </td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={`${r.Extended ? "x" : "s"}${r.ID}`} className="border-t border-slate-100 dark:border-slate-700" data-can-id={r.IDHex}>
              <td className="px-4 py-2 font-mono">
                0x{r.IDHex}
                {r.Extended && <span className="ml-2 rounded bg-slate-200 px-1 text-xs dark:bg-slate-600">{t("can.extended")}</span>}
              </td>
              <td className="px-4 py-2 text-right tabular-nums">{number(r.DLC)}</td>
              <td className="px-4 py-2 text-right tabular-nums" data-testid="can-count">{number(r.Count)}</td>
              <td className="px-4 py-2 text-right tabular-nums">{r.RateHz === null ? "—" : t("can.rate", { rate: number(r.RateHz, 1) })}</td>
              <td className="px-4 py-2 font-mono" data-testid="can-payload">
                {r.Payload.split(" ").filter(Boolean).map((b, i) =>
                  r.Changed[i] ? (
                    <mark key={i} className="mr-1 rounded bg-amber-200 px-0.5 text-slate-900" title={t("can.changedByte")} data-changed="true">
                      {b}
                    </mark>
                  ) : (
                    <span key={i} className="mr-1 px-0.5">
                      {b}
                    </span>
                  ),
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SignalsTable({ signals, busy, canSeeVariables }: { signals: CanSignal[]; busy: boolean; canSeeVariables: boolean }) {
  const t = useT();
  const { value, number } = useFormatters();
  // A value scaled by the factor has the factor's decimals (0.25 → 2, 0.1 → 1), at most 6.
  const decimals = (factor: number) => (Math.abs(factor).toFixed(6).replace(/0+$/, "").split(".")[1] ?? "").length;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="can-signals">
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            <th scope="col" className="px-4 py-2">{t("can.columns.message")}</th>
            <th scope="col" className="px-4 py-2">{t("can.columns.signal")}</th>
            <th scope="col" className="px-4 py-2 text-right">{t("can.columns.value")}</th>
            <th scope="col" className="px-4 py-2">{t("can.columns.unit")}</th>
            <th scope="col" className="px-4 py-2 text-right">{t("can.columns.min")}</th>
            <th scope="col" className="px-4 py-2 text-right">{t("can.columns.max")}</th>
            <th scope="col" className="px-4 py-2">{t("can.columns.layout")}</th>
            <th scope="col" className="px-4 py-2">
              <span className="sr-only">{t("can.columns.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {signals.length === 0 && (
            <tr>
              <td colSpan={8} className="px-4 py-6 text-center text-slate-500">
                {t("can.noSignals")}
              </td>
            </tr>
          )}
          {signals.map((s) => {
            const digits = decimals(s.Factor);
            const outside = s.Value !== null && (s.Min !== 0 || s.Max !== 0) && (s.Value < s.Min || s.Value > s.Max);
            return (
              <tr key={`${s.Message}.${s.Name}`} className="border-t border-slate-100 dark:border-slate-700" data-signal={`${s.Message}.${s.Name}`}>
                <td className="px-4 py-2">
                  {s.Message} <span className="font-mono text-xs text-slate-500">0x{s.MessageIDHex}</span>
                </td>
                <td className="px-4 py-2 font-medium">{s.Name}</td>
                <td className={`px-4 py-2 text-right tabular-nums ${outside ? "font-semibold text-red-700 dark:text-red-400" : ""}`} data-testid="can-value" title={outside ? t("can.outOfRange") : undefined}>
                  {value(s.Value, digits)}
                </td>
                <td className="px-4 py-2">{s.Unit}</td>
                <td className="px-4 py-2 text-right tabular-nums">{number(s.Min)}</td>
                <td className="px-4 py-2 text-right tabular-nums">{number(s.Max)}</td>
                <td className="px-4 py-2 text-xs text-slate-500">
                  {t("can.layout", { start: s.StartBit, count: s.Length, order: t(s.ByteOrder === "little" ? "can.littleEndian" : "can.bigEndian"), sign: t(s.Signed ? "can.signed" : "can.unsigned"), factor: number(s.Factor), op: s.Offset < 0 ? "−" : "+", offset: number(Math.abs(s.Offset)) })}
                </td>
                <td className="px-4 py-2 text-right">
                  {s.VariableId ? (
                    canSeeVariables ? (
                      <Link to={`/variableOverview?${new URLSearchParams({ q: `${s.Message}.${s.Name}` })}`} className="text-brand hover:underline">
                        {t("can.isVariable")}
                      </Link>
                    ) : (
                      <span className="text-slate-500">{t("can.isVariable")}</span>
                    )
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="addVariable" />
                      <input type="hidden" name="message" value={s.Message} />
                      <input type="hidden" name="signal" value={s.Name} />
                      <button type="submit" className="text-brand hover:underline" disabled={busy} aria-label={t("can.addVariableFor", { name: `${s.Message}.${s.Name}` })}>
                        {t("can.addVariable")}
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function UploadForm({ intent, title, hint, accept, error, busy }: { intent: "capture" | "database"; title: string; hint: string; accept: string; error?: string; busy: boolean }) {
  const t = useT();
  const id = `can-${intent}-file`;
  return (
    <section className="rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800" aria-label={title}>
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3" data-testid={`can-${intent}-form`}>
        <input type="hidden" name="intent" value={intent} />
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={id}>{t("can.file")}</label>
          <input id={id} type="file" name="file" accept={accept} required className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`} />
          <span id={`${id}-hint`} className="text-xs font-normal text-slate-500">
            {hint}
          </span>
        </div>
        <ErrorAlert text={error} id={`${id}-error`} />
        <div>
          <button type="submit" className={buttonClass} disabled={busy}>
            {t("can.upload")}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** An error already in the user's language (with file names and logger words: not an i18n key). */
function ErrorAlert({ text, id }: { text?: string; id?: string }) {
  if (!text) return null;
  return (
    <div id={id} role="alert" className="mx-4 mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 md:mx-0" data-testid="form-error">
      {text}
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.canscanner");
}
