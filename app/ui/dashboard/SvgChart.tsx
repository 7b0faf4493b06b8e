import type { ChartOverlay, SeriesData, VariableInfo } from "./types";
import { formatOffset, niceTicks, offsetTicks, tickNumber, timeFormat, timeTicks, unitScales, type UnitScale } from "./chartGeometry";
import { seriesStyle } from "./colours";

const W = 800;
const TOP = 8;
const BOTTOM = 22;
const AXIS = 52;
/** Vertical resolution of the data paths: 1,000 steps over a scale. */
const Q = 1000;

export interface SvgChartProps {
  series: SeriesData;
  vars: VariableInfo[];
  /** Height of the drawing in viewBox units (the width is always 800). */
  height: number;
  from: number;
  to: number;
  locale: string;
  timeZone: string;
  label: string;
  overlay?: ChartOverlay;
}

/**
 * The chart as plain SVG, drawn on the server from the bucketed query: means as lines, min/max
 * as a band, gaps (nulls) left open. Complete without JavaScript; uPlot replaces it when it can.
 */
export function SvgChart({ series, vars, height, from, to, locale, timeZone, label, overlay }: SvgChartProps) {
  const scales = unitScales(vars, series);
  const left = AXIS;
  const right = W - (scales.some((s) => s.side === 1) ? AXIS : 12);
  const bottom = height - BOTTOM;
  const x = (t: number) => left + ((t - from) / (to - from || 1)) * (right - left);
  const scaleOf = new Map(scales.map((s) => [s.unit, s]));
  const y = (s: UnitScale) => (v: number) => bottom - ((v - s.min) / (s.max - s.min)) * (bottom - TOP);
  const span = to - from || 1;
  const times = overlay ? offsetTicks(from, to, overlay.origin) : timeTicks(from, to);
  const clock = timeFormat(locale, timeZone, times.step);
  const fmt = overlay ? { format: (t: number) => formatOffset(t - overlay.origin) } : clock;
  return (
    <svg viewBox={`0 0 ${W} ${height}`} className="h-full w-full" role="img" aria-label={label} data-testid="svg-chart">
      <g className="text-slate-400" stroke="currentColor" strokeWidth={0.5}>
        {scales
          .filter((s) => s.side === 0)
          .flatMap((s) => niceTicks(s.min, s.max).map((v) => <line key={v} x1={left} x2={right} y1={y(s)(v).toFixed(1)} y2={y(s)(v).toFixed(1)} strokeOpacity={0.35} />))}
        <line x1={left} x2={right} y1={bottom} y2={bottom} />
      </g>
      <g className="fill-slate-500 text-[11px]" fontSize={11}>
        {times.ticks.map((t) => (
          <text key={t} x={x(t).toFixed(1)} y={height - 6} textAnchor="middle">
            {fmt.format(t)}
          </text>
        ))}
        {scales.map((s) =>
          s.side === null
            ? null
            : [
                ...niceTicks(s.min, s.max).map((v) => (
                  <text key={`${s.unit}${v}`} x={s.side === 0 ? left - 4 : right + 4} y={y(s)(v) + 4} textAnchor={s.side === 0 ? "end" : "start"}>
                    {tickNumber(locale, v)}
                  </text>
                )),
                <text key={`${s.unit}-unit`} x={s.side === 0 ? 4 : W - 4} y={TOP + 4} textAnchor={s.side === 0 ? "start" : "end"} className="fill-slate-700 font-semibold dark:fill-slate-200">
                  {s.unit}
                </text>,
              ],
        )}
      </g>
      {/* Data in bucket units: x = bucket index, y = 0…1000 of its unit's scale; short relative paths. */}
      <g transform={`translate(${(left + ((series.start - from) / span) * (right - left)).toFixed(2)} ${TOP}) scale(${(((right - left) * series.delta) / span).toFixed(5)} ${((bottom - TOP) / Q).toFixed(5)})`}>
        {vars.map((v, i) => {
          const s = scaleOf.get(v.Unit ?? "")!;
          const q = (x: number) => Math.round(Q - ((x - s.min) / (s.max - s.min)) * Q);
          const { colour, dash } = seriesStyle(i, overlay);
          const band = series.min?.[i] && series.max?.[i] ? bandPath(series.min[i]!, series.max[i]!, q) : "";
          return (
            <g key={v.Id}>
              {band && <path d={band} fill={colour} fillOpacity={0.15} />}
              <path d={linePath(series.values[i] ?? [], q)} fill="none" stroke={colour} strokeWidth={1.5} strokeLinejoin="round" vectorEffect="non-scaling-stroke" strokeDasharray={dash ? "6 4" : undefined} data-dashed={dash || undefined} />
            </g>
          );
        })}
      </g>
    </svg>
  );
}

/** One relative step; a minus sign separates numbers itself (a tenth of a page's paths are those spaces). */
const step = (dx: number, dy: number) => (dy < 0 ? `${dx}${dy} ` : `${dx} ${dy} `);

/** Polyline runs between gaps, as one path: "M k y" then relative steps "1 dy". */
function linePath(values: (number | null)[], q: (v: number) => number): string {
  let d = "";
  let prev: number | null = null;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (v === null || v === undefined) {
      prev = null;
      continue;
    }
    const y = q(v);
    d += prev === null ? `M${k} ${y}l` : step(1, y - prev);
    prev = y;
  }
  return d.replace(/l$|l(?=M)/g, "");
}

/** One closed polygon per run: along the maxima, back along the minima. */
function bandPath(min: (number | null)[], max: (number | null)[], q: (v: number) => number): string {
  let d = "";
  let run: number[] = [];
  const flush = () => {
    if (run.length > 1) {
      let y = q(max[run[0]!]!);
      d += `M${run[0]} ${y}l`;
      for (const k of run.slice(1)) {
        const next = q(max[k]!);
        d += step(1, next - y);
        y = next;
      }
      for (const k of run.toReversed()) {
        const next = q(min[k]!);
        d += step(k === run.at(-1) ? 0 : -1, next - y);
        y = next;
      }
      d += "Z";
    }
    run = [];
  };
  for (let k = 0; k < min.length; k++) {
    if (min[k] === null || max[k] === null || min[k] === undefined || max[k] === undefined) flush();
    else run.push(k);
  }
  flush();
  return d;
}
