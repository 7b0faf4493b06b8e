import { useMemo } from "react";
import { useT } from "~/ui/useT";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { stateOf } from "~/services/context.server";
import { readIntent } from "~/services/forms.server";
import { holds, redirectWithToast, requireFeature, requirePermission } from "~/services/guards.server";
import { getInstance } from "~/services/i18n.server";
import { emptyAnswer, isOutput } from "~/services/logger/schemas";
import { isRefusal } from "~/services/submission.server";
import { loadVariables, readValues, type VariableRow } from "~/services/variables.server";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";
import { useFormatters } from "~/ui/format";
import { LiveBadge } from "~/ui/live/LiveBadge";
import { useLiveValues } from "~/ui/live/useLiveValues";
import { VALUE_STATE_CLASS, valueState } from "~/ui/live/valueState";
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
  const values = await readValues(logger, matching.map((v) => v.Id));
  const sorted = sortRows(matching, params, { name: (v) => v.Name, device: (v) => v.deviceName, unit: (v) => v.Unit, type: (v) => v.DataFormat, direction: (v) => v.Direction, value: (v) => values[v.Id] ?? Number.NEGATIVE_INFINITY }, "device");
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  const rows = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return {
    rows,
    values: Object.fromEntries(rows.map((r) => [r.Id, values[r.Id] ?? null])),
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
  if (!parsed.success) return data({ error: t("live.validation.value"), variable: variableId, value: typed }, { status: 400 });
  const { logger } = stateOf(args.context);
  const { variables } = await loadVariables(logger);
  const variable = variables.find((v) => v.Id === parsed.data.variable);
  if (!variable) return data({ error: t("live.validation.unknownVariable"), variable: variableId, value: typed }, { status: 404 });
  const value = parseValue(parsed.data.value, variable.DataFormat);
  if (value === null) return data({ error: t("live.validation.value"), variable: variableId, value: typed }, { status: 400 });
  if (!isOutput(variable)) return data({ error: t("live.validation.notOutput"), variable: variableId, value: typed }, { status: 400 });
  try {
    await logger.rest("POST", "/online/data", { Variables: [variable.Id], Values: [value], Function: "write" }, emptyAnswer.loose());
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return data({ error: error.message, variable: variableId, value: typed }, { status: error.status });
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
  const ids = useMemo(() => rows.map((r) => r.Id), [rows]);
  const { values, state } = useLiveValues(ids, loaderData.values);
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
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
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
            {rows.map((v) => (
              <VariableLine key={v.Id} v={v} value={values[v.Id] ?? null} canWrite={canWrite} typed={actionData?.variable === v.Id ? actionData.value : undefined} />
            ))}
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

function VariableLine({ v, value, canWrite, typed }: { v: VariableRow; value: number | null; canWrite: boolean; typed?: string }) {
  const t = useT();
  const fmt = useFormatters();
  const state = valueState(value, v.RangeMin, v.RangeMax);
  const busy = useNavigation().state === "submitting";
  return (
    <tr className="border-t border-slate-100 dark:border-slate-700" data-variable={v.Name}>
      <td className="px-4 py-2 font-medium">{v.Name}</td>
      <td className="px-4 py-2">{v.deviceName}</td>
      <td className={`px-4 py-2 text-right font-mono tabular-nums ${VALUE_STATE_CLASS[state]}`} data-testid="value" data-state={state}>
        {fmt.value(value, v.Precision)}
      </td>
      <td className="px-4 py-2">{v.Unit}</td>
      <td className="px-4 py-2">{v.DataFormat}</td>
      <td className="px-4 py-2">{t(`live.direction.${v.Direction}`)}</td>
      <td className="px-4 py-2 whitespace-nowrap">{v.RangeMin != null && v.RangeMax != null ? `${fmt.value(v.RangeMin, v.Precision)} … ${fmt.value(v.RangeMax, v.Precision)}` : "—"}</td>
      <td className="px-4 py-2">{v.Precision ?? "—"}</td>
      {canWrite && (
        <td className="px-4 py-2">
          {isOutput(v) && (
            <Form method="post" className="flex items-center gap-1" preventScrollReset>
              <input type="hidden" name="intent" value="write" />
              <input type="hidden" name="variable" value={v.Id} />
              <input name="value" defaultValue={typed ?? ""} aria-label={t("live.writeLabel", { name: v.Name })} className={`${inputClass} w-24 py-1`} />
              <button type="submit" className={`${buttonClass} py-1`} disabled={busy}>
                {t("live.write")}
              </button>
            </Form>
          )}
        </td>
      )}
    </tr>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageTitle(matches, "nav.variableOverview");
}
