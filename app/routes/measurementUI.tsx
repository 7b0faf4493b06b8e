import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useT } from "~/ui/useT";
import { DateTimeField } from "~/ui/DateTimeField";
import { data, Form, Link, useSearchParams } from "react-router";
import { z } from "zod";
import { metaEntrySchema } from "~/schemas/metadata";
import { keptData, stateOf } from "~/services/context.server";
import { userTimeZone } from "~/services/zoned.server";
import { readIntent, requireConfirmation } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { deleteMeasurement, getMetaKeys, listMeasurements, setMeasurementMetaData } from "~/services/history.server";
import { getInstance } from "~/services/i18n.server";
import { sourcesAnswer } from "~/services/logger/schemas";
import { failureOf } from "~/services/submission.server";
import { loadVariables } from "~/services/variables.server";
import { ConfirmAction, ConfirmPanel } from "~/ui/ConfirmAction";
import { parseInstant, toLocalInput } from "~/ui/dashboard/timeRange";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { MetaDataEditor } from "~/ui/history/MetaDataEditor";
import { sortRows } from "~/ui/SortHeader";
import { pageTitle } from "~/ui/title";
import { listPageClass } from "~/ui/ListPage";
import { DataTable, Row as TableRow } from "~/ui/DataTable";
import type { Route } from "./+types/measurementUI";

const PAGE_SIZE = 25;
const filterSchema = z.object({
  q: z.string().max(200).catch(""),
  key: z.string().max(64).catch(""),
  value: z.string().max(1000).catch(""),
  page: z.coerce.number().int().min(1).catch(1),
});

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "measurementUI");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const zone = await userTimeZone(args);
  const f = filterSchema.parse({ q: params.get("q") ?? "", key: params.get("key") ?? "", value: params.get("value") ?? "", page: params.get("page") ?? 1 });
  const from = parseInstant(params.get("from"), zone) ?? undefined;
  const to = parseInstant(params.get("to"), zone) ?? undefined;
  const meta = { key: f.key.trim(), value: f.value };
  const [all, { Data: sources }, keys] = await Promise.all([
    listMeasurements(logger, { from, to, meta }),
    logger.readFresh("GET", "/history/structure/sources", undefined, sourcesAnswer),
    // Keys of measurements, variables and devices alike; the filter works without the suggestions.
    getMetaKeys(logger).catch(() => [] as string[]),
  ]);
  const now = Date.now();
  const source = (id: string | undefined) => sources.find((s) => s.Id === id);
  const rows = all.map((m) => {
    const rate = source(m.SourceId)?.SampleRateHz ?? 0;
    const duration = ((m.end ?? now) - m.start) / 1000;
    // float32 samples: what the measurement occupies in the store, before rollups.
    return { ...m, sourceName: source(m.SourceId)?.Name ?? m.SourceId ?? "", rate, duration, bytes: Math.round(duration * rate * m.Variables.length * 4) };
  });
  const lower = (s: string) => s.toLowerCase();
  // Metadata is matched by the logger (listMeasurements above); the name here.
  const matching = rows.filter((m) => !f.q || lower(m.Name).includes(lower(f.q)));
  const sorted = sortRows(matching, params, { name: (m) => m.Name, source: (m) => m.sourceName, start: (m) => m.start, end: (m) => m.end ?? now, duration: (m) => m.duration, rate: (m) => m.rate, variables: (m) => m.Variables.length, size: (m) => m.bytes }, "start");
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(f.page, pages);
  const id = params.get("id");
  const selected = id ? (rows.find((m) => m.ID === id) ?? (await listMeasurements(logger)).find((m) => m.ID === id) ?? null) : null;
  const variables = selected ? (await loadVariables(logger, { stored: true })).variables.filter((v) => selected.Variables.includes(v.Id)) : [];
  return keptData(args.context, {
    rows: sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    total: sorted.length,
    page,
    pages,
    zone,
    keys: [...new Set([...keys, ...all.flatMap((m) => m.MetaData.map((e) => e.Key))])].sort(),
    detail: id ? { measurement: selected, variables: variables.map((v) => ({ Id: v.Id, Name: v.Name, Unit: v.Unit, deviceName: v.deviceName })) } : null,
    removing: all.find((m) => m.ID === params.get("remove")) ?? null,
    canManage: holds(auth, "ManageProject"),
    canExport: holds(auth, "UseExport"),
  });
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "measurementUI");
  requirePermission(auth, "ManageProject");
  const { t } = getInstance(args.context);
  const { logger } = stateOf(args.context);
  const formData = await args.request.formData();
  const intent = readIntent(formData, ["remove", "meta"] as const);
  const id = z.string().min(1).max(64).safeParse(formData.get("id"));
  if (!id.success) throw data({ reason: "bad-request" }, { status: 400 });
  const back = new URLSearchParams(args.url.search);
  back.delete("remove");
  if (intent === "remove") {
    requireConfirmation(formData);
    const name = String(formData.get("name") ?? "");
    try {
      await deleteMeasurement(logger, id.data);
    } catch (caught) {
      const error = failureOf(caught, t);
      return data({ removeError: error.message, result: undefined }, { status: error.status });
    }
    back.delete("id");
    return redirectWithToast(args.context, `/measurementUI?${back}`, { type: "success", text: t("history.measurements.deleted", { name }) });
  }
  const submission = parseWithZod(formData, { schema: metaEntrySchema });
  if (submission.status !== "success") return data({ removeError: null, result: submission.reply() }, { status: 400 });
  const entry = submission.value;
  try {
    await setMeasurementMetaData(logger, id.data, [{ Key: entry.key, Value: entry.value }]);
  } catch (caught) {
    const error = failureOf(caught, t);
    return data({ removeError: null, result: submission.reply({ formErrors: [error.message] }) }, { status: error.status });
  }
  const text = entry.value ? t("history.metadata.saved") : t("history.metadata.removed", { key: entry.key });
  return redirectWithToast(args.context, `/measurementUI?${back}`, { type: "success", text });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

