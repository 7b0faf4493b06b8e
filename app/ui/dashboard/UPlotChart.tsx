import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { LiveSample } from "~/ui/live/useLiveValues";
import { fittedTimeTicks, formatOffset, offsetTicks, tickNumber, timeFormat } from "./chartGeometry";
import { AXIS_TEXT_DARK, AXIS_TEXT_LIGHT, SERIES, seriesStyle } from "./colours";
import { useLiveSamples } from "./liveBus";
import { ChartMarkers, drawOverlays, markersOf, ReadOut, type Markers } from "./ChartReadOut";
import type { ChartEvent, ChartEventKind, ChartLimit, ChartOverlay, ChartThreshold, SeriesData, VariableInfo } from "./types";
import { annotationsPlugin, NoteDraft, NoteFlags, notePlaces, type NotesConfig } from "./ChartNotes";
import { crosshairCursor, markFollowing, moveCursorShared } from "./crosshairSync";
import { lineWithBand, noPaths } from "./bandPaths";

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
  /**
   * The chart box's size as the browser last laid it out (ChartWidget observes its area while the
   * server's SVG shows): the chart is created at it without reading layout, which right after the
   * commit that inserted the chart's elements forced a synchronous style and layout pass
   * (≈ 2.4 ms of a cold first paint, by profile). Its own observer corrects a stale size.
   */
  sizeHint?(): { width: number; height: number } | null;
  overlay?: ChartOverlay;
  thresholds?: readonly ChartThreshold[];
  events?: readonly ChartEvent[];
  /** Alarm limits of the chart's variables (issue 26 §6). */
  limits?: readonly ChartLimit[];
  eventWords: Record<ChartEventKind, string>;
  /** The chart's accessible name, and how to use it by keyboard. */
  label: string;
  keysHint: string;
  readOutTexts: { title: string; noValue: string; minMax: (min: string, max: string) => string };
  /** Operator annotations: drawn, opened from their flags, added by Shift-drag or Shift-click (ChartNotes.tsx). */
  notes?: NotesConfig;
}

type Columns = (number | null)[][];

const NO_MARKERS: Markers = { events: [], thresholds: [], limits: [] };
/** Markers placed alike (a redraw that moved nothing must not re-render the labels). */
function sameMarkers(a: Markers, b: Markers): boolean {
  return (
    (a.limits ?? []).length === (b.limits ?? []).length &&
    (a.limits ?? []).every((l, k) => l.top === b.limits![k]!.top && l.value === b.limits![k]!.value) &&
    a.events.length === b.events.length &&
    a.thresholds.length === b.thresholds.length &&
    a.events.every((e, k) => e.left === b.events[k]!.left && e.kind === b.events[k]!.kind && e.name === b.events[k]!.name) &&
    a.thresholds.every((t, k) => t.top === b.thresholds[k]!.top && t.value === b.thresholds[k]!.value && t.colour === b.thresholds[k]!.colour)
  );
}

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

