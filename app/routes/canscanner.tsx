import { useT } from "~/ui/useT";
import { data, Form, useNavigation } from "react-router";
import { addVariableForm, CAPTURE_LIMIT, DBC_LIMIT } from "~/schemas/canscanner";
import { keptData, stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { canDatabaseAnswer, canScanAnswer, canSignalsAnswer, canSourceAnswer, canVariableAnswer } from "~/services/logger/canSchemas";
import { emptyAnswer } from "~/services/logger/schemas";
import { failureOf, isRefusal } from "~/services/submission.server";
import { ErrorAlert } from "~/ui/can/ErrorAlert";
import { ScanTable } from "~/ui/can/ScanTable";
import { SignalsTable } from "~/ui/can/SignalsTable";
import { UploadForm } from "~/ui/can/UploadForm";
import { listPageClass } from "~/ui/ListPage";
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
    const [scan, signals] = await Promise.all([logger.readFreshRpc("CANAPI.GetScan", {}, canScanAnswer), logger.readFreshRpc("CANAPI.GetSignals", {}, canSignalsAnswer)]);
    return keptData(args.context, { supported: true as const, scan, signals, canSeeVariables: holds(auth, "UseMetaData") });
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
        } catch (caught) {
          const error = failureOf(caught, t);
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
  } catch (caught) {
    const error = failureOf(caught, t);
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
    <section className={listPageClass}>
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

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.canscanner");
}
