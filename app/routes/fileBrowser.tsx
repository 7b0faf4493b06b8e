import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useT } from "~/ui/useT";
import { data, Form, Link, useNavigation, useRevalidator, useSearchParams } from "react-router";
import { folderSchema, joinPath, parentOf, renameSchema, UPLOAD_LIMIT } from "~/schemas/fileBrowser";
import { stateOf } from "~/services/context.server";
import { filesQuery, loadPreview, type Preview } from "~/services/files.server";
import { readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { fileListAnswer, filePathAnswer, type FileEntry } from "~/services/logger/schemas";
import { isRefusal, refusalOf } from "~/services/submission.server";
import { ConfirmAction, ConfirmPanel } from "~/ui/ConfirmAction";
import { buttonClass, FormErrors, FormField, inputClass } from "~/ui/FormField";
import { FormActions } from "~/ui/FormActions";
import { useFormatters } from "~/ui/format";
import { SortHeader, sortRows } from "~/ui/SortHeader";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/fileBrowser";

const PATH = "/fileBrowser";
const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "fileBrowser");
  const { logger } = stateOf(args.context);
  const path = args.url.searchParams.get("path") ?? "";
  const previewPath = args.url.searchParams.get("preview");
  let entries: FileEntry[] = [];
  let error: string | null = null;
  try {
    entries = (await logger.rest("GET", `/files/list?${filesQuery(path)}`, undefined, fileListAnswer)).Data.Entries.filter((e) => !e.Name.startsWith(".upload-"));
  } catch (e) {
    if (!isRefusal(e)) throw e;
    error = e.message;
  }
  const preview: Preview | null = previewPath ? await loadPreview(logger, previewPath) : null;
  return { path, entries, error, preview };
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "fileBrowser");
  const { context } = args;
  const { t } = getInstance(context);
  const { logger } = stateOf(context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, ["folder", "rename", "remove"] as const);
  const path = String(formData.get("path") ?? "");
  const back = (dir: string) => `${PATH}?${new URLSearchParams({ path: dir })}`;
  if (intent === "remove") {
    requireConfirmation(formData);
    const entry = String(formData.get("entry") ?? "");
    const refused = await refusalOf(() => logger.rest("POST", "/files/delete", { Path: entry }, filePathAnswer));
    if (refused) return redirectWithToast(context, back(parentOf(entry)), { type: "error", text: refused.message });
    return redirectWithToast(context, back(parentOf(entry)), { type: "success", text: t("fileBrowser.removed", { name: entry.split("/").at(-1) }) });
  }
  const submission = parseWithZod(formData, { schema: intent === "folder" ? folderSchema : renameSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const entry = String(formData.get("entry") ?? "");
  const call =
    intent === "folder"
      ? () => logger.rest("POST", "/files/folder", { Path: path, Name: submission.value.name }, filePathAnswer)
      : () => logger.rest("POST", "/files/rename", { Path: entry, Name: submission.value.name }, filePathAnswer);
  const refused = await refusalOf(call);
  if (refused) return data({ intent, result: submission.reply({ formErrors: [refused.status === 409 ? t("fileBrowser.exists", { name: submission.value.name }) : refused.message] }) }, { status: 400 });
  const text = intent === "folder" ? t("fileBrowser.folderCreated", { name: submission.value.name }) : t("fileBrowser.renamed", { name: submission.value.name });
  return redirectWithToast(context, back(intent === "folder" ? path : parentOf(entry)), { type: "success", text });
}

export default function FileBrowser({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { dateTime, number } = useFormatters();
  const [params] = useSearchParams();
  const { path, entries, error, preview } = loaderData;
  const shown = sortRows(
    // Folders first whatever the column: the usual file manager order.
    entries,
    params,
    { name: (e) => `${e.Type === "folder" ? 0 : 1}${e.Name}`, size: (e) => e.Size, modified: (e) => e.Modified, type: (e) => e.Type },
    "name",
  );
  const here = (extra: Record<string, string> = {}) => `?${new URLSearchParams({ path, ...extra })}`;
  const renaming = params.get("rename");
  const removing = params.get("remove");
  const lastResult = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const crumbs = path ? path.split("/") : [];

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">{t("fileBrowser.title")}</h1>
      <nav aria-label={t("fileBrowser.breadcrumbs")} data-testid="breadcrumbs">
        <ol className="flex flex-wrap items-center gap-1 text-sm">
          <li>
            <Link to="?path=" className="text-brand hover:underline">
              {t("fileBrowser.root")}
            </Link>
          </li>
          {crumbs.map((c, i) => (
            <li key={i} className="flex items-center gap-1">
              <span aria-hidden="true">/</span>
              <Link to={`?${new URLSearchParams({ path: crumbs.slice(0, i + 1).join("/") })}`} className="text-brand hover:underline" aria-current={i === crumbs.length - 1 ? "page" : undefined}>
                {c}
              </Link>
            </li>
          ))}
        </ol>
      </nav>
      <FormErrors errors={error ? [error] : undefined} />

      {removing && (
        <ConfirmPanel
          title={t("fileBrowser.removeTitle", { name: removing.split("/").at(-1) })}
          message={t("fileBrowser.removeMessage", { name: removing })}
          confirmLabel={t("fileBrowser.removeConfirm")}
          fields={{ intent: "remove", entry: removing, path }}
          cancelHref={here()}
        />
      )}
      {renaming && (
        <section className={cardClass} aria-label={t("fileBrowser.renameTitle", { name: renaming.split("/").at(-1) })}>
          <h2 className="mb-4 text-lg font-semibold">{t("fileBrowser.renameTitle", { name: renaming.split("/").at(-1) })}</h2>
          <NameForm key={renaming} intent="rename" path={path} entry={renaming} initial={renaming.split("/").at(-1) ?? ""} lastResult={lastResult("rename")} cancelHref={here()} />
        </section>
      )}

      <div className="grid gap-4 md:grid-cols-2">
        <section className={cardClass} aria-label={t("fileBrowser.newFolder")}>
          <h2 className="mb-4 text-lg font-semibold">{t("fileBrowser.newFolder")}</h2>
          <NameForm intent="folder" path={path} initial="" lastResult={lastResult("folder")} />
        </section>
        <section className={cardClass} aria-label={t("fileBrowser.upload")}>
          <h2 className="mb-4 text-lg font-semibold">{t("fileBrowser.upload")}</h2>
          <UploadForm path={path} />
        </section>
      </div>

      <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
        <table className="w-full text-left text-sm" data-testid="files-table">
          <thead className="bg-slate-100 dark:bg-slate-700">
            <tr>
              <SortHeader column="name" label={t("fileBrowser.columns.name")} />
              <SortHeader column="type" label={t("fileBrowser.columns.type")} />
              <SortHeader column="size" label={t("fileBrowser.columns.size")} />
              <SortHeader column="modified" label={t("fileBrowser.columns.modified")} />
              <th scope="col" className="px-4 py-2">
                <span className="sr-only">{t("fileBrowser.columns.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {path && (
              <tr className="border-t border-slate-100 dark:border-slate-700">
                <td className="px-4 py-2" colSpan={5}>
                  <Link to={`?${new URLSearchParams({ path: parentOf(path) })}`} className="text-brand hover:underline">
                    {t("fileBrowser.up")}
                  </Link>
                </td>
              </tr>
            )}
            {shown.length === 0 && (
              <tr>
                <td colSpan={5} className="px-4 py-6 text-center text-slate-500">
                  {t("fileBrowser.empty")}
                </td>
              </tr>
            )}
            {shown.map((e) => {
              const full = joinPath(path, e.Name);
              return (
                <tr key={e.Name} className="border-t border-slate-100 dark:border-slate-700" data-entry={e.Name}>
                  <td className="px-4 py-2 font-medium">
                    {e.Type === "folder" ? (
                      <Link to={`?${new URLSearchParams({ path: full })}`} className="text-brand hover:underline">
                        📁 {e.Name}
                      </Link>
                    ) : e.Type === "file" ? (
                      <Link to={here({ preview: full })} className="hover:underline" preventScrollReset>
                        {e.Name}
                      </Link>
                    ) : (
                      e.Name
                    )}
                  </td>
                  <td className="px-4 py-2">{t(`fileBrowser.types.${e.Type}`)}</td>
                  <td className="px-4 py-2">{e.Type === "file" ? formatSize(e.Size, number) : "—"}</td>
                  <td className="px-4 py-2">{dateTime(e.Modified)}</td>
                  <td className="px-4 py-2">
                    <div className="flex flex-wrap justify-end gap-3">
                      {e.Type === "file" && (
                        <a href={`${PATH}/raw?${new URLSearchParams({ path: full, download: "1" })}`} className="text-brand hover:underline" download>
                          {t("fileBrowser.download")}
                        </a>
                      )}
                      <Link to={here({ rename: full })} className="text-brand hover:underline" preventScrollReset>
                        {t("fileBrowser.rename")}
                      </Link>
                      <ConfirmAction
                        label={t("common.remove")}
                        title={t("fileBrowser.removeTitle", { name: e.Name })}
                        message={t("fileBrowser.removeMessage", { name: full })}
                        confirmLabel={t("fileBrowser.removeConfirm")}
                        confirmHref={here({ remove: full })}
                        cancelHref={here()}
                        fields={{ intent: "remove", entry: full, path }}
                      />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      {preview && <PreviewPane preview={preview} closeHref={here()} />}
    </section>
  );
}

function NameForm({ intent, path, entry, initial, lastResult, cancelHref }: { intent: "folder" | "rename"; path: string; entry?: string; initial: string; lastResult?: SubmissionResult<string[]>; cancelHref?: string }) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { name: initial },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: intent === "folder" ? folderSchema : renameSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="path" value={path} />
      {entry !== undefined && <input type="hidden" name="entry" value={entry} />}
      <FormErrors errors={form.errors} id={form.errorId} />
      <FormField id={fields.name.id} label={t(intent === "folder" ? "fileBrowser.folderName" : "fileBrowser.newName")} errors={fields.name.errors} errorId={fields.name.errorId}>
        <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={inputClass} maxLength={255} />
      </FormField>
      {cancelHref ? (
        <FormActions submitLabel={t("fileBrowser.rename")} cancelHref={cancelHref} />
      ) : (
        <div>
          <button type="submit" className={buttonClass} disabled={busy}>
            {t("fileBrowser.create")}
          </button>
        </div>
      )}
    </Form>
  );
}

/** A plain multipart form; with JavaScript the same request goes by XHR to show its progress. */
function UploadForm({ path }: { path: string }) {
  const t = useT();
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      method="post"
      action={`${PATH}/upload`}
      encType="multipart/form-data"
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const file = (form.elements.namedItem("file") as HTMLInputElement).files?.[0];
        if (!file) return setError(t("fileBrowser.validation.fileRequired"));
        if (file.size > UPLOAD_LIMIT) return setError(t("fileBrowser.validation.tooLarge", { mb: UPLOAD_LIMIT / 1024 / 1024 }));
        setError(null);
        setProgress(0);
        const xhr = new XMLHttpRequest();
        xhr.open("POST", form.action);
        xhr.setRequestHeader("Accept", "application/json");
        xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((100 * e.loaded) / e.total));
        xhr.onload = () => {
          setProgress(null);
          let answer: { error?: string } = {};
          try {
            answer = JSON.parse(xhr.responseText);
          } catch {
            answer = { error: t("fileBrowser.uploadFailed") };
          }
          if (xhr.status >= 400 || answer.error) return setError(answer.error ?? t("fileBrowser.uploadFailed"));
          form.reset();
          void revalidator.revalidate();
        };
        xhr.onerror = () => {
          setProgress(null);
          setError(t("fileBrowser.uploadFailed"));
        };
        xhr.send(new FormData(form));
      }}
    >
      <input type="hidden" name="path" value={path} />
      <FormErrors errors={error ? [error] : undefined} />
      <FormField id="upload-file" label={t("fileBrowser.file")} hint={t("fileBrowser.limit", { mb: UPLOAD_LIMIT / 1024 / 1024 })}>
        <input id="upload-file" type="file" name="file" required className={inputClass} />
      </FormField>
      {progress !== null && (
        <progress max={100} value={progress} aria-label={t("fileBrowser.progress")} className="w-full">
          {progress}%
        </progress>
      )}
      <div>
        <button type="submit" className={buttonClass} disabled={progress !== null}>
          {t("fileBrowser.uploadButton")}
        </button>
      </div>
    </form>
  );
}