export default function MeasurementExplorer({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { rows, page, pages, total, detail, removing, zone } = loaderData;
  const href = (change: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    return `?${next}`;
  };
  const listHref = href((p) => (p.delete("remove"), p.delete("id")));
  return (
    <section className={listPageClass}>
      <h1 className="text-2xl font-semibold">{t("nav.measurementUI")}</h1>
      {removing && (
        <ConfirmPanel
          title={t("history.measurements.deleteTitle", { name: removing.Name })}
          message={t("history.measurements.deleteText")}
          confirmLabel={t("history.measurements.delete")}
          fields={{ intent: "remove", id: removing.ID, name: removing.Name }}
          cancelHref={href((p) => p.delete("remove"))}
        />
      )}
      {detail && (
        <Details detail={detail} keys={loaderData.keys} canManage={loaderData.canManage} canExport={loaderData.canExport} listHref={listHref} lastResult={actionData?.result} removeError={actionData?.removeError ?? null} removeHref={href((p) => p.set("remove", detail.measurement?.ID ?? ""))} />
      )}
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label={t("history.measurements.filter")}>
        {["sort", "dir"].map((k) => params.get(k) && <input key={k} type="hidden" name={k} value={params.get(k)!} />)}
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("history.measurements.name")}
          <input type="search" name="q" defaultValue={params.get("q") ?? ""} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("history.measurements.metaKey")}
          <input name="key" list="meta-keys" defaultValue={params.get("key") ?? ""} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("history.measurements.metaValue")}
          <input name="value" defaultValue={params.get("value") ?? ""} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("history.measurements.from")}
          <DateTimeField name="from" label={t("history.measurements.from")} value={localValue(params.get("from"), zone) || (params.get("from") ?? "")} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("history.measurements.to")}
          <DateTimeField name="to" label={t("history.measurements.to")} value={localValue(params.get("to"), zone) || (params.get("to") ?? "")} />
        </label>
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
          {t("history.measurements.apply")}
        </button>
        <span className="ml-auto text-sm text-slate-500">{t("history.measurements.count", { count: total })}</span>
        <datalist id="meta-keys">
          {loaderData.keys.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
      </Form>
      <p className="-mt-2 text-xs text-slate-500">{t("history.measurements.metaHint")}</p>
      <DataTable
        label={t("nav.measurementUI")}
        testId="measurements-table"
        columns={[...(["name", "source", "start", "end", "duration", "rate", "variables", "size"] as const).map((c) => ({ label: t(`history.measurements.columns.${c}`), sort: c })), { label: t("common.actions") }]}
        empty={rows.length === 0 ? t("history.measurements.empty") : undefined}
      >
        {rows.map((m) => (
          <MeasurementLine key={m.ID} m={m} detailHref={href((p) => (p.set("id", m.ID), p.delete("remove")))} />
        ))}
      </DataTable>
      {pages > 1 && (
        <nav aria-label={t("live.pages")} className="flex items-center gap-3 text-sm">
          {page > 1 && <Link to={href((p) => p.set("page", String(page - 1)))}>{t("history.measurements.previous")}</Link>}
          <span>{t("history.measurements.pageOf", { page, pages })}</span>
          {page < pages && <Link to={href((p) => p.set("page", String(page + 1)))}>{t("history.measurements.next")}</Link>}
        </nav>
      )}
    </section>
  );
}

function localValue(text: string | null, zone: string) {
  const ms = parseInstant(text, zone);
  return ms === null ? "" : toLocalInput(ms, zone);
}

