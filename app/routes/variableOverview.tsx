import { Fragment, useMemo } from "react";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import { z } from "zod";
import { stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance, getLocale } from "~/services/i18n.server";
import { LOCALE_IDS, type Language } from "~/locales";
import { emptyAnswer, isOutput } from "~/services/logger/schemas";
import { answerOf, refusalOf } from "~/services/submission.server";
import { LoggerError } from "~/services/logger/errors";
import { loadVariables, readStampedValues } from "~/services/variables.server";
import { ConfirmStep } from "~/ui/ConfirmAction";
import { inputClass } from "~/ui/FormField";
import { formatValue, useFormatters } from "~/ui/format";
import { periodMsOf } from "~/ui/live/freshness";
import { LiveBadge } from "~/ui/live/LiveBadge";
import { readQualityFacts, stampsOf } from "~/ui/live/stamps.server";
import { useLiveValues } from "~/ui/live/useLiveValues";
import { NoScriptRefresh } from "~/ui/NoScriptRefresh";
import { usePolling } from "~/ui/usePolling";
import { outputValue, rangeText } from "~/ui/variables/outputValue";
import { VariableLine } from "~/ui/variables/VariableLine";
import { sortRows } from "~/ui/SortHeader";
import { DataTable } from "~/ui/DataTable";
import { pageTitle } from "~/ui/title";
import type { Route } from "./+types/variableOverview";

const PAGE_SIZE = 50;
const query = z.object({
  q: z.string().max(100).catch(""),
  device: z.string().max(100).catch(""),
  dir: z.enum(["", "I", "O"]).catch(""),
  page: z.coerce.number().int().min(1).catch(1),
});
const writeForm = z.object({ variable: z.string().min(1).max(64), value: z.string().trim().min(1, "live.validation.value").max(64) });

export async function loader(args: Route.LoaderArgs) {
  const auth = await requireFeature(args, "variableOverview");
  const { logger } = stateOf(args.context);
  const params = args.url.searchParams;
  const filter = query.parse({ q: params.get("q") ?? "", device: params.get("device") ?? "", dir: params.get("direction") ?? "", page: params.get("page") ?? 1 });
  const { variables, devices } = await loadVariables(logger);
  const q = filter.q.toLowerCase();
  const matching = variables.filter(
    (v) => (!q || v.Name.toLowerCase().includes(q) || v.Unit.toLowerCase().includes(q)) && (!filter.device || v.DeviceId === filter.device || v.deviceName === filter.device) && (!filter.dir || v.Direction === filter.dir),
  );
  const [{ values, times }, facts] = await Promise.all([
    readStampedValues(logger, matching.map((v) => v.Id)).catch(() => ({ values: {} as Record<string, number | null>, times: {} as Record<string, number | null> })),
    readQualityFacts(logger, matching.map((v) => v.Id)),
  ]);
  const sorted = sortRows(matching, params, { name: (v) => v.Name, device: (v) => v.deviceName, unit: (v) => v.Unit, type: (v) => v.DataFormat, direction: (v) => v.Direction, value: (v) => values[v.Id] ?? Number.NEGATIVE_INFINITY }, "device");
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  const rows = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  // One quality model (issue 26 §3): every shown value judged by its own time and period, the
  // page's badge the worst of them — never "Live" over a stale value — and why, where known.
  const live = stampsOf(
    Object.fromEntries(rows.map((r) => [r.Id, times[r.Id] ?? null])),
    Object.fromEntries(rows.map((r) => [r.Id, periodMsOf(r.SampleRateHz)])),
    facts,
    logger.outage !== null,
  );
  return {
    rows,
    values: Object.fromEntries(rows.map((r) => [r.Id, values[r.Id] ?? null])),
    live,
    total: sorted.length,
    page,
    pages,
    devices: devices.map((d) => ({ id: d.ID, name: d.Name })),
    canWrite: holds(auth, "ManageProject"),
  };
}

