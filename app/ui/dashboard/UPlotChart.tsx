import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { LiveSample } from "~/ui/live/useLiveValues";
import { formatOffset, offsetTicks, tickNumber, timeFormat } from "./chartGeometry";
import { seriesStyle } from "./colours";
import { useLiveSamples } from "./liveBus";
import type { ChartOverlay, SeriesData, VariableInfo } from "./types";

export interface UPlotChartProps {
  series: SeriesData;
  vars: VariableInfo[];
  from: number;
  to: number;
  /** Relative ranges follow live samples; a zoomed or absolute range stays put. */
  follow: boolean;
  hidden: ReadonlySet<string>;
  locale: string;
  timeZone: string;
  syncKey: string;
  onZoom(from: number, to: number): void;
  onReset(): void;
  onReady(): void;
  overlay?: ChartOverlay;
}

type Columns = (number | null)[][];

// uPlot is its own chunk, asked for as soon as a chart module loads (in parallel with hydration)
// and kept once here, so a chart is created in the same commit that mounts it.
let UPlotCtor: typeof uPlot | null = null;
let loading: Promise<typeof uPlot> | null = null;
function loadUPlot(): Promise<typeof uPlot> {
  loading ??= import("uplot").then((m) => (UPlotCtor = m.default));
  return loading;
}
if (typeof window !== "undefined") void loadUPlot();

/** uPlot columns: [seconds, means…, minima…, maxima…]. */
export function toColumns(series: SeriesData, n: number): Columns {
  const xs = new Array<number>(series.size);
  for (let k = 0; k < series.size; k++) xs[k] = (series.start + k * series.delta) / 1000;
  const cols: Columns = [xs];
  for (let i = 0; i < n; i++) cols.push(series.values[i] ?? new Array(series.size).fill(null));
  if (series.min && series.max) {
    for (let i = 0; i < n; i++) cols.push(series.min[i] ?? new Array(series.size).fill(null));
    for (let i = 0; i < n; i++) cols.push(series.max[i] ?? new Array(series.size).fill(null));
  }
  return cols;
}

/** uPlot options: one scale per unit, axes for the first two units, min/max as bands. */
export function chartOptions(p: Pick<UPlotChartProps, "vars" | "from" | "to" | "locale" | "timeZone" | "syncKey" | "overlay">, uPlotCtor: typeof uPlot, banded: boolean, size: { width: number; height: number }): uPlot.Options {
  const n = p.vars.length;
  const units = [...new Set(p.vars.map((v) => v.Unit ?? ""))];
  const series: uPlot.Series[] = [{}];
  p.vars.forEach((v, i) => {
    const style = seriesStyle(i, p.overlay);
    series.push({ label: v.Unit ? `${v.Name} [${v.Unit}]` : v.Name, stroke: style.colour, width: 1.5, dash: style.dash ? [6, 4] : undefined, scale: `u:${v.Unit ?? ""}`, points: { show: false } });
  });
  const bands: uPlot.Band[] = [];
  if (banded) {
    for (const kind of ["min", "max"]) {
      p.vars.forEach((v) => series.push({ label: `${v.Name} ${kind}`, stroke: "transparent", width: 0, scale: `u:${v.Unit ?? ""}`, points: { show: false } }));
    }
    p.vars.forEach((_, i) => bands.push({ series: [1 + 2 * n + i, 1 + n + i], fill: `${seriesStyle(i, p.overlay).colour}${seriesStyle(i, p.overlay).dash ? "14" : "26"}` }));
  }
  // The x range is the dashboard's, not the data's: set after creation and on every new range.
  const scales: uPlot.Scales = { x: { time: true, auto: false } };
  for (const u of units) scales[`u:${u}`] = { auto: true };
  const overlay = p.overlay;
  const axes: uPlot.Axis[] = [
    overlay
      ? {
          stroke: "#64748b",
          grid: { stroke: "#94a3b833" },
          ticks: { stroke: "#94a3b855" },
          // Offsets from A's start, at round steps counted from it (both ranges share this axis).
          splits: (_u, _i, min, max) => offsetTicks(min * 1000, max * 1000, overlay.origin).ticks.map((t) => t / 1000),
          values: (_u, ticks) => ticks.map((t) => formatOffset(t * 1000 - overlay.origin)),
        }
      : {
          stroke: "#64748b",
          grid: { stroke: "#94a3b833" },
          ticks: { stroke: "#94a3b855" },
          // Times as the server's SVG writes them: the user's locale and zone, 24-hour where the locale is.
          values: (_u, ticks, _i, _space, step) => ticks.map((t) => timeFormat(p.locale, p.timeZone, step * 1000).format(t * 1000)),
        },
  ];
  units.slice(0, 2).forEach((u, k) =>
    axes.push({
      scale: `u:${u}`,
      side: k === 0 ? 3 : 1,
      label: u,
      labelSize: 16,
      stroke: "#64748b",
      grid: { show: k === 0, stroke: "#94a3b833" },
      ticks: { stroke: "#94a3b855" },
      values: (_u, ticks) => ticks.map((t) => tickNumber(p.locale, t)),
    }),
  );
  return {
    ...size,
    series,
    bands,
    scales,
    axes,
    legend: { show: false },
    tzDate: (ts) => uPlotCtor.tzDate(new Date(ts * 1e3), p.timeZone),
    cursor: { sync: { key: p.syncKey }, drag: { x: true, y: false, setScale: false } },
  };
}