/** The page's root font size in CSS pixels: 16 on ordinary pages, a share of the screen on a kiosk (app/ui/kiosk/tv.css). */
function readRootPx(): number {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

/** The root font size, kept current as the window is resized (a kiosk's scales with the screen). */
function useRootPx(): number {
  const [px, setPx] = useState(readRootPx);
  useEffect(() => {
    const onResize = () => setPx(readRootPx());
    onResize();
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return px;
}

let measurer: CanvasRenderingContext2D | null = null;
/** The widest of some texts in a font, as the canvas draws them. */
function widest(font: string, texts: readonly string[]): number {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return 0;
  measurer.font = font;
  return Math.max(0, ...texts.map((t) => measurer!.measureText(t).width));
}

/** Sizes of the axes' text and room at scale `k` (the root font size over 16 px), used above 1 (a kiosk). */
function axisSizes(k: number) {
  const px = Math.round(12 * k);
  return { px, font: `${px}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`, labelFont: `bold ${px}px system-ui, sans-serif`, gap: Math.round(4 * k), tick: Math.round(6 * k) };
}

/**
 * uPlot options: one scale per unit, axes for the first two units, min/max as bands. `scale` is
 * the root font size over 16 px (1 on ordinary pages; on a kiosk it follows the screen): the
 * axes' fonts, their room and the spacing of their ticks grow with it. `onYLabels` hears how many
 * value labels the first value axis drew.
 */
export function chartOptions(p: Pick<UPlotChartProps, "vars" | "from" | "to" | "locale" | "timeZone" | "syncKey" | "overlay">, uPlotCtor: typeof uPlot, banded: boolean, size: { width: number; height: number }, dark = false, scale = 1, onYLabels?: (n: number) => void): uPlot.Options {
  const n = p.vars.length;
  const units = [...new Set(p.vars.map((v) => v.Unit ?? ""))];
  const series: uPlot.Series[] = [{}];
  p.vars.forEach((v, i) => {
    const style = seriesStyle(i, p.overlay);
    // A compare overlay's B bands are fainter, as its lines are dashed.
    const band = banded ? { paths: lineWithBand(uPlotCtor, 1 + n + i, 1 + 2 * n + i, `${style.colour}${style.dash ? "14" : "26"}`) } : {};
    series.push({ label: v.Unit ? `${v.Name} [${v.Unit}]` : v.Name, stroke: style.colour, width: 1.5, dash: style.dash ? [6, 4] : undefined, scale: `u:${v.Unit ?? ""}`, points: { show: false }, ...band });
  });
  if (banded) {
    for (const kind of ["min", "max"]) {
      p.vars.forEach((v) => series.push({ label: `${v.Name} ${kind}`, scale: `u:${v.Unit ?? ""}`, points: { show: false }, paths: noPaths }));
    }
  }
  // The x range is the dashboard's, not the data's: set after creation and on every new range.
  const scales: uPlot.Scales = { x: { time: true, auto: false } };
  for (const u of units) scales[`u:${u}`] = { auto: true };
  const overlay = p.overlay;
  // Time labels chosen for the plot's width (chartGeometry), so they never run into each other.
  let labelled: { key: string; labels: Map<number, string> } = { key: "", labels: new Map() };
  const timeSplits = (u: uPlot, min: number, max: number) => {
    // Labels sized for uPlot's 12 px font: a larger font is a narrower plot for them.
    const width = u.bbox.width / (globalThis.devicePixelRatio || 1) / scale;
    const fitted = fittedTimeTicks(min * 1000, max * 1000, width, p.locale, p.timeZone);
    labelled = { key: `${min}|${max}|${width}`, labels: new Map(fitted.ticks.map((t, k) => [t / 1000, fitted.labels[k]!])) };
    return fitted.ticks.map((t) => t / 1000);
  };
  const axisText = dark ? AXIS_TEXT_DARK : AXIS_TEXT_LIGHT;
  const neutral = dark ? "#cbd5e1" : "#475569";
  const unitColour = (u: string) => {
    const i = p.vars.findIndex((v) => (v.Unit ?? "") === u);
    return axisText[Math.max(0, SERIES.indexOf(seriesStyle(i, overlay).colour))]!;
  };
  // At scale 1 uPlot's own sizes (ordinary pages unchanged); larger, every size grows with the font.
  const big = scale > 1.01;
  const sz = axisSizes(scale);
  const xSized: Partial<uPlot.Axis> = big ? { font: sz.font, gap: sz.gap, size: Math.ceil(sz.px * 1.25 + sz.gap + sz.tick), space: Math.round(50 * scale) } : {};
  const tickSized = (stroke: string): uPlot.Axis.Ticks => (big ? { stroke, size: sz.tick } : { stroke });
  const axes: uPlot.Axis[] = [
    overlay
      ? {
          stroke: neutral,
          grid: { stroke: "#94a3b833" },
          ...xSized,
          ticks: tickSized("#94a3b855"),
          space: Math.round(70 * scale),
          // Offsets from A's start, at round steps counted from it (both ranges share this axis).
          splits: (_u, _i, min, max) => offsetTicks(min * 1000, max * 1000, overlay.origin).ticks.map((t) => t / 1000),
          values: (_u, ticks) => ticks.map((t) => formatOffset(t * 1000 - overlay.origin)),
        }
      : {
          stroke: neutral,
          grid: { stroke: "#94a3b833" },
          ...xSized,
          ticks: tickSized("#94a3b855"),
          // Times as the server's SVG writes them: the user's locale and zone, 24-hour clock.
          splits: (u, _i, min, max) => timeSplits(u, min, max),
          values: (_u, ticks, _i, _space, step) => ticks.map((t) => labelled.labels.get(t) ?? timeFormat(p.locale, p.timeZone, step * 1000).format(t * 1000)),
        },
  ];
  units.slice(0, 2).forEach((u, k) =>
    axes.push({
      scale: `u:${u}`,
      side: k === 0 ? 3 : 1,
      // Colour-keyed: the axis, its numbers and its unit in the colour of its first series.
      label: u,
      labelSize: big ? Math.round(16 * scale) : 16,
      labelFont: big ? sz.labelFont : "bold 12px system-ui, sans-serif",
      stroke: unitColour(u),
      grid: { show: k === 0, stroke: "#94a3b833" },
      ticks: tickSized("#94a3b855"),
      values: (_u, ticks) => {
        if (k === 0) onYLabels?.(ticks.length);
        return ticks.map((t) => tickNumber(p.locale, t));
      },
      // Larger: as wide as its widest label, and labels a line apart (drawn centred on their ticks).
      ...(big
        ? {
            font: sz.font,
            gap: sz.gap,
            // At least 1.2 lines apart; on a tall plot an eighth of it (4 to 9 labels whatever the
            // range: uPlot's steps 1, 2, 2.5, 5 at most double), not a ladder of a label a line.
            space: (_u: uPlot, _i: number, _min: number, _max: number, plotDim: number) => Math.max(Math.round(sz.px * 1.2), plotDim / 8),
            size: (_u: uPlot, values: string[] | null) => Math.ceil(widest(sz.font, values ?? []) + sz.gap + sz.tick + 2),
          }
        : {}),
    }),
  );
  return {
    ...size,
    // The top value label is centred on the plot's edge: room for its upper half.
    ...(big ? { padding: [Math.round(sz.px * 0.6), null, null, null] as uPlot.Padding } : {}),
    series,
    scales,
    axes,
    legend: { show: false },
    tzDate: (ts) => uPlotCtor.tzDate(new Date(ts * 1e3), p.timeZone),
    cursor: { sync: { key: p.syncKey }, drag: { x: true, y: false, setScale: false }, points: { size: 7 } },
  };
}

/** The interactive chart: created on mount, setData on new data, rebuilt only when its variables change. */
export function UPlotChart(props: UPlotChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [cursor, setCursorIdx] = useState<number | null>(null);
  /**
   * The cursor shown is another chart's (the shared crosshair): a compact read-out. The ref is for
   * uPlot's hooks, which read it at once; the state draws the read-out — a ref read while rendering
   * showed what it held when something else happened to render the chart.
   */
  const following = useRef(false);
  const [compact, setCompact] = useState(false);
  const follow = useCallback((yes: boolean) => {
    following.current = yes;
    setCompact(yes);
  }, []);
  const [markers, setMarkers] = useState<Markers>(NO_MARKERS);
  const [notesAt, setNotesAt] = useState<{ id: number; left: number }[]>([]);
  const [draft, setDraft] = useState<{ start: number; end: number } | null>(null);
  const closeDraft = useCallback(() => setDraft(null), []);
  const hasMarkers = useRef(false);
  const data = useRef<Columns | null>(null);
  /** What the plot shows, so the mount is not followed by a second identical draw. */
  const shown = useRef<{ series: SeriesData; from: number; to: number } | null>(null);
  /** The thresholds and events the plot was drawn with. */
  const marksDrawn = useRef<Pick<UPlotChartProps, "thresholds" | "events" | "limits"> | null>(null);
  const latest = useRef({ ...props, rootPx: 16 });
  const n = props.vars.length;
  const banded = !!(props.series.min && props.series.max);
  // The root font size too: a kiosk's follows the screen, and the axes are drawn at it.
  const rootPx = useRootPx();
  latest.current = { ...props, rootPx };
  const shape = `${props.vars.map((v) => `${v.Id}:${v.Unit}`).join(",")}|${banded}|${props.syncKey}|${props.timeZone}|${props.overlay ? `${props.overlay.origin}:${props.overlay.pairs}` : ""}|${rootPx}`;

  // A layout effect: the chart exists before the browser paints the commit that mounted it.
  useLayoutEffect(() => {
    const box = el.current!;
    let cancelled = false;
    let ro: ResizeObserver | null = null;
    /** Draws so far: the first one leaves thresholds and events to just after the first paint. */
    let draws = 0;
    const onDblClick = () => latest.current.onReset();
    // Shift held when a drag starts: the selection is a note's span, not a zoom; a Shift-click a note's time.
    let noting = false;
    const mayNote = (e: MouseEvent) => e.shiftKey && !!latest.current.notes?.mayAdd;
    const onDown = (e: MouseEvent) => (noting = mayNote(e));
    const onClick = (e: MouseEvent) => {
      const u = plot.current;
      if (!u || !mayNote(e) || u.select.width >= 4) return;
      const t = Math.round(u.posToVal(e.offsetX, "x") * 1000);
      setDraft({ start: t, end: t });
    };
    const create = (UPlot: typeof uPlot) => {
      if (cancelled) return;
      const p = latest.current;
      const dark = !!box.closest("[data-theme=dark]");
      const hint = p.sizeHint?.();
      const size = hint && hint.width > 0 && hint.height > 0 ? hint : { width: box.clientWidth || 300, height: box.clientHeight || 150 };
      const scale = latest.current.rootPx / 16;
      let yLabels = 0;
      const opts = chartOptions(p, UPlot, banded, size, dark, scale, (n) => (yLabels = n));
      // What the chart drew with, for whoever checks a wall display's text sizes (tests/e2e/kiosk-tv).
      box.dataset.axisPx = String(axisSizes(scale).px);
      opts.cursor = {
        ...opts.cursor,
        ...crosshairCursor(p.syncKey, (yes) => {
          follow(yes);
          markFollowing(plot.current, yes);
        }),
      };
      // The notes' flags are placed after the frame, like the markers' labels (never during a draw).
      const placeNotes = (u: uPlot) => {
        const list = latest.current.notes?.list;
        if (!list?.length) return setNotesAt((was) => (was.length ? [] : was));
        requestAnimationFrame(() => {
          if (plot.current !== u) return;
          const next = notePlaces(u, list);
          setNotesAt((was) => (was.length === next.length && was.every((p, k) => p.id === next[k]!.id && p.left === next[k]!.left) ? was : next));
        });
      };
      opts.plugins = [annotationsPlugin(() => latest.current.notes?.list), { hooks: { draw: placeNotes } }];
      opts.hooks = {
        // Thresholds and events on the canvas; their labels as elements over it (readable, testable).
        draw: [
          (u) => {
            box.dataset.yLabels = String(yLabels);
            box.dataset.plotHeight = String(Math.round(u.bbox.height / (globalThis.devicePixelRatio || 1)));
          },
          (u) => {
            const q = latest.current;
            const thresholds = q.thresholds ?? [];
            const events = q.events ?? [];
            const limits = q.limits ?? [];
            if (thresholds.length === 0 && events.length === 0 && limits.length === 0) {
              if (hasMarkers.current) requestAnimationFrame(() => setMarkers(NO_MARKERS));
              hasMarkers.current = false;
              return;
            }
            const scale = `u:${q.vars[0]?.Unit ?? ""}`;
            hasMarkers.current = true;
            const draw = ++draws;
            const place = () => {
              if (plot.current !== u) return;
              const next = markersOf(u, thresholds, events, scale, limits);
              setMarkers((m) => (sameMarkers(m, next) ? m : next));
            };
            if (draw > 1) {
              drawOverlays(u, thresholds, events, scale, limits);
              // The labels' places are worked out after the frame, not during the draw; a state
              // update here would also re-render synchronously inside a layout effect.
              requestAnimationFrame(place);
              return;
            }
            // The first paint shows the data alone, as bare uPlot's does: the overlays' first
            // drawing (cold canvas code, ≈ 2 ms) and the labels come right after that frame, onto
            // the same canvas — unless a redraw came first and drew them itself.
            requestAnimationFrame(() =>
              setTimeout(() => {
                if (plot.current !== u || draws !== draw) return;
                drawOverlays(u, thresholds, events, scale, limits);
                place();
              }),
            );
          },
        ],
        setCursor: [(u) => setCursorIdx(u.cursor.idx ?? null)],
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const from = u.posToVal(u.select.left, "x") * 1000;
            const to = u.posToVal(u.select.left + u.select.width, "x") * 1000;
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            // A selection synced from another chart (the shared crosshair) is that chart's to act on.
            if (following.current) return;
            if (noting) setDraft({ start: Math.round(from), end: Math.round(to) });
            else latest.current.onZoom(Math.round(from), Math.round(to));
          },
        ],
      };
      data.current = toColumns(p.series, n);
      const u = new UPlot(opts, data.current as uPlot.AlignedData, box);
      plot.current = u;
      u.setScale("x", { min: p.from / 1000, max: p.to / 1000 });
      box.dataset.span = String(p.to - p.from);
      shown.current = { series: p.series, from: p.from, to: p.to };
      marksDrawn.current = { thresholds: p.thresholds, events: p.events, limits: p.limits };
      u.over.addEventListener("dblclick", onDblClick);
      u.over.addEventListener("mousedown", onDown);
      u.over.addEventListener("click", onClick);
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
      plot.current?.over.removeEventListener("mousedown", onDown);
      plot.current?.over.removeEventListener("click", onClick);
      plot.current?.destroy();
      plot.current = null;
    };
    // Rebuilt only when the chart's shape changes; data and range go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);

  // New thresholds or events (a new range's answer) are drawn over the same data — not the ones
  // the chart was created with: a redraw on mount doubled the first draw's work before the frame.
  useEffect(() => {
    const drawn = marksDrawn.current;
    if (!plot.current || (drawn && drawn.thresholds === props.thresholds && drawn.events === props.events && drawn.limits === props.limits)) return;
    marksDrawn.current = { thresholds: props.thresholds, events: props.events, limits: props.limits };
    plot.current.redraw(false, false);
  }, [props.thresholds, props.events, props.limits]);

  // Notes: drawn again when they change, their flags placed after every draw that moved them.
  const noteList = props.notes?.list;
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.redraw(false, false);
  }, [noteList]);
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
    // The span drawn, for whoever must know the chart shows a new range (the data comes after the URL).
    if (el.current) el.current.dataset.span = String(props.to - props.from);
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

  /** Keyboard read-out: the arrows move the cursor bucket by bucket (Shift: ten), Home/End to the ends. */
  const onKeyDown = (e: React.KeyboardEvent) => {
    const u = plot.current;
    const xs = data.current?.[0] as number[] | undefined;
    if (!u || !xs?.length) return;
    const last = xs.length - 1;
    // The buckets on the plot: the first may start a little before the range, and a cursor put
    // at the plot's edge instead of on a bucket leaves each chart of the dashboard to pick the
    // nearest one by itself.
    const min = u.scales.x?.min ?? -Infinity;
    let first = 0;
    while (first < last && xs[first]! < min) first++;
    const now = u.cursor.idx ?? null;
    const by = e.shiftKey ? 10 : 1;
    const next = e.key === "ArrowLeft" ? (now ?? last + 1) - by : e.key === "ArrowRight" ? (now ?? first - 1) + by : e.key === "Home" ? first : e.key === "End" ? last : null;
    if (next === null) return;
    e.preventDefault();
    const idx = Math.max(first, Math.min(last, next));
    moveCursorShared(u, u.valToPos(xs[idx]!, "x"), u.over.clientHeight / 2, () => {
      follow(false);
      markFollowing(u, false);
    });
  };

  return (
    <div className="absolute inset-0 rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand" tabIndex={0} role="group" aria-label={`${props.label}. ${props.keysHint}`} onKeyDown={onKeyDown} data-testid="uplot-focus">
      <div ref={el} className="absolute inset-0" data-testid="uplot-chart" />
      {plot.current && <ChartMarkers markers={markers} eventWords={props.eventWords} plot={plot.current} />}
      {plot.current && props.notes && notesAt.length > 0 && <NoteFlags plot={plot.current} places={notesAt} config={props.notes} />}
      {plot.current && props.notes && draft && <NoteDraft plot={plot.current} draft={draft} config={props.notes} onDone={closeDraft} />}
      {plot.current && cursor !== null && data.current && (
        <ReadOut plot={plot.current} idx={cursor} cols={data.current} vars={props.vars} banded={banded} hidden={props.hidden} locale={props.locale} timeZone={props.timeZone} overlay={props.overlay} texts={props.readOutTexts} compact={compact} />
      )}
    </div>
  );
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
