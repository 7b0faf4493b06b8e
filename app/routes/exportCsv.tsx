import { redirect } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { choicesQuery, EXPORT_ERROR_FIELDS, exportSchema, type ExportErrorField } from "~/schemas/export";
import { stateOf } from "~/services/context.server";
import { userTimeZone } from "~/services/zoned.server";
import { attachment, exportBody, exportFileName, measurementComments, metadataComments, withNotes } from "~/services/export.server";
import { exportNotes } from "~/services/annotations.server";
import { requireFeature } from "~/services/guards.server";
import { getMetaData, listMeasurements, loadSources, localText, oldestKept } from "~/services/history.server";
import { getInstance, getLocale } from "~/services/i18n.server";
import { failureOf } from "~/services/submission.server";
import { loadVariables } from "~/services/variables.server";
import { resolveHistoryRange } from "~/ui/history/historyRange";
import type { Route } from "./+types/exportCsv";
import { LOCALE_IDS, type Language } from "~/locales";
import { canonicalQuery } from "~/ui/dateTimeInput";

// The CSV or UDBF download: the logger's stream passed through as it arrives (never buffered), so a
// gigabyte costs the console no memory. A refused export goes back to the form with the
// choices in the URL (plain form post), or answers JSON to the page's script (js=1).

// A GET here is a bookmarked or reloaded download (the form posts): back to the form, with
// whatever choices the address carries, rather than a 405 or a stack trace.
export async function loader({ url }: Route.LoaderArgs) {
  const back = new URLSearchParams(url.search);
  back.delete("js");
  throw redirect(`/export${back.size ? `?${back}` : ""}`);
}

export async function action(args: Route.ActionArgs) {
  await requireFeature(args, "export");
  const { logger } = stateOf(args.context);
  const { t } = getInstance(args.context);
  const form = await args.request.formData();
  const viaScript = form.get("js") === "1";
  // A refusal names the field it concerns (v, interval, range) so the form shows it there.
  const refuse = (text: string, field: ExportErrorField | null = null, status = 400) => {
    if (viaScript) return Response.json({ error: text, field }, { status });
    const back = choicesQuery(form);
    back.set("error", text);
    if (field) back.set("errorField", field);
    return redirect(`/export?${back}`);
  };
  const resampled = form.get("mode") === "resampled";
  // conform's parser: empty fields count as missing, each error keyed by its field.
  const submission = parseWithZod(form, { schema: resampled ? exportSchema : exportSchema.extend({ interval: exportSchema.shape.interval.catch(1) }) });
  if (submission.status !== "success") {
    const [field, messages] = Object.entries(submission.error ?? {}).find(([, m]) => m?.length) ?? ["", ["history.export.noVariables"]];
    return refuse(t(messages![0]!), EXPORT_ERROR_FIELDS.find((f) => f === field) ?? null);
  }
  const c = submission.value;
  // Date-time fields are typed in the user's locale (app/ui/DateTimeField.tsx): read canonically.
  const typed = new URLSearchParams(choicesQuery(form));
  const params = canonicalQuery(typed, LOCALE_IDS[getLocale(args.context) as Language] ?? "en-US") ?? typed;
  const [{ variables, devices }, measurements, zone, sources] = await Promise.all([loadVariables(logger, { stored: true }), listMeasurements(logger), userTimeZone(args), loadSources(logger)]);
  const range = resolveHistoryRange(params, zone, Date.now(), measurements);
  if (range.problem) return refuse(t(range.problem), "range");
  const vars = c.v.map((id) => variables.find((v) => v.Id === id)).filter((v) => v !== undefined).map((v) => ({ ...v, DeviceId: v.DeviceId ?? devices.find((d) => d.Modules.some((m) => m.Variables.includes(v.Id)))?.ID }));
  if (vars.length === 0) return refuse(t("history.export.noVariables"), "v");
  const oldest = oldestKept(vars, sources);
  if (oldest !== null && range.to <= oldest) return refuse(t("history.export.beyondRetention", { oldest: localText(oldest, zone) }), "range");
  const comments = c.meta === "on" ? withNotes(metadataComments(range.measurement ? measurementComments(range.measurement, zone) : [], vars, await getMetaData(logger)), await exportNotes(logger, range, vars)) : [];
  const body = exportBody(c, vars, range, zone, getLocale(args.context), comments, t("history.export.timeHeader"));
  let res: Response;
  try {
    res = await logger.stream("/history/data", "POST", body, args.request.signal);
  } catch (caught) {
    const error = failureOf(caught, t);
    // Too many large reads at the logger just now (its places per user and in all): say when to try again.
    if (error.status === 429) return refuse(t("history.export.busy", { seconds: error.retryAfterSec ?? 5 }), null, 429);
    return refuse(t("history.export.failed", { reason: error.message }), null, error.status);
  }
  const udbf = c.format === "udbf";
  return new Response(res.body, {
    headers: {
      "Content-Type": udbf ? "application/octet-stream" : "text/csv; charset=utf-8",
      // What the page's script counts rows by (Loggia's logger says it; another logger may not).
      ...(udbf ? Object.fromEntries(["X-UDBF-Data-Offset", "X-UDBF-Row-Bytes"].flatMap((h) => (res.headers.get(h) ? [[h, res.headers.get(h)!]] : []))) : {}),
      "Content-Disposition": attachment(exportFileName(c, vars, range, zone, range.measurement)),
      // no-transform keeps the server's gzip off this response: compressing a gigabyte would
      // cost the console a core and its buffers, and the logger sits on the plant's LAN.
      "Cache-Control": "no-store, no-transform",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
