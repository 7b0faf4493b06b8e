import { useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { IMPORT_BODY_LIMIT, importLayout, queryOfLayout, TARGET_NEW } from "~/schemas/import";
import { keptData, stateOf } from "~/services/context.server";
import { holds, requireFeature } from "~/services/guards.server";
import { importSources, previewPath, previewSession } from "~/services/import.server";
import type { FilePreview } from "~/services/logger/importSchemas";
import { isRefusal } from "~/services/submission.server";
import { FileInput } from "~/ui/FileInput";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { CsvChoices } from "~/ui/import/CsvChoices";
import { DataPreview } from "~/ui/import/DataPreview";
import { ImportProgress } from "~/ui/import/ImportProgress";
import { pageTitle } from "~/ui/title";
import { useT } from "~/ui/useT";
import type { Route } from "./+types/import";

// The Import screen (issue 27): upload a CSV or UDBF file into a new or existing source, see
// what the logger understood before anything is stored, then import it. Plain form posts (the
// upload is multipart, streamed through to the logger in parts); with JavaScript the upload and
// the import show their progress. A file of the file browser comes as ?file=<path>.

/** The resource route that takes the upload and the import (app/routes/importSubmit.tsx). */
const SUBMIT = "/import/submit";
const secondary = "rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700";

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "import");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const session = params.get("session");
  const file = params.get("file");
  const layout = importLayout(params);
  const done = params.get("done");
  const base = { error: params.get("error")?.slice(0, 1000) ?? null, canImport: holds(auth, "ManageProject"), name: params.get("name") ?? file?.split("/").at(-1) ?? "" };
  if (done !== null) {
    return { ...base, view: "done" as const, done: { measurement: done, source: params.get("source") ?? "", rows: Number(params.get("rows") ?? 0), title: params.get("title") ?? "", variables: params.getAll("v").slice(0, 4) } };
  }
  if (session || file) {
    let preview: FilePreview | null = null;
    let problem: string | null = null;
    try {
      preview = session ? await previewSession(logger, session, layout) : await previewPath(logger, file!, layout);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      problem = error.message;
    }
    return { ...base, view: "preview" as const, session, file, preview, problem, sources: await importSources(logger), target: params.get("target") ?? TARGET_NEW, sourceName: params.get("sourceName") ?? "", measurementName: params.get("measurementName") ?? "" };
  }
  // The upload form is kept for an outage (its sources as last read); a preview is not.
  return keptData(args.context, { ...base, view: "upload" as const, sources: base.canImport ? await importSources(logger) : [] });
}

export default function Import({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">{t("nav.import")}</h1>
      {loaderData.view === "upload" && <UploadForm sources={loaderData.sources} error={loaderData.error} canImport={loaderData.canImport} />}
      {loaderData.view === "preview" && <PreviewStep data={loaderData} />}
      {loaderData.view === "done" && <Done done={loaderData.done} />}
    </section>
  );
}

function TargetFields({ sources, target = TARGET_NEW, sourceName = "", measurementName = "" }: { sources: { Id: string; Name: string }[]; target?: string; sourceName?: string; measurementName?: string }) {
  const t = useT();
  return (
    <div className="flex flex-wrap items-end gap-4">
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("import.target")}
        <select name="target" defaultValue={target} className={inputClass}>
          <option value={TARGET_NEW}>{t("import.newSource")}</option>
          {sources.map((s) => (
            <option key={s.Id} value={s.Id}>
              {s.Name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("import.sourceName")}
        <input name="sourceName" defaultValue={sourceName} maxLength={200} className={inputClass} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("import.measurementName")}
        <input name="measurementName" defaultValue={measurementName} maxLength={200} className={inputClass} />
      </label>
    </div>
  );
}

/** Step 1: the file and where it goes. Its small fields come first: they reach the server before the file. */
function UploadForm({ sources, error, canImport }: { sources: { Id: string; Name: string }[]; error: string | null; canImport: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (!canImport) return <p role="alert">{t("import.needsManageProject")}</p>;
  const shown = failed ?? error;
  return (
    <form
      method="post"
      action={SUBMIT}
      encType="multipart/form-data"
      className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800"
      data-testid="import-upload"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const file = (form.elements.namedItem("file") as HTMLInputElement).files?.[0];
        if (!file) return setFailed(t("import.errors.no-file"));
        if (file.size > IMPORT_LIMIT_BYTES) return setFailed(t("import.errors.too-large", { gb: 2 }));
        setFailed(null);
        setProgress(0);
        const xhr = new XMLHttpRequest();
        xhr.open("POST", form.action);
        xhr.setRequestHeader("Accept", "application/json");
        xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((100 * e.loaded) / e.total));
        xhr.onload = () => {
          setProgress(null);
          let answer: { error?: string; redirect?: string } = {};
          try {
            answer = JSON.parse(xhr.responseText);
          } catch {
            answer = { error: t("import.errors.upload") };
          }
          if (answer.redirect) return void navigate(answer.redirect);
          setFailed(answer.error ?? t("import.errors.upload"));
        };
        xhr.onerror = () => {
          setProgress(null);
          setFailed(t("import.errors.upload"));
        };
        xhr.send(new FormData(form));
      }}
    >
      <p className="text-sm">{t("import.intro")}</p>
      <TargetFields sources={sources} />
      <FileInput id="import-file" label={t("import.file")} accept=".csv,.txt,.dat,.udbf" hint={t("import.fileHint", { gb: 2 })} error={shown ?? undefined} required />
      {progress !== null && (
        <progress max={100} value={progress} aria-label={t("import.uploading")} className="w-full" data-testid="upload-progress">
          {progress}%
        </progress>
      )}
      <div>
        <button type="submit" className={buttonClass} disabled={progress !== null}>
          {t("import.upload")}
        </button>
      </div>
    </form>
  );
}

