import { lazy, Suspense, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useT } from "~/ui/useT";
import { useFormatters } from "~/ui/format";
import { useRootData } from "~/ui/rootData";
import { ServerChartsContext } from "./serverCharts";
import type { ChartEvent, ChartEventKind, ChartLimit, ChartOverlay, ChartThreshold, SeriesData, VariableInfo } from "./types";
import { CHART_EVENT_KINDS } from "./types";
import { seriesStyle } from "./colours";
import type { ChartAnnotation } from "./annotations";
import { ChartNotesContext } from "./notesContext";
import type { NotesConfig } from "./ChartNotes";

// The interactive chart (our uPlot component, uPlot and its CSS) is one chunk, asked for as soon
// as a chart is on the page — in parallel with hydration, the server's SVG showing until it is there.
const loadUPlotChart = () => import("./UPlotChart").then((m) => ({ default: m.UPlotChart }));
const UPlotChart = lazy(loadUPlotChart);
if (typeof window !== "undefined") void loadUPlotChart();

interface Loaded {
  series: SeriesData;
  from: number;
  to: number;
  thresholds?: readonly ChartThreshold[];
  events?: readonly ChartEvent[];
  annotations?: readonly ChartAnnotation[];
  limits?: readonly ChartLimit[];
}

export type ChartWidgetProps = Common &
  (
    | /** The data is in the page: SVG (drawn by `svg`, so SvgChart stays out of the dashboard's JavaScript) and uPlot drawn from it (Analytics). */ (Loaded & {
        svg(look: SvgChartLook): React.ReactNode;
      })
    | {
        /** A dashboard widget: the server draws its SVG into the HTML (ServerChartsContext). */
        widgetId: string;
        /** Its buckets for uPlot, fetched after hydration with the range they cover. */
        loaded?: Loaded;
      }
  );

/** What the inline SVG is drawn with besides the data. */
export interface SvgChartLook {
  height: number;
  locale: string;
  timeZone: string;
  label: string;
  eventWords: Record<ChartEventKind, string>;
  annotationWord: string;
}

interface Common {
  vars: VariableInfo[];
  follow: boolean;
  /** Plot area in CSS pixels as laid out on a 1200 px wide grid (the SVG's aspect ratio). */
  approx: { width: number; height: number };
  syncKey: string;
  onZoom(from: number, to: number): void;
  onReset(): void;
  /** A compare overlay: the first `pairs` series are A, the rest B (same colours, dashed); the time axis counts from `origin`. */
  overlay?: ChartOverlay;
}

/** Server SVG first; once hydrated and its data fetched, uPlot takes over (zoom, reset, legend toggles, cursor sync, live). */
export function ChartWidget(props: ChartWidgetProps) {
  const t = useT();
  const fmt = useFormatters();
  const locale = useRootData()?.localeId ?? "en-US";
  const svgOf = useContext(ServerChartsContext);
  const [hydrated, setHydrated] = useState(false);
  const [ready, setReady] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setHydrated(true), []);
  // The chart area's size from each layout the browser does anyway, for uPlot's creation.
  const area = useRef<HTMLDivElement>(null);
  const laidOut = useRef<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const ro = new ResizeObserver(([entry]) => {
      if (entry) laidOut.current = { width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) };
    });
    ro.observe(area.current!);
    return () => ro.disconnect();
  }, []);
  const sizeHint = useCallback(() => laidOut.current, []);
  const label = t("dashboards.widget.chartLabel", { names: props.vars.map((v) => v.Name).join(", ") });
  const height = Math.max(60, Math.round((props.approx.height * 800) / Math.max(props.approx.width, 1)));
  // Server: the SVG markup. Browser: nothing, and React keeps the server's markup (never re-rendered
  // with other markup) until uPlot is ready and the SVG goes.
  const inline = "series" in props ? props : null;
  const loaded = inline ?? ("loaded" in props ? props.loaded : undefined);
  const eventWords = Object.fromEntries(CHART_EVENT_KINDS.map((k) => [k, t(`dashboards.chart.event.${k}`)])) as Record<ChartEventKind, string>;
  const look = { height, locale, timeZone: fmt.timeZone, label, eventWords, annotationWord: t("dashboards.notes.word") };
  const markup = inline ? "" : (svgOf?.((props as { widgetId: string }).widgetId, look) ?? "");
  const notesPage = useContext(ChartNotesContext);
  const notes: NotesConfig | undefined = loaded?.annotations
    ? {
        list: loaded.annotations,
        mayAdd: notesPage?.mayAdd ?? false,
        // A compare overlay's B series are the same variables at another time.
        variables: props.vars.map((v) => v.Id).filter((id) => !id.endsWith("~cmp")),
        back: notesPage?.back ?? "",
      }
    : undefined;
  const toggle = (id: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className="flex h-full flex-col gap-1">
      <div ref={area} className="relative min-h-0 flex-1" data-ready={ready || undefined} data-testid="chart">
        {!ready &&
          (inline ? (
            inline.svg(look)
          ) : (
            <div className="h-full w-full" dangerouslySetInnerHTML={{ __html: markup }} suppressHydrationWarning />
          ))}
        {hydrated && loaded && (
          <Suspense fallback={null}>
            <UPlotChart
              series={loaded.series}
              vars={props.vars}
              from={loaded.from}
              to={loaded.to}
              follow={props.follow}
              hidden={hidden}
              locale={locale}
              timeZone={fmt.timeZone}
              syncKey={props.syncKey}
              onZoom={props.onZoom}
              onReset={props.onReset}
              onReady={() => setReady(true)}
              sizeHint={sizeHint}
              overlay={props.overlay}
              thresholds={loaded.thresholds}
              events={loaded.events}
              limits={loaded.limits}
              eventWords={eventWords}
              label={label}
              keysHint={notes?.mayAdd ? `${t("dashboards.chart.keys")}. ${t("dashboards.notes.keys")}` : t("dashboards.chart.keys")}
              notes={notes}
              readOutTexts={{ title: t("dashboards.chart.readout"), noValue: t("dashboards.chart.noValue"), minMax: (min, max) => t("dashboards.chart.minMax", { min, max }) }}
            />
          </Suspense>
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