export async function action(args: Route.ActionArgs) {
  const auth = await requireFeature(args, "variableOverview");
  requirePermission(auth, "ManageProject");
  const { t } = getInstance(args.context);
  const formData = await args.request.formData();
  readIntent(formData, ["write"] as const);
  const parsed = writeForm.safeParse(Object.fromEntries(formData));
  const typed = String(formData.get("value") ?? "");
  const variableId = String(formData.get("variable") ?? "");
  // Errors belong to the row's field (issue 15 §2); the nonce refocuses it after each post.
  const refuse = (error: string, status: number) => data({ failure: { error, variable: variableId, value: typed, nonce: crypto.randomUUID() } }, { status });
  if (!parsed.success) return refuse(t("live.validation.value"), 400);
  const { logger } = stateOf(args.context);
  const variables = await answerOf(async () => (await loadVariables(logger)).variables, t);
  if (variables instanceof LoggerError) return refuse(variables.message, variables.status);
  const variable = variables.find((v) => v.Id === parsed.data.variable);
  if (!variable) return refuse(t("live.validation.unknownVariable"), 404);
  if (!isOutput(variable)) return refuse(t("live.validation.notOutput"), 400);
  // A switch takes On or Off; a number must lie in the variable's range, and the message names it (issue 26 §5).
  const value = outputValue(parsed.data.value, variable);
  if (value === "not-a-switch") return refuse(t("live.validation.switch"), 400);
  if (value === "not-a-number") return refuse(t("live.validation.number"), 400);
  const locale = LOCALE_IDS[getLocale(args.context) as Language] ?? "en-US";
  if (value === "out-of-range") return refuse(t("live.validation.range", { range: rangeText(variable, (n) => formatValue(locale, n, variable.Precision)) }), 400);
  if (formData.get("confirm") !== "yes") {
    // The first post only asks: what the output holds now and what it would be set to.
    const now = await answerOf(() => readStampedValues(logger, [variable.Id]), t);
    if (now instanceof LoggerError) return refuse(now.message, now.status);
    return { confirm: { variable: variable.Id, name: variable.Name, unit: variable.Unit, precision: variable.Precision, format: variable.DataFormat, typed: parsed.data.value, from: now.values[variable.Id] ?? null, to: value }, nonce: crypto.randomUUID() };
  }
  const refused = await refusalOf(() => logger.rest("POST", "/online/data", { Variables: [variable.Id], Values: [value], Function: "write" }, emptyAnswer.loose()), t);
  if (refused) return refuse(refused.message, refused.status);
  const written = variable.DataFormat === "BOOL" ? t(value ? "live.on" : "live.off") : parsed.data.value;
  const back = new URLSearchParams(args.url.searchParams);
  back.delete("write");
  return redirectWithToast(args.context, `/variableOverview${back.size ? `?${back}` : ""}`, { type: "success", text: t("live.written", { name: variable.Name, value: written }) });
}