const IMPORT_LIMIT_BYTES = IMPORT_BODY_LIMIT;

type PreviewData = Extract<Route.ComponentProps["loaderData"], { view: "preview" }>;

/** Step 2: what the logger understood; the CSV choices; import or cancel. */
function PreviewStep({ data }: { data: PreviewData }) {
  const t = useT();
  const { preview, session, file } = data;
  const hidden = { ...(session ? { session } : {}), ...(file ? { file } : {}), name: data.name };
  return (
    <div className="flex flex-col gap-4">
      <FormErrors errors={data.error ? [data.error] : data.problem ? [t("import.errors.refused", { reason: data.problem })] : undefined} />
      {preview && <DataPreview preview={preview} name={data.name} />}
      {preview?.Type === "csv" && preview.CSVSettings && <CsvChoices layout={preview.CSVSettings} detected={preview.Detected ?? false} hidden={{ ...hidden, target: data.target, sourceName: data.sourceName, measurementName: data.measurementName }} />}
      {preview && data.canImport && (
        <ImportProgress session={session}>
          <Form method="post" action={SUBMIT} className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="import-commit" reloadDocument>
            {Object.entries(hidden).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            {/* The layout shown (chosen, else detected) is the one imported. */}
            {preview.CSVSettings && [...layoutQueryOf(preview)].map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
            <TargetFields sources={data.sources} target={data.target} sourceName={data.sourceName || data.name.replace(/\.[^.]*$/, "")} measurementName={data.measurementName} />
            <div className="flex flex-wrap gap-3">
              <button type="submit" name="intent" value="import" className={buttonClass} disabled={preview.Rows === 0}>
                {t("import.import")}
              </button>
              {session && (
                <button type="submit" name="intent" value="cancel" className={secondary}>
                  {t("import.cancel")}
                </button>
              )}
            </div>
          </Form>
        </ImportProgress>
      )}
      {!data.canImport && <p role="alert">{t("import.needsManageProject")}</p>}
      {!preview && (
        <Link to="/import" className="text-brand hover:underline">
          {t("import.again")}
        </Link>
      )}
    </div>
  );
}

const layoutQueryOf = (p: FilePreview) => queryOfLayout(p.CSVSettings!);

function Done({ done }: { done: { measurement: string; source: string; rows: number; title: string; variables: string[] } }) {
  const t = useT();
  const vars = new URLSearchParams(done.variables.map((v) => ["v", v]));
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="import-done" role="status">
      <p>{t("import.done", { name: done.title, rows: done.rows })}</p>
      <div className="flex flex-wrap gap-3">
        <Link to={`/measurementUI?${new URLSearchParams({ id: done.measurement })}`} className={buttonClass}>
          {t("import.openMeasurement")}
        </Link>
        <Link to={`/analytics?${vars}&span=measurement&m=${encodeURIComponent(done.measurement)}`} className={secondary}>
          {t("import.openAnalytics")}
        </Link>
        <Link to="/import" className={secondary}>
          {t("import.another")}
        </Link>
      </div>
    </div>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.import");
}
