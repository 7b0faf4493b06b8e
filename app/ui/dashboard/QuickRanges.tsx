import { Link } from "react-router";
import { QUICK_RANGES, type RangePreset } from "~/schemas/dashboardConstants";
import { useT } from "~/ui/useT";

// Quick ranges, zoom out and back as plain links (GET URLs): they work without JavaScript, and
// with it each is a client navigation, so the browser's Back returns to the previous range too.

const linkClass =
  "shrink-0 rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand aria-[current]:border-brand aria-[current]:bg-brand aria-[current]:text-on-brand dark:border-slate-600 dark:hover:bg-slate-700";

/** The `back` parameter: the range a link leaves, as "1h" (a preset) or "from~to" (epoch ms). */
export function rangeToken(range: { from: number; to: number; preset: RangePreset | null }): string {
  return range.preset ?? `${Math.round(range.from)}~${Math.round(range.to)}`;
}

/** A `back` token read back: a preset or an absolute range; null when it is neither. */
export function parseRangeToken(token: string | null): { preset: string } | { from: number; to: number } | null {
  if (!token) return null;
  const m = /^(\d{1,15})~(\d{1,15})$/.exec(token);
  if (m) return +m[2]! > +m[1]! ? { from: +m[1]!, to: +m[2]! } : null;
  return /^[0-9]{1,3}[mhd]$/.test(token) ? { preset: token } : null;
}

/** Twice the span: around the centre for a fixed range, back from its end for one that ends now. */
export function zoomedOut(range: { from: number; to: number; preset: RangePreset | null }): { from: number; to: number } {
  const span = range.to - range.from;
  if (range.preset) return { from: Math.round(range.to - 2 * span), to: Math.round(range.to) };
  const centre = (range.from + range.to) / 2;
  return { from: Math.round(centre - span), to: Math.round(centre + span) };
}

export function QuickRanges({ current, presetHref, zoomOutHref, backHref }: { current: RangePreset | null; presetHref(p: RangePreset): string; zoomOutHref: string; backHref: string | null }) {
  const t = useT();
  return (
    <nav aria-label={t("dashboards.range.quick")} className="flex max-w-full gap-1 overflow-x-auto py-0.5" data-testid="quick-ranges">
      {QUICK_RANGES.map((p) => (
        <Link key={p} to={presetHref(p)} preventScrollReset aria-current={current === p ? "true" : undefined} className={linkClass} data-range={p}>
          {t(`dashboards.range.${p}`)}
        </Link>
      ))}
      <Link to={zoomOutHref} preventScrollReset className={linkClass} data-testid="zoom-out">
        {t("dashboards.range.zoomOut")}
      </Link>
      {backHref && (
        <Link to={backHref} preventScrollReset className={linkClass} data-testid="range-back">
          {t("dashboards.range.back")}
        </Link>
      )}
    </nav>
  );
}
