import { Fragment, useMemo } from "react";
import { useT } from "~/ui/useT";
import { data, Form, Link, useSearchParams } from "react-router";
import { z } from "zod";
import { stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, isOutput } from "~/services/logger/schemas";
import { isRefusal } from "~/services/submission.server";
import { readStampedValues } from "~/services/valueTimes.server";
import { loadVariables } from "~/services/variables.server";
import { ConfirmStep } from "~/ui/ConfirmAction";
import { inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { LiveBadge } from "~/ui/live/LiveBadge";
import { useLiveValues } from "~/ui/live/useLiveValues";
import { freshnessOf, periodMsOf } from "~/ui/live/freshness";
import { useNow } from "~/ui/FreshnessBadge";
import { VariableLine } from "~/ui/variables/VariableLine";
import { useValueTimes } from "~/ui/variables/useValueTimes";
import { SortHeader, sortRows } from "~/ui/SortHeader";
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
  const { values, times } = await readStampedValues(logger, matching.map((v) => v.Id));
  const sorted = sortRows(matching, params, { name: (v) => v.Name, device: (v) => v.deviceName, unit: (v) => v.Unit, type: (v) => v.DataFormat, direction: (v) => v.Direction, value: (v) => values[v.Id] ?? Number.NEGATIVE_INFINITY }, "device");
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  const rows = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return {
    rows,
    values: Object.fromEntries(rows.map((r) => [r.Id, values[r.Id] ?? null])),
    times: Object.fromEntries(rows.map((r) => [r.Id, times[r.Id] ?? null])),
    now: Date.now(),
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
  const { variables } = await loadVariables(logger);
  const variable = variables.find((v) => v.Id === parsed.data.variable);
  if (!variable) return refuse(t("live.validation.unknownVariable"), 404);
  const value = parseValue(parsed.data.value, variable.DataFormat);
  if (value === null) return refuse(t("live.validation.value"), 400);
  if (!isOutput(variable)) return refuse(t("live.validation.notOutput"), 400);
  if (formData.get("confirm") !== "yes") {
    // The first post only asks: what the output holds now and what it would be set to.
    const { values } = await readStampedValues(logger, [variable.Id]);
    return { confirm: { variable: variable.Id, name: variable.Name, unit: variable.Unit, precision: variable.Precision, typed: parsed.data.value, from: values[variable.Id] ?? null, to: value }, nonce: crypto.randomUUID() };
  }
  try {
    await logger.rest("POST", "/online/data", { Variables: [variable.Id], Values: [value], Function: "write" }, emptyAnswer.loose());
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return refuse(error.message, error.status);
  }
  return redirectWithToast(args.context, `/variableOverview${args.url.search}`, { type: "success", text: t("live.written", { name: variable.Name, value: parsed.data.value }) });
}

/** Numbers in either decimal notation ("1.5" or "1,5"); booleans also as true/false/on/off. */
function parseValue(text: string, format: string): number | null {
  if (format === "BOOL") {
    const v = text.toLowerCase();
    if (["1", "true", "on"].includes(v)) return 1;
    if (["0", "false", "off"].includes(v)) return 0;
    return null;
  }
  const n = Number(text.replace(",", "."));
  return Number.isFinite(n) ? n : null;
}

export default function VariableOverview({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const { rows, page, pages, total, devices, canWrite } = loaderData;
  const fmt = useFormatters();
  const ids = useMemo(() => rows.map((r) => r.Id), [rows]);
  const { times, onSample } = useValueTimes(loaderData.times);
  const { values, state } = useLiveValues(ids, loaderData.values, onSample);
  // The clock ticks only in the browser (effects do not run on the server), so values age there.
  const now = useNow(loaderData.now, true);
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;
  const confirming = actionData && "confirm" in actionData ? actionData : undefined;
  const shown = (v: number | null, unit: string, precision?: number) => `${fmt.value(v, precision)}${unit ? ` ${unit}` : ""}`;
  const pageHref = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(p));
    return `?${next}`;
  };
  return (
    <section className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t("nav.variableOverview")}</h1>
        <LiveBadge state={state} />
      </div>
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
      <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
        <table className="w-full text-left text-sm" data-testid="variables-table">
          <thead className="bg-slate-100 dark:bg-slate-700">
            <tr>
              <SortHeader column="name" label={t("live.columns.name")} />
              <SortHeader column="device" label={t("live.columns.device")} />
              <SortHeader column="value" label={t("live.columns.value")} />
              <SortHeader column="unit" label={t("live.columns.unit")} />
              <SortHeader column="type" label={t("live.columns.type")} />
              <SortHeader column="direction" label={t("live.columns.direction")} />
              <th className="px-4 py-2">{t("live.columns.range")}</th>
              <th className="px-4 py-2">{t("live.columns.precision")}</th>
              {canWrite && <th className="px-4 py-2">{t("live.columns.write")}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={9} className="px-4 py-6 text-center text-slate-500">
                  {t("live.empty")}
                </td>
              </tr>
            )}
            {rows.map((v) => {
              const at = times[v.Id] ?? null;
              const freshness = freshnessOf(at, periodMsOf(v.SampleRateHz), now, state !== "offline");
              const c = confirming?.confirm.variable === v.Id ? confirming : undefined;
              return (
                <Fragment key={v.Id}>
                  <VariableLine v={v} value={values[v.Id] ?? null} freshness={freshness} ageMs={at === null ? null : now - at} canWrite={canWrite} failure={failure?.variable === v.Id ? failure : undefined} />
                  {c && (
                    <tr>
                      <td colSpan={9} className="px-4 pb-3">
                        <ConfirmStep
                          nonce={c.nonce}
                          title={t("operator.confirm.writeTitle")}
                          message={t("operator.confirm.write", { name: c.confirm.name, from: shown(c.confirm.from, c.confirm.unit, c.confirm.precision), to: shown(c.confirm.to, c.confirm.unit, c.confirm.precision) })}
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
          </tbody>
        </table>
      </div>
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