function PreviewPane({ preview, closeHref }: { preview: Preview; closeHref: string }) {
  const t = useT();
  const name = preview.path.split("/").at(-1);
  const raw = `${PATH}/raw?${new URLSearchParams({ path: preview.path })}`;
  return (
    <section className={cardClass} aria-label={t("fileBrowser.previewOf", { name })} data-testid="preview">
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 className="text-lg font-semibold">{t("fileBrowser.previewOf", { name })}</h2>
        <Link to={closeHref} className="text-brand hover:underline" preventScrollReset>
          {t("fileBrowser.closePreview")}
        </Link>
      </div>
      {preview.kind === "image" && <img src={raw} alt={name} className="max-h-[32rem] max-w-full" />}
      {preview.kind === "text" && <pre className="max-h-[32rem] overflow-auto rounded bg-slate-100 p-3 text-xs dark:bg-slate-900">{preview.text}</pre>}
      {preview.kind === "csv" && (
        <div className="max-h-[32rem] overflow-auto">
          <table className="text-left text-xs" data-testid="csv-preview">
            <tbody>
              {preview.rows.map((row, i) => (
                <tr key={i} className={i === 0 ? "bg-slate-100 font-semibold dark:bg-slate-700" : "border-t border-slate-100 dark:border-slate-700"}>
                  {row.map((cell, j) => (
                    <td key={j} className="px-2 py-1">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(preview.kind === "text" || preview.kind === "csv") && preview.truncated && <p className="mt-2 text-sm text-slate-500">{t("fileBrowser.truncated")}</p>}
      {preview.kind === "none" && <p>{t("fileBrowser.noPreview")}</p>}
      {preview.kind === "error" && <FormErrors errors={[preview.message]} />}
    </section>
  );
}

function formatSize(bytes: number, number: (n: number, digits?: number) => string) {
  if (bytes < 1024) return `${number(bytes)} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024, 1)} KB`;
  return `${number(bytes / 1024 / 1024, 1)} MB`;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "fileBrowser.title");
}
