import { redirect } from "react-router";
import { z } from "zod";
import { importLayout, layoutQuery, TARGET_NEW, type ImportChoices } from "~/schemas/import";
import { stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { cancelSession, commitSession, openFileSession, stageUpload, UploadRefused, IMPORT_LIMIT } from "~/services/import.server";
import { isRefusal } from "~/services/submission.server";
import type { Route } from "./+types/importSubmit";

// The Import screen's writes (app/routes/import.tsx): the multipart upload, which streams to a
// staged logger session, and the import or cancel of a previewed file. Plain form posts get a
// redirect; the page's script asks for JSON ({redirect} or {error}) to show its progress.

export async function loader() {
  throw redirect("/import");
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "import");
  // Writing measurements: the logger asks ManageProject of an import, so does the console.
  requirePermission(auth, "ManageProject");
  const { logger } = stateOf(args.context);
  const { t } = getInstance(args.context);
  const json = args.request.headers.get("Accept")?.includes("application/json") ?? false;
  const go = (to: string) => (json ? Response.json({ redirect: to }) : redirect(to));
  const type = args.request.headers.get("Content-Type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    // The upload: the file streams to a staged session; nothing is stored yet.
    const back = (error: string, status = 400) => (json ? Response.json({ error }, { status }) : redirect(`/import?${new URLSearchParams({ error })}`));
    try {
      const staged = await stageUpload(logger, args.request, (fields, fileName) => (fields.sourceName || fileName.replace(/\.[^.]*$/, "")).slice(0, 200));
      const q = new URLSearchParams({ session: staged.session, name: staged.name, target: staged.fields.target ?? TARGET_NEW, sourceName: staged.fields.sourceName ?? "", measurementName: staged.fields.measurementName ?? "" });
      return go(`/import?${q}`);
    } catch (error) {
      if (error instanceof UploadRefused) return back(t(`import.errors.${error.message}`, { gb: IMPORT_LIMIT / 1024 ** 3 }), error.status);
      if (isRefusal(error)) return back(t("import.errors.refused", { reason: error.message }), error.status);
      throw error;
    }
  }
  const form = await args.request.formData();
  const intent = readIntent(form, ["import", "cancel"] as const);
  const session = z.string().min(1).max(64).optional().catch(undefined).parse(form.get("session") || undefined);
  const file = z.string().min(1).max(2048).optional().catch(undefined).parse(form.get("file") || undefined);
  if (intent === "cancel") {
    if (session) await cancelSession(logger, session).catch((error: unknown) => (isRefusal(error) ? undefined : Promise.reject(error)));
    return go("/import");
  }
  const choices = choicesOf(form);
  const here = new URLSearchParams({ ...(session ? { session } : {}), ...(file ? { file } : {}), name: String(form.get("name") ?? ""), target: choices.target, sourceName: choices.sourceName, measurementName: choices.measurementName });
  for (const [k, v] of layoutQuery(form)) here.set(k, v);
  const existing = choices.target !== TARGET_NEW ? choices.target : undefined;
  const target = { ...(existing ? { SourceID: existing } : {}), SourceName: choices.sourceName || String(form.get("name") ?? "").replace(/\.[^.]*$/, "") || t("import.defaultSource"), ...(choices.measurementName ? { MeasurementName: choices.measurementName } : {}) };
  try {
    if (!session && !file) throw new UploadRefused("no-file");
    const id = session ?? (await openFileSession(logger, file!, target));
    const done = await commitSession(logger, id, target, importLayout(new URLSearchParams(layoutQuery(form))));
    if (!done.MeasurementId) return go("/import");
    const q = new URLSearchParams({ done: done.MeasurementId, source: done.SourceId, rows: String(done.Rows), title: done.Name ?? "" });
    for (const v of done.Variables ?? []) q.append("v", v.Id);
    return go(`/import?${q}`);
  } catch (error) {
    if (!isRefusal(error) && !(error instanceof UploadRefused)) throw error;
    // The session ends with a refused import (nothing stored): the file has to be chosen again.
    const text = error instanceof UploadRefused ? t(`import.errors.${error.message}`) : t("import.errors.refused", { reason: error.message });
    if (json) return Response.json({ error: text }, { status: isRefusal(error) ? error.status : 400 });
    if (session) return redirect(`/import?${new URLSearchParams({ error: text })}`);
    here.set("error", text);
    return redirect(`/import?${here}`);
  }
}

function choicesOf(form: FormData): ImportChoices {
  const text = (name: string, max: number) => String(form.get(name) ?? "").trim().slice(0, max);
  return { target: text("target", 128) || TARGET_NEW, sourceName: text("sourceName", 200), measurementName: text("measurementName", 200) };
}


