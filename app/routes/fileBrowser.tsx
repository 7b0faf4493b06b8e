import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { data, Link, useSearchParams } from "react-router";
import { folderSchema, parentOf, renameSchema } from "~/schemas/fileBrowser";
import { keptData, stateOf } from "~/services/context.server";
import { isLoggerAway } from "~/services/logger/client.server";
import { filesQuery, loadPreview, type Preview } from "~/services/files.server";
import { readIntent, requireConfirmation } from "~/services/forms.server";
import { redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { fileListAnswer, filePathAnswer, type FileEntry } from "~/services/logger/schemas";
import { isRefusal, refusalOf } from "~/services/submission.server";
import { ConfirmPanel } from "~/ui/ConfirmAction";
import { FilesTable } from "~/ui/fileBrowser/FilesTable";
import { NameForm } from "~/ui/fileBrowser/NameForm";
import { PreviewPane } from "~/ui/fileBrowser/PreviewPane";
import { UploadForm } from "~/ui/fileBrowser/UploadForm";
import { FormErrors } from "~/ui/FormField";
import { listPageClass } from "~/ui/ListPage";
import { Panel } from "~/ui/Panel";
import { sortRows } from "~/ui/SortHeader";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/fileBrowser";

const PATH = "/fileBrowser";

export async function loader(args: Route.LoaderArgs) {
  await requireFeature(args, "fileBrowser");
  const { logger } = stateOf(args.context);
  const path = args.url.searchParams.get("path") ?? "";
  const previewPath = args.url.searchParams.get("preview");
  let entries: FileEntry[] = [];
  let error: string | null = null;
  try {
    entries = (await logger.readFresh("GET", `/files/list?${filesQuery(path)}`, undefined, fileListAnswer)).Data.Entries.filter((e) => !e.Name.startsWith(".upload-"));
  } catch (e) {
    if (!isRefusal(e)) throw e;
    error = e.message;
  }
  return keptData(args.context, { path, entries, error, preview: previewPath ? await previewOrAway(args, previewPath) : null });
}

/** A file's preview; with the logger away beside a kept list, the preview says so instead of the page failing. */
async function previewOrAway(args: Route.LoaderArgs, path: string): Promise<Preview> {
  try {
    return await loadPreview(stateOf(args.context).logger, path);
  } catch (error) {
    if (!isLoggerAway(error)) throw error;
    return { kind: "error", path, message: getInstance(args.context).t("errors.loggerUnavailable") };
  }
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
    const refused = await refusalOf(() => logger.rest("POST", "/files/delete", { Path: entry }, filePathAnswer), t);
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
  const refused = await refusalOf(call, t);
  if (refused) return data({ intent, result: submission.reply({ formErrors: [refused.status === 409 ? t("fileBrowser.exists", { name: submission.value.name }) : refused.message] }) }, { status: 400 });
  const text = intent === "folder" ? t("fileBrowser.folderCreated", { name: submission.value.name }) : t("fileBrowser.renamed", { name: submission.value.name });
  return redirectWithToast(context, back(intent === "folder" ? path : parentOf(entry)), { type: "success", text });
}

export default function FileBrowser({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
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
    <section className={listPageClass}>
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
        <Panel title={t("fileBrowser.renameTitle", { name: renaming.split("/").at(-1) })}>
          <NameForm key={renaming} intent="rename" path={path} entry={renaming} initial={renaming.split("/").at(-1) ?? ""} lastResult={lastResult("rename")} cancelHref={here()} />
        </Panel>
      )}

      <div className="grid gap-4 md:grid-cols-2">
        <Panel title={t("fileBrowser.newFolder")}>
          <NameForm intent="folder" path={path} initial="" lastResult={lastResult("folder")} />
        </Panel>
        <Panel title={t("fileBrowser.upload")}>
          <UploadForm path={path} />
        </Panel>
      </div>

      <FilesTable path={path} entries={shown} here={here} />

      {preview && <PreviewPane preview={preview} closeHref={here()} />}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "fileBrowser.title");
}
