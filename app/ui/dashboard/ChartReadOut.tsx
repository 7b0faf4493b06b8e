import { createPortal } from "react-dom";
import type uPlot from "uplot";
import { formatDateTime } from "~/ui/format";
import { formatOffset } from "./chartGeometry";
import { COLOUR_HEX, EVENT_HEX, seriesStyle, severityHex } from "./colours";
import type { ChartEvent, ChartEventKind, ChartLimit, ChartOverlay, ChartThreshold, VariableInfo } from "./types";

// What the interactive chart shows over uPlot's canvas: thresholds and events (drawn in uPlot's
// draw hook, labelled by elements) and the read-out at the cursor. Part of the chart's lazy chunk,
// never of the dashboard's first-load JavaScript.

export interface Markers {
  /** Event markers: x in CSS px within the plot. */
  events: { left: number; kind: ChartEventKind; name: string }[];
  /** Threshold labels: y in CSS px within the plot. */
  thresholds: { top: number; value: number; colour: string }[];
  /** Alarm limit labels: y in CSS px within the plot. */
  limits?: { top: number; value: number; colour: string; name: string; side: "high" | "low"; severity: string }[];
}

/** Thresholds as dashed lines over a faint band up to the next one; events as dotted verticals. */
export function drawOverlays(u: uPlot, thresholds: readonly ChartThreshold[], events: readonly ChartEvent[], scale: string, limits: readonly ChartLimit[] = []) {
  const { ctx, bbox } = u;
  const dpr = globalThis.devicePixelRatio || 1;
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  const sorted = thresholds.toSorted((a, b) => a.Value - b.Value);
  if (u.scales[scale]) {
    sorted.forEach((t, k) => {
      const y = u.valToPos(t.Value, scale, true);
      const top = k + 1 < sorted.length ? u.valToPos(sorted[k + 1]!.Value, scale, true) : bbox.top;
      const colour = COLOUR_HEX[t.Color];
      ctx.fillStyle = `${colour}12`;
      ctx.fillRect(bbox.left, Math.min(top, y), bbox.width, Math.abs(y - top));
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5 * dpr;
      ctx.setLineDash([4 * dpr, 3 * dpr]);
      ctx.beginPath();
      ctx.moveTo(bbox.left, y);
      ctx.lineTo(bbox.left + bbox.width, y);
      ctx.stroke();
    });
  }
  // Alarm limits (issue 26 §6): a solid line in the rule's priority colour, the alarm side shaded.
  ctx.setLineDash([]);
  for (const l of limits) {
    const scaleKey = `u:${l.Unit}`;
    if (!u.scales[scaleKey]) continue;
    const y = u.valToPos(l.Value, scaleKey, true);
    if (y < bbox.top || y > bbox.top + bbox.height) continue;
    const colour = severityHex(l.Severity);
    ctx.fillStyle = `${colour}10`;
    if (l.Side === "high") ctx.fillRect(bbox.left, bbox.top, bbox.width, y - bbox.top);
    else ctx.fillRect(bbox.left, y, bbox.width, bbox.top + bbox.height - y);
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * dpr;
    ctx.beginPath();
    ctx.moveTo(bbox.left, y);
    ctx.lineTo(bbox.left + bbox.width, y);
    ctx.stroke();
  }
  ctx.lineWidth = 1 * dpr;
  ctx.setLineDash([2 * dpr, 2 * dpr]);
  for (const e of events) {
    const x = u.valToPos(e.t / 1000, "x", true);
    if (x < bbox.left || x > bbox.left + bbox.width) continue;
    ctx.strokeStyle = EVENT_HEX[e.kind];
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
  }
  ctx.restore();
}

export function markersOf(u: uPlot, thresholds: readonly ChartThreshold[], events: readonly ChartEvent[], scale: string, limits: readonly ChartLimit[] = []): Markers {
  const width = u.bbox.width / (globalThis.devicePixelRatio || 1);
  const height = u.bbox.height / (globalThis.devicePixelRatio || 1);
  const out: Markers = { events: [], thresholds: [], limits: [] };
  for (const l of limits) {
    const scaleKey = `u:${l.Unit}`;
    if (!u.scales[scaleKey]) continue;
    const top = Math.round(u.valToPos(l.Value, scaleKey));
    if (top >= 0 && top <= height) out.limits!.push({ top, value: l.Value, colour: severityHex(l.Severity), name: l.Name, side: l.Side, severity: l.Severity });
  }
  for (const e of events) {
    const left = Math.round(u.valToPos(e.t / 1000, "x"));
    if (left >= 0 && left <= width) out.events.push({ left, kind: e.kind, name: e.name });
  }
  if (u.scales[scale]) {
    for (const t of thresholds) {
      const top = Math.round(u.valToPos(t.Value, scale));
      if (top >= 0 && top <= height) out.thresholds.push({ top, value: t.Value, colour: COLOUR_HEX[t.Color] });
    }
  }
  return out;
}

