import { useT } from "~/ui/useT";
import type { Widget } from "~/schemas/dashboards";
import { NOT_LIVE_CLASS, worstFreshness, type Freshness } from "~/ui/live/freshness";
import { AlarmListWidget } from "./AlarmListWidget";
import { ChartBack } from "./ChartBack";
import { ChartWidget } from "./ChartWidget";
import { ChartPanelLinks } from "./ChartPanelLinks";
import type { RangePreset } from "~/schemas/dashboardConstants";
import { SafeText } from "./SafeText";
import { defaultWidgetTitle } from "./widgetTitle";
import type { DashboardData, SeriesData, VariableInfo } from "./types";
import { BarWidget, GaugeWidget, LampWidget, TableWidget, ValueWidget } from "./ValueWidgets";

export interface WidgetCardProps {
  widget: Widget;
  data: DashboardData;
  values: Record<string, number | null>;
  range: { from: number; to: number; follow: boolean; preset?: RangePreset | null };
  /** The viewer may open Analytics (a chart panel links there with its variables and range). */
  analytics?: boolean;
  /** A chart's buckets as fetched for uPlot after hydration, with their range. */
  loaded?: { series: SeriesData; from: number; to: number };
  /** Size on a 1200 px wide grid, for the server SVG's aspect ratio. */
  approx: { width: number; height: number };
  syncKey: string;
  busy: boolean;
  /** A wall display: no links away from the dashboard, text sized for the screen. */
  kiosk?: boolean;
  /** Live / stale / offline per variable id (ids not judged are left out). */
  freshness?: Record<string, Freshness>;
  onZoom(from: number, to: number): void;
  onReset(): void;
  /** After a zoom: the address of the range before it, offered on the chart itself. */
  backHref?: string | null;
}

/** One grid cell: title, and the widget or its empty / error state. A failure stays in its cell. */
export function WidgetCard(props: WidgetCardProps) {
  const t = useT();
  const { widget, data } = props;
  const vars = widget.Variables.map((id) => data.variables[id]).filter((v): v is VariableInfo => v !== undefined);
  const deleted = data.variablesError ? 0 : widget.Variables.length - vars.length;
  // An untitled text widget shows no heading: its own text says what it is.
  const title = defaultWidgetTitle(widget, (id) => data.variables[id]?.Name) || (widget.Type === "text" ? "" : t(`dashboards.types.${widget.Type}`));
  const state = freshnessOfWidget(widget, props.freshness, props.range.follow);
  return (
    <article className="flex h-full min-h-0 flex-col overflow-hidden rounded-lg bg-white p-3 shadow-sm dark:bg-slate-800" aria-busy={props.busy || undefined} aria-label={title || undefined} data-testid="widget" data-type={widget.Type} data-widget={widget.ID} data-freshness={state ?? undefined}>
      {title && (
        <div className="mb-1 flex items-baseline justify-between gap-2">
          <h2 className={`truncate font-semibold text-slate-600 dark:text-slate-300 ${props.kiosk ? "text-[0.75rem] leading-[1.2]" : "text-sm"}`} title={title}>
            {title}
          </h2>
          {widget.Type === "chart" && !props.kiosk && vars.length > 0 && <ChartPanelLinks title={title} variables={vars.map((v) => v.Id)} range={props.range} analytics={props.analytics ?? false} />}
          {/* Not only grey: the state in words, for whoever cannot tell the hatching. */}
          {state && state !== "live" && (
            <span className={`shrink-0 rounded px-1.5 text-xs font-semibold ${state === "offline" ? "bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-100" : "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100"}`} data-testid="widget-freshness">
              {t(`liveState.${state}`)}
            </span>
          )}
        </div>
      )}
      {deleted > 0 && vars.length > 0 && (
        <p className="text-xs text-amber-700 dark:text-amber-400" data-testid="widget-note">
          {t("dashboards.widget.someDeleted", { count: deleted })}
        </p>
      )}
      <div className={`min-h-0 flex-1 ${state && state !== "live" && widget.Type !== "table" ? NOT_LIVE_CLASS : ""}`}>
        <Body {...props} vars={vars} deleted={deleted} />
      </div>
    </article>
  );
}

/**
 * The worst state of the current values a widget shows; null for texts and alarm lists, and for a
 * chart of a range that ends in the past (stored history, as current as it will be).
 */
function freshnessOfWidget(widget: Widget, freshness: Record<string, Freshness> | undefined, follow: boolean): Freshness | null {
  if (!freshness || (widget.Type === "chart" && !follow) || widget.Type === "text" || widget.Type === "alarms") return null;
  const states = widget.Variables.map((id) => freshness[id]).filter((s): s is Freshness => s !== undefined);
  return states.length ? worstFreshness(states) : null;
}