/** The interactive chart: created on mount, setData on new data, rebuilt only when its variables change. */
export function UPlotChart(props: UPlotChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useRef<Columns | null>(null);
  /** What the plot shows, so the mount is not followed by a second identical draw. */
  const shown = useRef<{ series: SeriesData; from: number; to: number } | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const n = props.vars.length;
  const banded = !!(props.series.min && props.series.max);
  const shape = `${props.vars.map((v) => `${v.Id}:${v.Unit}`).join(",")}|${banded}|${props.syncKey}|${props.timeZone}|${props.overlay ? `${props.overlay.origin}:${props.overlay.pairs}` : ""}`;

  // A layout effect: the chart exists before the browser paints the commit that mounted it.
  useLayoutEffect(() => {
    const box = el.current!;
    let cancelled = false;
    let ro: ResizeObserver | null = null;
    const onDblClick = () => latest.current.onReset();
    const create = (UPlot: typeof uPlot) => {
      if (cancelled) return;
      const p = latest.current;
      const opts = chartOptions(p, UPlot, banded, { width: box.clientWidth || 300, height: box.clientHeight || 150 });
      opts.hooks = {
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const from = u.posToVal(u.select.left, "x") * 1000;
            const to = u.posToVal(u.select.left + u.select.width, "x") * 1000;
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            latest.current.onZoom(Math.round(from), Math.round(to));
          },
        ],
      };
      data.current = toColumns(p.series, n);
      const u = new UPlot(opts, data.current as uPlot.AlignedData, box);
      plot.current = u;
      u.setScale("x", { min: p.from / 1000, max: p.to / 1000 });
      shown.current = { series: p.series, from: p.from, to: p.to };
      u.over.addEventListener("dblclick", onDblClick);
      ro = new ResizeObserver(() => {
        if (box.clientWidth !== u.width || box.clientHeight !== u.height) u.setSize({ width: box.clientWidth, height: box.clientHeight });
      });
      ro.observe(box);
      p.onReady();
    };
    if (UPlotCtor) create(UPlotCtor);
    else void loadUPlot().then(create);
    return () => {
      cancelled = true;
      ro?.disconnect();
      plot.current?.over.removeEventListener("dblclick", onDblClick);
      plot.current?.destroy();
      plot.current = null;
    };
    // Rebuilt only when the chart's shape changes; data and range go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);

  useEffect(() => {
    const u = plot.current;
    const s = shown.current;
    if (!u || (s && s.series === props.series && s.from === props.from && s.to === props.to)) return;
    shown.current = { series: props.series, from: props.from, to: props.to };
    data.current = toColumns(props.series, n);
    u.batch(() => {
      u.setData(data.current as uPlot.AlignedData, false);
      u.setScale("x", { min: props.from / 1000, max: props.to / 1000 });
    });
  }, [props.series, props.from, props.to, n]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    props.vars.forEach((v, i) => {
      const show = !props.hidden.has(v.Id);
      if (u.series[1 + i]?.show === show) return;
      u.setSeries(1 + i, { show });
      if (banded) {
        u.setSeries(1 + n + i, { show });
        u.setSeries(1 + 2 * n + i, { show });
      }
    });
  }, [props.hidden, props.vars, banded, n]);

  const onSample = useCallback(
    (s: LiveSample) => {
      const u = plot.current;
      const cols = data.current;
      const p = latest.current;
      if (!u || !cols || !p.follow) return;
      const span = (p.to - p.from) / 1000;
      appendSample(cols, s, p.vars, p.series.delta, banded, span);
      const end = s.t / 1000;
      u.batch(() => {
        u.setData(cols as uPlot.AlignedData, false);
        u.setScale("x", { min: end - span, max: end });
      });
    },
    [banded],
  );
  useLiveSamples(props.follow ? onSample : null);

  return <div ref={el} className="absolute inset-0" data-testid="uplot-chart" />;
}

/** A live sample opens a new bucket once the last one is full, else widens the last one's band. */
export function appendSample(cols: Columns, s: LiveSample, vars: VariableInfo[], delta: number, banded: boolean, spanSec: number) {
  const n = vars.length;
  const xs = cols[0] as number[];
  const t = s.t / 1000;
  const last = xs.length - 1;
  const fresh = last < 0 || t >= xs[last]! + delta / 1000;
  if (fresh) {
    xs.push(t);
    for (let c = 1; c < cols.length; c++) cols[c]!.push(null);
  }
  const k = xs.length - 1;
  vars.forEach((v, i) => {
    const value = s.values[v.Id];
    if (value === undefined || value === null) return;
    const mean = cols[1 + i]!;
    mean[k] = fresh || mean[k] === null ? value : mean[k];
    if (banded) {
      const lo = cols[1 + n + i]!;
      const hi = cols[1 + 2 * n + i]!;
      lo[k] = lo[k] === null ? value : Math.min(lo[k]!, value);
      hi[k] = hi[k] === null ? value : Math.max(hi[k]!, value);
    }
  });
  // Buckets that scrolled out of the window go, so a wall display's memory stays flat.
  const cutoff = t - spanSec - delta / 1000;
  let drop = 0;
  while (drop < xs.length - 1 && xs[drop]! <= cutoff) drop++;
  if (drop) for (const c of cols) c.splice(0, drop);
}
