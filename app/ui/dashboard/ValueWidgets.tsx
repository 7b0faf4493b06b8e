import { useT } from "~/ui/useT";
import type { Widget } from "~/schemas/dashboards";
import { useFormatters } from "~/ui/format";
import { Sparkline } from "~/ui/live/Sparkline";
import { COLOUR_HEX, SERIES, thresholdColour } from "./colours";
import type { SeriesData, VariableInfo } from "./types";

// Widgets that show current values: single value, gauge, bar, state lamp, table.

interface OneValue {
  widget: Widget;
  v: VariableInfo;
  value: number | null;
}

const precisionOf = (widget: Widget, v: VariableInfo) => widget.Options.Precision ?? v.Precision;

export function ValueWidget({ widget, v, value, series }: OneValue & { series?: SeriesData }) {
  const fmt = useFormatters();
  const colour = thresholdColour(value, widget.Options.Thresholds);
  return (
    <div className="flex h-full flex-col justify-center gap-1">
      <div className="font-mono text-4xl font-semibold tabular-nums" style={colour ? { color: colour } : undefined} data-testid="widget-value">
        {fmt.value(value, precisionOf(widget, v))} <span className="text-lg font-normal text-slate-500">{v.Unit}</span>
      </div>
      {widget.Options.Sparkline && series && <Sparkline values={series.values[0] ?? []} min={series.min?.[0]} max={series.max?.[0]} className="h-10 w-full" />}
    </div>
  );
}

/** Scale of a gauge or bar: the widget's own, else the variable's range. */
function scaleOf(widget: Widget, v: VariableInfo): [number, number] {
  const min = widget.Options.Min ?? v.RangeMin ?? 0;
  const max = widget.Options.Max ?? v.RangeMax ?? 100;
  return max > min ? [min, max] : [min, min + 1];
}

const fraction = (value: number | null, [min, max]: [number, number]) => (value === null ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min))));

export function GaugeWidget({ widget, v, value }: OneValue) {
  const fmt = useFormatters();
  const scale = scaleOf(widget, v);
  const f = fraction(value, scale);
  const colour = thresholdColour(value, widget.Options.Thresholds) ?? "var(--loggia-main, #3056a8)";
  // A half circle from the left (min) over the top to the right (max).
  const angle = Math.PI * (1 - f);
  const end = { x: 50 + 40 * Math.cos(angle), y: 50 - 40 * Math.sin(angle) };
  return (
    <div className="flex h-full flex-col items-center justify-center" role="meter" aria-label={v.Name} aria-valuemin={scale[0]} aria-valuemax={scale[1]} aria-valuenow={value ?? undefined}>
      <svg viewBox="0 0 100 58" className="max-h-full w-full" aria-hidden="true">
        <path d="M10 50 A40 40 0 0 1 90 50" fill="none" className="stroke-slate-200 dark:stroke-slate-700" strokeWidth={9} />
        {value !== null && f > 0 && <path d={`M10 50 A40 40 0 0 1 ${end.x.toFixed(2)} ${end.y.toFixed(2)}`} fill="none" stroke={colour} strokeWidth={9} />}
        <text x={10} y={57} fontSize={5} textAnchor="middle" className="fill-slate-500">
          {fmt.value(scale[0], precisionOf(widget, v))}
        </text>
        <text x={90} y={57} fontSize={5} textAnchor="middle" className="fill-slate-500">
          {fmt.value(scale[1], precisionOf(widget, v))}
        </text>
      </svg>
      <div className="-mt-6 font-mono text-2xl font-semibold tabular-nums" data-testid="widget-value">
        {fmt.value(value, precisionOf(widget, v))} <span className="text-sm font-normal text-slate-500">{v.Unit}</span>
      </div>
    </div>
  );
}

export function BarWidget({ widget, v, value }: OneValue) {
  const fmt = useFormatters();
  const scale = scaleOf(widget, v);
  const colour = thresholdColour(value, widget.Options.Thresholds) ?? "var(--loggia-main, #3056a8)";
  return (
    <div className="flex h-full flex-col justify-center gap-2">
      <div className="font-mono text-2xl font-semibold tabular-nums" data-testid="widget-value">
        {fmt.value(value, precisionOf(widget, v))} <span className="text-sm font-normal text-slate-500">{v.Unit}</span>
      </div>
      <div className="h-6 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700" role="meter" aria-label={v.Name} aria-valuemin={scale[0]} aria-valuemax={scale[1]} aria-valuenow={value ?? undefined}>
        <div className="h-full transition-[width]" style={{ width: `${(fraction(value, scale) * 100).toFixed(1)}%`, background: colour }} />
      </div>
      <div className="flex justify-between text-xs text-slate-500">
        <span>{fmt.value(scale[0], precisionOf(widget, v))}</span>
        <span>{fmt.value(scale[1], precisionOf(widget, v))}</span>
      </div>
    </div>
  );
}

export function LampWidget({ widget, value }: OneValue) {
  const t = useT();
  const states = widget.Options.States;
  const match = value === null ? undefined : states?.find((s) => s.Value === value);
  const colour = value === null ? null : match ? COLOUR_HEX[match.Color] : value !== 0 ? COLOUR_HEX.green : COLOUR_HEX.grey;
  const label = value === null ? t("dashboards.widget.noValue") : match ? match.Label : value !== 0 ? t("dashboards.widget.on") : t("dashboards.widget.off");
  return (
    <div className="flex h-full items-center gap-3" role="status">
      <span aria-hidden="true" className="h-8 w-8 shrink-0 rounded-full border border-black/10 shadow-inner" style={{ background: colour ?? "transparent" }} />
      <span className="text-lg font-semibold" data-testid="widget-value" data-value={value ?? ""}>
        {label}
      </span>
    </div>
  );
}

export function TableWidget({ widget, vars, values }: { widget: Widget; vars: VariableInfo[]; values: Record<string, number | null> }) {
  const t = useT();
  const fmt = useFormatters();
  return (
    <table className="w-full text-sm">
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
              <td className="py-1 text-right font-mono tabular-nums" data-testid="widget-value">
                {fmt.value(value, widget.Options.Precision ?? v.Precision)} <span className="text-slate-500">{v.Unit}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
