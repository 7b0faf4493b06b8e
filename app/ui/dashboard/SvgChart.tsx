import type { ChartEvent, ChartEventKind, ChartLimit, ChartOverlay, ChartThreshold, SeriesData, VariableInfo } from "./types";
import { fittedTimeTicks, formatOffset, labelWidth, LABEL_GAP_PX, offsetTicks, SVG_TIERS, tickNumber, unitScales, valueTickLabel, type UnitScale } from "./chartGeometry";
import { AXIS_TEXT_CLASS, COLOUR_HEX, EVENT_HEX, SERIES, seriesStyle, severityHex } from "./colours";
import type { ChartAnnotation } from "./annotations";
import { SvgAnnotationBands, SvgAnnotationFlags } from "./SvgAnnotations";

/** Margins around the plot in CSS px: value labels left and right, units on top, times below. */
export const SVG_MARGIN = { left: 52, right: 52, top: 22, bottom: 22 } as const;
/** Vertical resolution of the data paths: 1,000 steps over a scale. */
const Q = 1000;

export interface SvgChartProps {
  series: SeriesData;
  vars: VariableInfo[];
  /** Kept for the markup cache's key: the drawing fills its box whatever the height. */
  height: number;
  from: number;
  to: number;
  locale: string;
  timeZone: string;
  label: string;
  overlay?: ChartOverlay;
  thresholds?: readonly ChartThreshold[];
  events?: readonly ChartEvent[];
  /** Alarm limits of the chart's variables, each on its variable's unit scale. */
  limits?: readonly ChartLimit[];
  /** Translated names of the event kinds (the markup is drawn outside React's i18n context). */
  eventWords?: Record<ChartEventKind, string>;
  /** Operator annotations in the range, and how a flag's title says one. */
  annotations?: readonly ChartAnnotation[];
  annotationLabel?: (a: ChartAnnotation) => string;
}

/**
 * Time labels per width tier, shown by container queries: the widest tier not wider than the
 * plot (SVG_TIERS: 160, 400, 800, 1600, 3200 px; with the margins 104 px more). Literal class
 * names so Tailwind generates them.
 */
const TIER_CLASS = [
  "@min-[504px]:hidden",
  "hidden @min-[504px]:inline @min-[904px]:hidden",
  "hidden @min-[904px]:inline @min-[1704px]:hidden",
  "hidden @min-[1704px]:inline @min-[3304px]:hidden",
  "hidden @min-[3304px]:inline",
];

/**
 * The chart as plain SVG, drawn on the server from the bucketed query: means as lines, min/max
 * as a band, gaps (nulls) left open, thresholds as lines over a faint band, events as vertical
 * markers. It fills its box in width and height without JavaScript (the data stretch, the text
 * does not); uPlot replaces it when it can.
 */