/** Labels of the markers, inside uPlot's cursor layer so they share its coordinates. */
export function ChartMarkers({ markers, eventWords, plot }: { markers: Markers; eventWords: Record<ChartEventKind, string>; plot: uPlot }) {
  return createPortal(
    <>
      {markers.events.map((e, k) => (
        <span
          key={k}
          className="absolute -top-3 size-0 -translate-x-1/2 border-x-[6px] border-t-[9px] border-x-transparent"
          style={{ left: e.left, borderTopColor: EVENT_HEX[e.kind] }}
          title={`${eventWords[e.kind]}: ${e.name}`}
          data-event={e.kind}
        />
      ))}
      {markers.limits?.map((l, k) => (
        <span
          key={`l${k}`}
          className="pointer-events-none absolute left-1 -translate-y-full rounded bg-white/80 px-1 text-[10px] leading-tight text-slate-800 dark:bg-slate-900/80 dark:text-slate-100"
          style={{ top: l.top, borderLeft: `3px solid ${l.colour}` }}
          data-limit={l.value}
          data-side={l.side}
          data-severity={l.severity}
        >
          {l.name}
        </span>
      ))}
      {markers.thresholds.map((t) => (
        <span key={t.value} className="pointer-events-none absolute right-1 -translate-y-full rounded bg-white/80 px-1 text-[10px] leading-tight text-slate-800 dark:bg-slate-900/80 dark:text-slate-100" style={{ top: t.top, borderLeft: `3px solid ${t.colour}` }} data-threshold={t.value}>
          {t.value}
        </span>
      ))}
    </>,
    plot.over,
  );
}

const numbers = new Map<string, Intl.NumberFormat>();
function numberOf(locale: string, digits: number | undefined): Intl.NumberFormat {
  const key = `${locale}|${digits ?? ""}`;
  let f = numbers.get(key);
  if (!f) numbers.set(key, (f = new Intl.NumberFormat(locale, digits === undefined ? { maximumFractionDigits: 3 } : { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f;
}

export interface ReadOutProps {
  plot: uPlot;
  idx: number;
  cols: (number | null)[][];
  vars: VariableInfo[];
  banded: boolean;
  hidden: ReadonlySet<string>;
  locale: string;
  timeZone: string;
  overlay?: ChartOverlay;
  texts: { title: string; noValue: string; minMax: (min: string, max: string) => string };
  /** Following another chart's cursor (crosshairSync.ts): the values only, kept inside the plot. */
  compact?: boolean;
}

/** Every shown series' value at the cursor with its time, and the bucket's min/max where the data is bucketed. */
export function ReadOut({ plot, idx, cols, vars, banded, hidden, locale, timeZone, overlay, texts, compact }: ReadOutProps) {
  const x = cols[0]?.[idx];
  if (x === undefined || x === null) return null;
  const n = vars.length;
  const left = plot.cursor.left ?? 0;
  const width = plot.over.clientWidth;
  const side = left < width / 2 ? { left: left + 14 } : { right: width - left + 14 };
  // Never wider than the room on its side of the cursor: a box cut off by the card says nothing.
  const room = Math.max(120, (left < width / 2 ? width - left : left) - 18);
  return createPortal(
    <div className={`pointer-events-none absolute top-1 z-10 overflow-hidden rounded-md border border-slate-300 bg-white/95 px-2 py-1 text-xs shadow-sm dark:border-slate-600 dark:bg-slate-900/95 ${compact ? "opacity-90" : ""}`} style={{ ...side, maxWidth: room }} role="status" aria-label={texts.title} data-testid="chart-readout" data-following={compact || undefined}>
      <div className="font-semibold tabular-nums" data-testid="readout-time">
        {overlay ? formatOffset(x * 1000 - overlay.origin) : formatDateTime(locale, timeZone, x * 1000)}
      </div>
      <ul>
        {vars.map((v, i) => {
          if (hidden.has(v.Id)) return null;
          const fmt = numberOf(locale, v.Precision);
          const value = cols[1 + i]?.[idx];
          const lo = banded ? cols[1 + n + i]?.[idx] : null;
          const hi = banded ? cols[1 + 2 * n + i]?.[idx] : null;
          const unit = v.Unit ? ` ${v.Unit}` : "";
          return (
            <li key={v.Id} className="flex items-baseline gap-1.5 whitespace-nowrap" data-variable={v.Name}>
              <span aria-hidden="true" className="inline-block h-2 w-2 shrink-0 rounded-sm" style={{ background: seriesStyle(i, overlay).colour }} />
              <span>{v.Name}:</span>
              <span className="font-mono tabular-nums" data-testid="readout-value">
                {value === null || value === undefined ? texts.noValue : `${fmt.format(value)}${unit}`}
              </span>
              {!compact && lo !== null && lo !== undefined && hi !== null && hi !== undefined && lo !== hi && <span className="text-slate-600 tabular-nums dark:text-slate-300">({texts.minMax(fmt.format(lo), fmt.format(hi))})</span>}
            </li>
          );
        })}
      </ul>
    </div>,
    plot.over,
  );
}