function MeasurementLine({ m, detailHref }: { m: Row; detailHref: string }) {
  const t = useT();
  const fmt = useFormatters();
  return (
    <TableRow data-measurement={m.Name}>
      <td className="px-4 py-2 font-medium">
        {m.Name}
        {m.MatchedOn && m.MatchedOn.length > 0 && (
          <span className="ml-2 text-xs font-normal text-slate-500" data-testid="matched-on">
            {t("history.measurements.matchedOn", { scopes: m.MatchedOn.map((s) => t(`history.measurements.scopes.${s}`)).join(", ") })}
          </span>
        )}
      </td>
      <td className="px-4 py-2">{m.sourceName}</td>
      <td className="px-4 py-2 whitespace-nowrap">{fmt.dateTime(m.start)}</td>
      <td className="px-4 py-2 whitespace-nowrap">{m.end === null ? t("history.measurements.running") : fmt.dateTime(m.end)}</td>
      <td className="px-4 py-2 text-right tabular-nums">{duration(m.duration)}</td>
      <td className="px-4 py-2 text-right tabular-nums">{fmt.number(m.rate)} Hz</td>
      <td className="px-4 py-2 text-right tabular-nums">{m.Variables.length}</td>
      <td className="px-4 py-2 text-right tabular-nums">{bytes(m.bytes, fmt.number)}</td>
      <td className="px-4 py-2">
        <Link to={detailHref} className="text-brand hover:underline">
          {t("history.measurements.details")}
        </Link>
      </td>
    </TableRow>
  );
}

function Details({ detail, keys, canManage, canExport, listHref, removeHref, lastResult, removeError }: { detail: NonNullable<Route.ComponentProps["loaderData"]["detail"]>; keys: string[]; canManage: boolean; canExport: boolean; listHref: string; removeHref: string; lastResult?: SubmissionResult<string[]>; removeError: string | null }) {
  const t = useT();
  const fmt = useFormatters();
  const m = detail.measurement;
  if (!m) return <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">{t("history.measurements.notFound")}</p>;
  const vars = new URLSearchParams(m.Variables.slice(0, 4).map((id) => ["v", id]));
  const analytics = `/analytics?${vars}&span=measurement&m=${encodeURIComponent(m.ID)}`;
  const exportHref = `/export?${new URLSearchParams(m.Variables.map((id) => ["v", id]))}&span=measurement&m=${encodeURIComponent(m.ID)}`;
  return (
    <article className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="measurement-details">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-semibold">{m.Name}</h2>
        <Link to={listHref} className="text-sm text-brand hover:underline">
          {t("history.measurements.back")}
        </Link>
      </div>
      <p className="text-sm">
        {fmt.dateTime(m.start)} – {m.end === null ? t("history.measurements.running") : fmt.dateTime(m.end)}
      </p>
      <div className="flex flex-wrap gap-3">
        <Link to={analytics} className={buttonClass}>
          {t("history.measurements.openAnalytics")}
        </Link>
        <Link to={exportHref} className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
          {t("history.measurements.export")}
        </Link>
        {/* The whole measurement as a UDBF file, through the Export screen's streaming download. */}
        {canExport && (
        <Form method="post" action="/export/csv" reloadDocument>
          {m.Variables.map((id) => (
            <input key={id} type="hidden" name="v" value={id} />
          ))}
          {Object.entries({ span: "measurement", m: m.ID, mode: "raw", interval: "1", format: "udbf" }).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
            {t("history.measurements.downloadUdbf")}
          </button>
        </Form>
        )}
        {canManage && (
          <ConfirmAction
            label={t("history.measurements.delete")}
            title={t("history.measurements.deleteTitle", { name: m.Name })}
            message={t("history.measurements.deleteText")}
            confirmLabel={t("history.measurements.delete")}
            confirmHref={removeHref}
            cancelHref={listHref}
            fields={{ intent: "remove", id: m.ID, name: m.Name }}
            className="self-center text-red-700 hover:underline dark:text-red-400"
          />
        )}
      </div>
      <FormErrors errors={removeError ? [removeError] : undefined} />
      <h3 className="font-semibold">{t("history.variables.label")}</h3>
      <ul className="flex flex-wrap gap-x-4 text-sm">
        {detail.variables.map((v) => (
          <li key={v.Id}>
            {v.Name}
            {v.Unit ? ` [${v.Unit}]` : ""}
          </li>
        ))}
      </ul>
      <h3 className="font-semibold">{t("history.measurements.metadata")}</h3>
      <MetaDataEditor entries={m.MetaData} keys={keys} canEdit={canManage} hidden={{ id: m.ID }} lastResult={lastResult} />
    </article>
  );
}

function duration(sec: number) {
  const s = Math.round(sec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

function bytes(n: number, number: (v: number, d?: number) => string) {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) (v /= 1000), i++;
  return `${number(v, i ? 1 : 0)} ${units[i]}`;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.measurementUI");
}