export default function VariableOverview({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { rows, page, pages, total, devices, canWrite } = loaderData;
  const fmt = useFormatters();
  const ids = useMemo(() => rows.map((r) => r.Id), [rows]);
  const { values, freshness } = useLiveValues(ids, loaderData.values, undefined, loaderData.live.stamps);
  // Before hydration (and without JavaScript) the server's judgement; then the browser's, as time passes.
  const summary = freshness ?? loaderData.live.summary;
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;
  const confirming = actionData && "confirm" in actionData ? actionData : undefined;
  // Typing a value is a form of its own (?write=ID, or after a refused write): the list you watch
  // reloads itself without JavaScript, a form in progress never does (issue 28 §2).
  const writing = failure?.variable ?? params.get("write");
  // Every row's links, made once per address and page of rows: the list renders again at each
  // live update (four a second), and building them was the page's costliest script at rest.
  const links = useMemo(() => {
    const withWrite = (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set("write", id);
      else next.delete("write");
      return `?${next}`;
    };
    return { write: new Map(rows.map((r) => [r.Id, withWrite(r.Id)])), cancel: withWrite(null) };
  }, [params, rows]);
  // With values not live, the page asks again now and then: the reason (who stopped, which device) may change.
  usePolling(5000, summary.state !== "live" && !confirming && !failure);
  const shown = (v: number | null, c: { unit: string; precision?: number; format: string }) =>
    c.format === "BOOL" && v !== null ? t(v ? "live.on" : "live.off") : `${fmt.value(v, c.precision)}${c.unit && v !== null ? ` ${c.unit}` : ""}`;
  const pageHref = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(p));
    return `?${next}`;
  };
  return (
    <section className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t("nav.variableOverview")}</h1>
        {rows.length > 0 && <LiveBadge state={summary.state} ageMs={summary.ageMs} reason={summary.reason} />}
      </div>
      {/* Without JavaScript the values reload themselves, except while a write asks for confirmation or failed. */}
      {rows.length > 0 && !actionData && !writing && <NoScriptRefresh params={params} />}
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        {params.get("sort") && <input type="hidden" name="sort" value={params.get("sort")!} />}
        {params.get("dir") && <input type="hidden" name="dir" value={params.get("dir")!} />}
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("live.filter.text")}
          <input type="search" name="q" defaultValue={params.get("q") ?? ""} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("live.filter.device")}
          <select name="device" defaultValue={params.get("device") ?? ""} className={inputClass}>
            <option value="">{t("live.filter.all")}</option>
            {devices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("live.filter.direction")}
          <select name="direction" defaultValue={params.get("direction") ?? ""} className={inputClass}>
            <option value="">{t("live.filter.all")}</option>
            <option value="I">{t("live.direction.I")}</option>
            <option value="O">{t("live.direction.O")}</option>
          </select>
        </label>
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
          {t("live.filter.apply")}
        </button>
        <span className="ml-auto text-sm text-slate-500">{t("live.count", { count: total })}</span>
      </Form>
      <DataTable
        label={t("nav.variableOverview")}
        testId="variables-table"
        columns={[
          { label: t("live.columns.name"), sort: "name" },
          { label: t("live.columns.device"), sort: "device" },
          { label: t("live.columns.value"), sort: "value" },
          { label: t("live.columns.unit"), sort: "unit" },
          { label: t("live.columns.type"), sort: "type" },
          { label: t("live.columns.direction"), sort: "direction" },
          { label: t("live.columns.range") },
          { label: t("live.columns.precision") },
          ...(canWrite ? [{ label: t("live.columns.write") }] : []),
        ]}
        empty={rows.length === 0 ? t("live.empty") : undefined}
      >
        {rows.map((v) => {
          const c = confirming?.confirm.variable === v.Id ? confirming : undefined;
          const state = summary.each[v.Id] ?? "stale";
          // A live value's age is not shown: not passed, so that its row is not drawn again each second.
          return (
            <Fragment key={v.Id}>
              <VariableLine v={v} value={values[v.Id] ?? null} freshness={state} ageMs={state === "live" ? null : (summary.ages[v.Id] ?? null)} reason={summary.reasons[v.Id] ?? null} canWrite={canWrite} failure={failure?.variable === v.Id ? failure : undefined} editing={writing === v.Id} writeHref={links.write.get(v.Id)!} cancelHref={links.cancel} />
              {c && (
                <tr>
                  <td colSpan={9} className="px-4 pb-3">
                    <ConfirmStep
                      nonce={c.nonce}
                      title={t("operator.confirm.writeTitle")}
                      message={t("operator.confirm.write", { name: c.confirm.name, from: shown(c.confirm.from, c.confirm), to: shown(c.confirm.to, c.confirm) })}
                      confirmLabel={t("live.write")}
                      fields={{ intent: "write", variable: c.confirm.variable, value: c.confirm.typed }}
                      cancelHref={`?${params}`}
                    />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </DataTable>
      {pages > 1 && (
        <nav aria-label={t("live.pages")} className="flex items-center gap-3 text-sm">
          {page > 1 && <Link to={pageHref(page - 1)}>{t("live.previous")}</Link>}
          <span>{t("live.pageOf", { page, pages })}</span>
          {page < pages && <Link to={pageHref(page + 1)}>{t("live.next")}</Link>}
        </nav>
      )}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.variableOverview");
}