function Body({ widget, data, values, range, loaded, approx, syncKey, kiosk, freshness, onZoom, onReset, backHref, vars, deleted }: WidgetCardProps & { vars: VariableInfo[]; deleted: number }) {
  const t = useT();
  // Failures are the logger's own words (spec §8) or one of our keys; never a key lookup of free text.
  const said = (text: string) => (text.startsWith("dashboards.") ? t(text) : text);
  if (widget.Type === "text") return widget.Options.Text?.trim() ? <SafeText text={widget.Options.Text} className={kiosk ? "text-[0.75rem]" : "text-sm"} /> : <State kind="empty">{t("dashboards.widget.noText")}</State>;
  if (widget.Type === "alarms") {
    // Variables are a filter here: none means every alarm.
    const result = data.widgets[widget.ID];
    if (result?.state === "forbidden") return <State kind="forbidden">{t("dashboards.alarms.forbidden")}</State>;
    if (result?.state === "error") return <State kind="error">{t("dashboards.alarms.failed", { error: said(result.error) })}</State>;
    if (!result?.alarms) return <State kind="loading">{t("dashboards.widget.loading")}</State>;
    return <AlarmListWidget rows={result.alarms.rows} total={result.alarms.total} link={!kiosk} />;
  }
  if (widget.Variables.length === 0) return <State kind="empty">{t("dashboards.widget.noVariables")}</State>;
  if (data.variablesError) return <State kind="error">{t("dashboards.widget.variablesFailed", { error: said(data.variablesError) })}</State>;
  if (vars.length === 0) return <State kind="error">{t("dashboards.widget.deleted", { count: deleted })}</State>;
  const got = data.widgets[widget.ID];
  const result = got?.state === "forbidden" ? undefined : got;
  if (result?.state === "error") return <State kind="error">{t("dashboards.widget.dataFailed", { error: said(result.error) })}</State>;
  if (widget.Type === "chart") {
    const summary = result?.chart;
    if (!summary) return <State kind="loading">{t("dashboards.widget.loading")}</State>;
    if (summary.size === 0) return <State kind="empty">{t("dashboards.widget.noData")}</State>;
    // An empty range still draws the axes, so a zoom into a gap can be double-clicked away.
    const empty = loaded ? loaded.series.values.every((col) => col.every((v) => v === null)) : summary.empty;
    return (
      <div className="relative h-full">
        <ChartWidget widgetId={widget.ID} loaded={loaded} vars={vars} follow={range.follow} approx={approx} syncKey={syncKey} onZoom={onZoom} onReset={onReset} />
        {backHref && !kiosk && <ChartBack href={backHref} />}
        {empty && (
          <p className="pointer-events-none absolute inset-x-0 top-1/3 text-center text-sm text-slate-500" data-testid="widget-empty">
            {t("dashboards.widget.noData")}
          </p>
        )}
      </div>
    );
  }
  if (data.valuesError) return <State kind="error">{t("dashboards.widget.valuesFailed", { error: said(data.valuesError) })}</State>;
  const v = vars[0]!;
  const value = values[v.Id] ?? null;
  switch (widget.Type) {
    case "value":
      return <ValueWidget widget={widget} v={v} value={value} kiosk={kiosk} series={result?.state === "ok" ? result.series : undefined} />;
    case "gauge":
      return <GaugeWidget widget={widget} v={v} value={value} kiosk={kiosk} limits={data.limits?.[v.Id]} />;
    case "bar":
      return <BarWidget widget={widget} v={v} value={value} kiosk={kiosk} limits={data.limits?.[v.Id]} />;
    case "lamp":
      return <LampWidget widget={widget} v={v} value={value} kiosk={kiosk} />;
    case "table":
      return <TableWidget widget={widget} vars={vars} values={values} kiosk={kiosk} freshness={freshness} />;
  }
}

const STATE_CLASS = {
  empty: "text-slate-500",
  forbidden: "text-slate-500",
  loading: "text-slate-500 animate-pulse",
  error: "text-red-700 dark:text-red-400",
};

function State({ kind, children }: { kind: keyof typeof STATE_CLASS; children: React.ReactNode }) {
  return (
    <p className={`flex h-full items-center justify-center text-center text-sm ${STATE_CLASS[kind]}`} role={kind === "error" ? "alert" : undefined} data-testid={`widget-${kind}`}>
      {children}
    </p>
  );
}