export function SvgChart({ series, vars, from, to, locale, timeZone, label, overlay, thresholds, events, limits, eventWords, annotations, annotationLabel }: SvgChartProps) {
  const scales = unitScales(vars, series);
  const span = to - from || 1;
  const delta = series.delta || span;
  const width = span / delta; // the viewBox counts buckets across, Q down
  const scaleOf = new Map(scales.map((s) => [s.unit, s]));
  const frac = (s: UnitScale, v: number) => (s.max - v) / (s.max - s.min);
  const pct = (f: number) => `${(f * 100).toFixed(3)}%`;
  const tx = (t: number) => (t - from) / span;
  const first = scales[0];
  const hasRight = scales.some((s) => s.side === 1);
  // Each axis as wide as its longest label (estimated, no DOM on the server), at least the margin.
  const axisWidth = (side: 0 | 1) => {
    const s = scales.find((x) => x.side === side);
    return s ? Math.max(SVG_MARGIN.left, 8 + Math.max(labelWidth(s.unit), ...s.ticks.map((v) => labelWidth(valueTickLabel(locale, s.step, v))))) : 12;
  };
  const m = { ...SVG_MARGIN, left: first ? axisWidth(0) : SVG_MARGIN.left, right: hasRight ? axisWidth(1) : 12 };
  const axisClass = (unit: string) => {
    const i = vars.findIndex((v) => (v.Unit ?? "") === unit);
    return AXIS_TEXT_CLASS[Math.max(0, SERIES.indexOf(seriesStyle(i, overlay).colour))]!;
  };
  // The tiers are shown by the box's width less the default margins: axes wider than those leave
  // a narrower plot, so each tier's labels are fitted to what is left of it.
  const extra = Math.max(0, m.left + m.right - SVG_MARGIN.left - SVG_MARGIN.right);
  const tiers = SVG_TIERS.map((tier) => {
    const w = Math.max(1, tier - extra);
    if (!overlay) return fittedTimeTicks(from, to, w, locale, timeZone);
    // Offsets from A's start: widen the step until the labels fit.
    for (let count = Math.max(1, Math.floor(w / 60)); ; count--) {
      const o = offsetTicks(from, to, overlay.origin, count);
      const labels = o.ticks.map((t) => formatOffset(t - overlay.origin));
      const widest = Math.max(0, ...labels.map((l) => labelWidth(l)));
      if (count <= 1 || (o.step / span) * w >= widest + LABEL_GAP_PX) return { ticks: o.ticks, labels, step: o.step };
    }
  });
  const inScale = (s: UnitScale, v: number) => v >= s.min && v <= s.max;
  const bands = first && thresholds?.length ? thresholdBands(thresholds, first) : [];
  const shownEvents = (events ?? []).filter((e) => e.t >= from && e.t <= to);
  return (
    // A size container: on a short plot (a wall display's tile under a banner) every other value label gives way (app.css).
    <div className="@container relative h-full w-full" style={{ containerType: "size" }} role="img" aria-label={label} data-testid="svg-chart">
      <svg
        className="absolute overflow-visible"
        style={{ left: m.left, top: m.top, width: `calc(100% - ${m.left + m.right}px)`, height: `calc(100% - ${m.top + m.bottom}px)` }}
        aria-hidden="true"
        data-testid="svg-plot"
      >
        <svg viewBox={`0 0 ${width.toFixed(3)} ${Q}`} preserveAspectRatio="none" width="100%" height="100%" overflow="visible">
          <g className="text-slate-400" stroke="currentColor" strokeWidth={0.5} vectorEffect="non-scaling-stroke">
            {first &&
              first.ticks.map((v) => {
                const y = (frac(first, v) * Q).toFixed(1);
                return <line key={v} x1={0} x2={width} y1={y} y2={y} strokeOpacity={0.35} vectorEffect="non-scaling-stroke" />;
              })}
            <line x1={0} x2={width} y1={Q} y2={Q} vectorEffect="non-scaling-stroke" />
          </g>
          {bands.map((b) => (
            <g key={b.Value} data-threshold={b.Value} data-colour={b.Color}>
              <rect x={0} width={width} y={(frac(first!, b.top) * Q).toFixed(1)} height={((frac(first!, b.bottom) - frac(first!, b.top)) * Q).toFixed(1)} fill={COLOUR_HEX[b.Color]} fillOpacity={0.07} />
              {inScale(first!, b.Value) && (
                <line x1={0} x2={width} y1={(frac(first!, b.Value) * Q).toFixed(1)} y2={(frac(first!, b.Value) * Q).toFixed(1)} stroke={COLOUR_HEX[b.Color]} strokeWidth={1.5} strokeDasharray="4 3" vectorEffect="non-scaling-stroke" />
              )}
            </g>
          ))}
          {/* Alarm limits: a line in the rule's priority colour, the alarm side shaded (issue 26 §6). */}
          {(limits ?? []).map((l, k) => {
            const s = scaleOf.get(l.Unit);
            if (!s || !inScale(s, l.Value)) return null;
            const y = frac(s, l.Value) * Q;
            const colour = severityHex(l.Severity);
            return (
              <g key={`limit${k}`} data-limit={l.Value} data-side={l.Side} data-severity={l.Severity}>
                <title>{`${l.Name}: ${tickNumber(locale, l.Value)} ${l.Unit}`.trim()}</title>
                <rect x={0} width={width} y={l.Side === "high" ? 0 : y.toFixed(1)} height={(l.Side === "high" ? y : Q - y).toFixed(1)} fill={colour} fillOpacity={0.06} />
                <line x1={0} x2={width} y1={y.toFixed(1)} y2={y.toFixed(1)} stroke={colour} strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
              </g>
            );
          })}
          {/* Data in bucket units: x = bucket index from the range's start, y = 0…1000 of its unit's scale; short relative paths. */}
          <g transform={`translate(${((series.start - from) / delta).toFixed(3)} 0)`}>
            {vars.map((v, i) => {
              const s = scaleOf.get(v.Unit ?? "")!;
              const q = (x: number) => Math.round(Q - ((x - s.min) / (s.max - s.min)) * Q);
              const { colour, dash } = seriesStyle(i, overlay);
              const band = series.min?.[i] && series.max?.[i] ? bandPath(series.min[i]!, series.max[i]!, q) : "";
              return (
                <g key={v.Id}>
                  {band && <path d={band} fill={colour} fillOpacity={0.15} />}
                  <path d={linePath(series.values[i] ?? [], q)} fill="none" stroke={colour} strokeWidth={1.5} strokeLinejoin="round" vectorEffect="non-scaling-stroke" strokeDasharray={dash ? "6 4" : undefined} data-dashed={dash || undefined} data-series={i} />
                </g>
              );
            })}
          </g>
          {annotations?.length ? <SvgAnnotationBands notes={annotations} from={from} to={to} width={width} /> : null}
          {shownEvents.map((e, k) => {
            const x = (tx(e.t) * width).toFixed(3);
            return <line key={k} x1={x} x2={x} y1={0} y2={Q} stroke={EVENT_HEX[e.kind]} strokeWidth={1} strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />;
          })}
        </svg>
        <g fontSize={11} className="fill-slate-600 dark:fill-slate-300">
          {tiers.map((tier, k) => (
            <g key={k} className={TIER_CLASS[k]} data-tier={SVG_TIERS[k]}>
              {tier.ticks.map((t, j) => (
                <text key={t} x={pct(tx(t))} y="100%" dy={15} textAnchor="middle">
                  {tier.labels[j]}
                </text>
              ))}
            </g>
          ))}
          {scales.map((s) =>
            s.side === null ? null : (
              <g key={s.unit} className={axisClass(s.unit)} data-axis={s.side === 0 ? "left" : "right"}>
                {s.ticks.map((v, j) => (
                  <text key={v} x={s.side === 0 ? 0 : "100%"} dx={s.side === 0 ? -4 : 4} y={pct(frac(s, v))} dy={4} textAnchor={s.side === 0 ? "end" : "start"} data-value={v} data-thin={j % 4 === 0 ? undefined : j % 2 === 0 ? "2" : "1"}>
                    {valueTickLabel(locale, s.step, v)}
                  </text>
                ))}
                <text x={s.side === 0 ? 0 : "100%"} dx={s.side === 0 ? -4 : 4} y={0} dy={-10} textAnchor={s.side === 0 ? "end" : "start"} className="font-semibold" data-unit={s.unit}>
                  {s.unit}
                </text>
              </g>
            ),
          )}
        </g>
        {shownEvents.map((e, k) => (
          <g key={k} data-event={e.kind} fill={EVENT_HEX[e.kind]}>
            <title>{`${eventWords?.[e.kind] ?? e.kind}: ${e.name}`}</title>
            <svg x={pct(tx(e.t))} y={0} overflow="visible">
              <path d="M-5 -12h10l-5 9z" />
            </svg>
          </g>
        ))}
        {annotations?.length ? <SvgAnnotationFlags notes={annotations} from={from} to={to} label={annotationLabel ?? ((a) => a.text)} /> : null}
      </svg>
    </div>
  );
}

