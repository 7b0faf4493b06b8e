import { useT } from "~/ui/useT";
import { Form, Link, useSearchParams } from "react-router";
import { RANGES, REFRESH, type RefreshInterval } from "~/schemas/dashboardConstants";
import { buttonClass, inputClass } from "~/ui/formClasses";
import { DateTimeField } from "~/ui/DateTimeField";
import { useFormatters } from "~/ui/format";
import { toLocalInput, type ResolvedRange } from "./timeRange";

/** Presets as links, an absolute range and the refresh interval as a GET form: all in the URL. */
export function RangeBar({ range, refresh }: { range: ResolvedRange; refresh: RefreshInterval }) {
  const t = useT();
  const [params] = useSearchParams();
  const { timeZone } = useFormatters();
  const presetHref = (preset: string) => {
    const next = new URLSearchParams(params);
    next.delete("from");
    next.delete("to");
    next.set("range", preset);
    return `?${next}`;
  };
  return (
    <div className="flex flex-wrap items-end gap-4 rounded-lg bg-white px-4 py-3 shadow-sm dark:bg-slate-800" data-testid="range-bar">
      <nav aria-label={t("dashboards.range.presets")} className="flex gap-1">
        {RANGES.map((p) => (
          <Link
            key={p}
            to={presetHref(p)}
            aria-current={range.preset === p ? "true" : undefined}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100 aria-[current]:border-brand aria-[current]:bg-brand aria-[current]:text-white dark:border-slate-600 dark:hover:bg-slate-700"
          >
            {t(`dashboards.range.${p}`)}
          </Link>
        ))}
      </nav>
      <Form method="get" className="flex flex-wrap items-end gap-2">
        {params.get("id") && <input type="hidden" name="id" value={params.get("id")!} />}
        {range.preset && <input type="hidden" name="range" value={range.preset} />}
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("dashboards.range.from")}
          <DateTimeField name="from" label={t("dashboards.range.from")} value={range.preset ? "" : toLocalInput(range.from, timeZone)} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("dashboards.range.to")}
          <DateTimeField name="to" label={t("dashboards.range.to")} value={range.preset ? "" : toLocalInput(range.to, timeZone)} showHint={false} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("dashboards.refresh.label")}
          <select name="refresh" defaultValue={refresh} className={inputClass}>
            {REFRESH.map((r) => (
              <option key={r} value={r}>
                {t(`dashboards.refresh.${r}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          {t("dashboards.range.apply")}
        </button>
      </Form>
      <p className="text-xs text-slate-500">{t("dashboards.range.zone", { zone: timeZone })}</p>
    </div>
  );
}
