import { useT } from "~/ui/useT";
import type { Widget } from "~/schemas/dashboards";
import { useFormatters } from "~/ui/format";
import { NOT_LIVE_CLASS, type Freshness } from "~/ui/live/freshness";
import { Sparkline } from "~/ui/live/Sparkline";
import { COLOUR_HEX, SERIES, severityHex, thresholdColour } from "./colours";
import type { ChartLimit, SeriesData, VariableInfo } from "./types";

// Widgets that show current values: single value, gauge, bar, state lamp, table.

interface OneValue {
  widget: Widget;
  v: VariableInfo;
  value: number | null;
  /** The variable's alarm limits: marks on gauges and bars in the rule's priority colour (issue 26 §6). */
  limits?: readonly ChartLimit[];
  /**
   * On a wall display everything scales with the screen: the kiosk's root size is a share of the
   * viewport (app/ui/kiosk/tv.css), so sizes here are in rem — numbers ≥ 48 px at 1080p.
   */
  kiosk?: boolean;
}

const KIOSK_NUMBER = "text-[1.75rem]";
const KIOSK_UNIT = "text-[0.875rem]";

const precisionOf = (widget: Widget, v: VariableInfo) => widget.Options.Precision ?? v.Precision;

export function ValueWidget({ widget, v, value, kiosk, series }: OneValue & { series?: SeriesData }) {
  const fmt = useFormatters();
  const colour = thresholdColour(value, widget.Options.Thresholds);
  return (
    <div className="flex h-full flex-col justify-center gap-1">
      <div className={`font-mono font-semibold tabular-nums ${kiosk ? `${KIOSK_NUMBER} leading-none` : "text-4xl"}`} style={colour ? { color: colour } : undefined} data-testid="widget-value">
        {fmt.value(value, precisionOf(widget, v))} <span className={`font-normal text-slate-500 ${kiosk ? KIOSK_UNIT : "text-lg"}`}>{v.Unit}</span>
      </div>
      {widget.Options.Sparkline && series && <Sparkline values={series.values[0] ?? []} min={series.min?.[0]} max={series.max?.[0]} className={kiosk ? "min-h-8 w-full flex-1" : "h-10 w-full"} />}
    </div>
  );
}

/** Scale of a gauge or bar: the widget's own, else the variable's range. */
function scaleOf(widget: Widget, v: VariableInfo): [number, number] {
  const min = widget.Options.Min ?? v.RangeMin ?? 0;
  const max = widget.Options.Max ?? v.RangeMax ?? 100;
  return max > min ? [min, max] : [min, min + 1];
}

/** A meter needs a current value: without one it sits at the minimum and says "No value". */
function useMeterValue(value: number | null, [min]: [number, number]) {
  const t = useT();
  return { "aria-valuenow": value ?? min, "aria-valuetext": value === null ? t("dashboards.widget.noValue") : undefined };
}

const fraction = (value: number | null, [min, max]: [number, number]) => (value === null ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min))));

/** A point on the gauge's half circle at fraction f of its scale, at radius r. */
const arcPoint = (f: number, r: number) => ({ x: 50 + r * Math.cos(Math.PI * (1 - f)), y: 50 - r * Math.sin(Math.PI * (1 - f)) });

