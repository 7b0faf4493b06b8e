import { stateOf } from "~/services/context.server";
import { filesQuery } from "~/services/files.server";
import { flashToast, redirectWithToast, requireFeature } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { filePathAnswer } from "~/services/logger/schemas";
import { failureOf } from "~/services/submission.server";
import { UPLOAD_LIMIT } from "~/schemas/fileBrowser";
import type { Route } from "./+types/fileBrowserUpload";

// Room for the multipart framing around the file itself.
const FRAMING = 64 * 1024;

/**
 * The file browser's upload: a plain multipart POST (redirect with a toast) or, from the page's
 * script, the same POST asking for JSON so it can show the upload's progress.
 */
export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "fileBrowser");
  const { context, request } = args;
  const { t } = getInstance(context);
  const wantsJson = request.headers.get("Accept")?.includes("application/json") ?? false;
  let path = "";
  const answer = (ok: boolean, text: string, status = ok ? 200 : 400) => {
    if (wantsJson) {
      if (ok) flashToast(context, { type: "success", text });
      return Response.json(ok ? { ok } : { error: text }, { status });
    }
    return redirectWithToast(context, `/fileBrowser?${new URLSearchParams({ path })}`, { type: ok ? "success" : "error", text });
  };
  const tooLarge = t("fileBrowser.validation.tooLarge", { mb: UPLOAD_LIMIT / 1024 / 1024 });
  if (Number(request.headers.get("Content-Length") ?? 0) > UPLOAD_LIMIT + FRAMING) return answer(false, tooLarge, 413);
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return answer(false, t("fileBrowser.uploadFailed"));
  }
  path = String(formData.get("path") ?? "");
  const file = formData.get("file");
  if (!(file instanceof File) || file.name === "") return answer(false, t("fileBrowser.validation.fileRequired"));
  if (file.size > UPLOAD_LIMIT) return answer(false, tooLarge, 413);
  try {
    const done = await stateOf(context).logger.upload(
      `/files/upload?${filesQuery(path)}&Name=${encodeURIComponent(file.name)}`,
      new Uint8Array(await file.arrayBuffer()),
      filePathAnswer,
    );
    return answer(true, t("fileBrowser.uploaded", { name: done.Data.Path.split("/").at(-1) }));
  } catch (caught) {
    const error = failureOf(caught, t);
    return answer(false, error.status === 409 ? t("fileBrowser.exists", { name: file.name }) : error.message, error.status);
  }
}
