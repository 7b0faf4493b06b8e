import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/ui/format";
import { useRootData } from "~/ui/rootData";
import { SvgChart } from "./SvgChart";
import type { ChartOverlay, SeriesData, VariableInfo } from "./types";
import { seriesStyle } from "./colours";
import { UPlotChart } from "./UPlotChart";

export interface ChartWidgetProps {
  series: SeriesData;
  vars: VariableInfo[];
  from: number;
  to: number;
  follow: boolean;
  /** Plot area in CSS pixels as laid out on a 1200 px wide grid (the SVG's aspect ratio). */
  approx: { width: number; height: number };
  syncKey: string;
  onZoom(from: number, to: number): void;
  onReset(): void;
  /** A compare overlay: the first `pairs` series are A, the rest B (same colours, dashed); the time axis counts from `origin`. */
  overlay?: ChartOverlay;
}

/** Server SVG first; once hydrated, uPlot takes over (zoom, reset, legend toggles, cursor sync, live). */
export function ChartWidget(props: ChartWidgetProps) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const locale = useRootData()?.localeId ?? "en-US";
  const [hydrated, setHydrated] = useState(false);
  const [ready, setReady] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setHydrated(true), []);
  const label = t("dashboards.widget.chartLabel", { names: props.vars.map((v) => v.Name).join(", ") });
  const toggle = (id: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className="flex h-full flex-col gap-1">
      <div className="relative min-h-0 flex-1" data-ready={ready || undefined} data-testid="chart">
        {!ready && (
          <SvgChart series={props.series} vars={props.vars} height={Math.max(60, Math.round((props.approx.height * 800) / Math.max(props.approx.width, 1)))} from={props.from} to={props.to} locale={locale} timeZone={fmt.timeZone} label={label} overlay={props.overlay} />
        )}
        {hydrated && (
          <UPlotChart
            series={props.series}
            vars={props.vars}
            from={props.from}
            to={props.to}
            follow={props.follow}
            hidden={hidden}
            locale={locale}
            timeZone={fmt.timeZone}
            syncKey={props.syncKey}
            onZoom={props.onZoom}
            onReset={props.onReset}
            onReady={() => setReady(true)}
            overlay={props.overlay}
          />
        )}
      </div>
      <ul className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs" aria-label={t("dashboards.widget.legend")}>
        {props.vars.map((v, i) => {
          const style = seriesStyle(i, props.overlay);
          const swatch = style.dash ? (
            <span aria-hidden="true" className="inline-block h-0 w-3 border-t-2 border-dashed" style={{ borderColor: style.colour }} data-dashed="true" />
          ) : (
            <span aria-hidden="true" className="inline-block h-2 w-3 rounded-sm" style={{ background: style.colour }} />
          );
          const text = v.Unit ? `${v.Name} [${v.Unit}]` : v.Name;
          return (
            <li key={v.Id}>
              {ready ? (
                <button type="button" aria-pressed={!hidden.has(v.Id)} onClick={() => toggle(v.Id)} className="flex items-center gap-1 hover:underline aria-[pressed=false]:opacity-40">
                  {swatch}
                  {text}
                </button>
              ) : (
                <span className="flex items-center gap-1">
                  {swatch}
                  {text}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