export function GaugeWidget({ widget, v, value, kiosk, limits = [] }: OneValue) {
  const fmt = useFormatters();
  const scale = scaleOf(widget, v);
  const meter = useMeterValue(value, scale);
  const f = fraction(value, scale);
  const colour = thresholdColour(value, widget.Options.Thresholds) ?? "var(--loggia-main, #3056a8)";
  // A half circle from the left (min) over the top to the right (max).
  const end = arcPoint(f, 40);
  const low = fmt.value(scale[0], precisionOf(widget, v));
  const high = fmt.value(scale[1], precisionOf(widget, v));
  const number = (
    <div className={`font-mono font-semibold tabular-nums ${kiosk ? "flex flex-col text-[1.5rem] leading-[1.15]" : "-mt-6 text-2xl"}`} data-testid="widget-value">
      {fmt.value(value, precisionOf(widget, v))} <span className={`font-normal text-slate-500 ${kiosk ? KIOSK_UNIT : "text-sm"}`}>{v.Unit}</span>
    </div>
  );
  const arc = (
    <svg viewBox={kiosk ? "0 0 100 51" : "0 0 100 58"} className={kiosk ? "min-h-0 w-full flex-1" : "max-h-full w-full"} aria-hidden="true">
      <path d="M10 50 A40 40 0 0 1 90 50" fill="none" className="stroke-slate-200 dark:stroke-slate-700" strokeWidth={9} />
      {/* Alarm limits: the alarm side of the scale as a thin band outside the arc, and a tick across it. */}
      {limits.map((l, k) => {
        const lf = fraction(l.Value, scale);
        if (l.Value < scale[0] || l.Value > scale[1]) return null;
        const [a, b] = l.Side === "high" ? [lf, 1] : [0, lf];
        const from = arcPoint(a, 46.5);
        const to = arcPoint(b, 46.5);
        const inner = arcPoint(lf, 34);
        const outer = arcPoint(lf, 49);
        const c = severityHex(l.Severity);
        return (
          <g key={k} data-limit={l.Value} data-side={l.Side} data-severity={l.Severity}>
            <title>{`${l.Name}: ${fmt.value(l.Value, precisionOf(widget, v))} ${v.Unit}`.trim()}</title>
            {b > a && <path d={`M${from.x.toFixed(2)} ${from.y.toFixed(2)} A46.5 46.5 0 0 1 ${to.x.toFixed(2)} ${to.y.toFixed(2)}`} fill="none" stroke={c} strokeWidth={2} />}
            <line x1={inner.x.toFixed(2)} y1={inner.y.toFixed(2)} x2={outer.x.toFixed(2)} y2={outer.y.toFixed(2)} stroke={c} strokeWidth={1.5} />
          </g>
        );
      })}
      {value !== null && f > 0 && <path d={`M10 50 A40 40 0 0 1 ${end.x.toFixed(2)} ${end.y.toFixed(2)}`} fill="none" stroke={colour} strokeWidth={9} />}
      {/* On a wall display the scale's ends are text of the page (below), at the kiosk's size. */}
      {!kiosk && (
        <>
          <text x={10} y={57} fontSize={5} textAnchor="middle" className="fill-slate-500">
            {low}
          </text>
          <text x={90} y={57} fontSize={5} textAnchor="middle" className="fill-slate-500">
            {high}
          </text>
        </>
      )}
    </svg>
  );
  return (
    <div className="flex h-full flex-col items-center justify-center" role="meter" aria-label={v.Name} aria-valuemin={scale[0]} aria-valuemax={scale[1]} {...meter}>
      {kiosk ? (
        // The arc takes the tile's height, the scale's ends under its feet (text of the page at
        // the kiosk's size, not SVG text shrinking with the arc), the number beside it: a wall
        // tile is wider than high, and so the arc stays most of the tile at every screen size.
        <div className="flex h-full min-h-0 w-full items-center justify-center gap-2">
          {/* As wide as the arc at the column's height (the labels' line below it included). */}
          <div className="flex aspect-[7/5] h-full min-h-0 min-w-0 flex-col items-stretch">
            {arc}
            <div className="flex justify-between gap-2 text-[0.75rem] leading-none text-slate-500">
              <span data-testid="gauge-min">{low}</span>
              <span data-testid="gauge-max">{high}</span>
            </div>
          </div>
          {number}
        </div>
      ) : (
        <>
          {arc}
          {number}
        </>
      )}
    </div>
  );
}