/** Each threshold's band reaches from its value up to the next threshold (or the top of the scale). */
function thresholdBands(thresholds: readonly ChartThreshold[], s: UnitScale): (ChartThreshold & { bottom: number; top: number })[] {
  const sorted = thresholds.toSorted((a, b) => a.Value - b.Value);
  return sorted
    .map((t, k) => ({ ...t, bottom: Math.max(s.min, t.Value), top: Math.min(s.max, sorted[k + 1]?.Value ?? s.max) }))
    .filter((b) => b.top > b.bottom || (b.Value >= s.min && b.Value <= s.max));
}

/**
 * Paths of relative steps: "M x y", then "l dx dy…" where the value moves and "h n" for a level
 * stretch (level buckets were a third of a chart's path data as "1 0" steps, and the charts half
 * of a dashboard page's HTML). A minus sign separates numbers itself. Plain locals and one append
 * per step: the chart's build time is mostly these strings.
 */
function pathWriter() {
  let d = "";
  /** Level steps not yet written, summed (one direction at a time). */
  let flat = 0;
  /** Whether the next numbers continue an "l". */
  let inLine = false;
  const level = () => {
    if (flat === 0) return;
    d += `h${flat}`;
    flat = 0;
    inLine = false;
  };
  return {
    move(x: number, y: number) {
      level();
      d += `M${x} ${y}`;
      inLine = false;
    },
    step(dx: number, dy: number) {
      if (dy === 0) {
        // A step back to the same point is left out; a level stretch turning back is written first.
        if (dx === 0) return;
        if (flat !== 0 && flat > 0 !== dx > 0) level();
        flat += dx;
        return;
      }
      const lead = flat !== 0 ? `h${flat}l` : inLine ? (dx < 0 ? "" : " ") : "l";
      flat = 0;
      inLine = true;
      d += dy < 0 ? `${lead}${dx}${dy}` : `${lead}${dx} ${dy}`;
    },
    close() {
      level();
      d += "Z";
    },
    done() {
      level();
      return d;
    },
  };
}

/** Polyline runs between gaps, as one path: "M k y" then relative steps of one bucket. A null bucket breaks the line. */
export function linePath(values: (number | null)[], q: (v: number) => number): string {
  const path = pathWriter();
  let prev: number | null = null;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (v === null || v === undefined) {
      prev = null;
      continue;
    }
    const y = q(v);
    if (prev === null) path.move(k, y);
    else path.step(1, y - prev);
    prev = y;
  }
  return path.done();
}

/** One closed polygon per run: along the maxima, back along the minima. */
export function bandPath(min: (number | null)[], max: (number | null)[], q: (v: number) => number): string {
  const path = pathWriter();
  let run: number[] = [];
  const flush = () => {
    if (run.length > 1) {
      let y = q(max[run[0]!]!);
      path.move(run[0]!, y);
      for (let j = 1; j < run.length; j++) {
        const next = q(max[run[j]!]!);
        path.step(1, next - y);
        y = next;
      }
      for (let j = run.length - 1; j >= 0; j--) {
        const next = q(min[run[j]!]!);
        path.step(j === run.length - 1 ? 0 : -1, next - y);
        y = next;
      }
      path.close();
    }
    run = [];
  };
  for (let k = 0; k < min.length; k++) {
    if (min[k] === null || max[k] === null || min[k] === undefined || max[k] === undefined) flush();
    else run.push(k);
  }
  flush();
  return path.done();
}