export function BarWidget({ widget, v, value, kiosk, limits = [] }: OneValue) {
  const fmt = useFormatters();
  const scale = scaleOf(widget, v);
  const meter = useMeterValue(value, scale);
  const colour = thresholdColour(value, widget.Options.Thresholds) ?? "var(--loggia-main, #3056a8)";
  return (
    <div className="flex h-full flex-col justify-center gap-2">
      <div className={`font-mono font-semibold tabular-nums ${kiosk ? KIOSK_NUMBER : "text-2xl"}`} data-testid="widget-value">
        {fmt.value(value, precisionOf(widget, v))} <span className={`font-normal text-slate-500 ${kiosk ? KIOSK_UNIT : "text-sm"}`}>{v.Unit}</span>
      </div>
      <div className={`relative w-full ${kiosk ? "h-[1rem]" : "h-6"} overflow-hidden rounded bg-slate-200 dark:bg-slate-700`} role="meter" aria-label={v.Name} aria-valuemin={scale[0]} aria-valuemax={scale[1]} {...meter}>
        {/* Scaled (no layout) and not tweened: a transition of its width laid the page out at every
            frame, a value every 250 ms — half of a live dashboard's main-thread time. */}
        <div className="h-full w-full origin-left" style={{ transform: `scaleX(${fraction(value, scale).toFixed(3)})`, background: colour }} />
        {/* Alarm limits: a mark at each, the alarm side underlined in the rule's priority colour. */}
        {limits.map((l, k) => {
          if (l.Value < scale[0] || l.Value > scale[1]) return null;
          const at = fraction(l.Value, scale) * 100;
          const c = severityHex(l.Severity);
          return (
            <span key={k} aria-hidden="true" title={`${l.Name}: ${fmt.value(l.Value, precisionOf(widget, v))} ${v.Unit}`.trim()} data-limit={l.Value} data-side={l.Side} data-severity={l.Severity}>
              <span className="absolute inset-y-0 w-0.5" style={{ left: `calc(${at.toFixed(1)}% - 1px)`, background: c }} />
              <span className="absolute bottom-0 h-1" style={l.Side === "high" ? { left: `${at.toFixed(1)}%`, right: 0, background: c } : { left: 0, width: `${at.toFixed(1)}%`, background: c }} />
            </span>
          );
        })}
      </div>
      <div className="flex justify-between text-xs text-slate-500">
        <span>{fmt.value(scale[0], precisionOf(widget, v))}</span>
        <span>{fmt.value(scale[1], precisionOf(widget, v))}</span>
      </div>
    </div>
  );
}

export function LampWidget({ widget, value, kiosk }: OneValue) {
  const t = useT();
  const states = widget.Options.States;
  const match = value === null ? undefined : states?.find((s) => s.Value === value);
  const colour = value === null ? null : match ? COLOUR_HEX[match.Color] : value !== 0 ? COLOUR_HEX.green : COLOUR_HEX.grey;
  const label = value === null ? t("dashboards.widget.noValue") : match ? match.Label : value !== 0 ? t("dashboards.widget.on") : t("dashboards.widget.off");
  return (
    <div className="flex h-full items-center gap-3" role="status">
      <span aria-hidden="true" className={`shrink-0 rounded-full border border-black/10 shadow-inner ${kiosk ? "size-[0.75rem]" : "h-8 w-8"}`} style={{ background: colour ?? "transparent" }} />
      <span className={`font-semibold ${kiosk ? "text-[0.8125rem] leading-[1.1]" : "text-lg"}`} data-testid="widget-value" data-value={value ?? ""}>
        {label}
      </span>
    </div>
  );
}

export function TableWidget({ widget, vars, values, kiosk, freshness }: { widget: Widget; vars: VariableInfo[]; values: Record<string, number | null>; kiosk?: boolean; freshness?: Record<string, Freshness> }) {
  const t = useT();
  const fmt = useFormatters();
  return (
    <table className={`w-full ${kiosk ? "text-[0.8125rem] leading-tight" : "text-sm"}`}>
      <thead className="sr-only">
        <tr>
          <th scope="col">{t("dashboards.widget.variable")}</th>
          <th scope="col">{t("dashboards.widget.value")}</th>
        </tr>
      </thead>
      <tbody>
        {vars.map((v, i) => {
          const value = values[v.Id] ?? null;
          return (
            <tr key={v.Id} className="border-b border-slate-100 last:border-0 dark:border-slate-700">
              <th scope="row" className="py-1 pr-2 text-left font-normal">
                <span aria-hidden="true" className="mr-2 inline-block h-2 w-2 rounded-full" style={{ background: SERIES[i % SERIES.length] }} />
                {v.Name}
              </th>
              <td className={`py-1 text-right font-mono tabular-nums ${freshness?.[v.Id] && freshness[v.Id] !== "live" ? NOT_LIVE_CLASS : ""}`} data-testid="widget-value" data-freshness={freshness?.[v.Id]}>
                {fmt.value(value, widget.Options.Precision ?? v.Precision)} <span className="text-slate-500">{v.Unit}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
