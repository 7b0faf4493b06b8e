import { useEffect, useState } from "react";
import type { Freshness } from "~/ui/live/freshness";
import { useRootData } from "./rootData";
import { useT } from "./useT";

// The per-value "Stale · 12 s" / "Offline" badge of Project State, Variable Overview and Struct
// View (issue 15 §1). Rendered by the server from the values' timestamps, so it tells the truth
// without JavaScript; with JavaScript the clock ticks and the age grows while nothing arrives.

const UNITS: [Intl.NumberFormatOptions["unit"], number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** An age as one short unit in the user's locale ("12 sec", "3 min"; Italian "12 s"). */
export function ageText(ageMs: number, locale: string): string {
  const [unit, size] = UNITS.find(([, ms]) => ageMs >= ms) ?? UNITS.at(-1)!;
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 0 }).format(Math.max(0, Math.floor(ageMs / size)));
}

/** The time the page judges freshness at: the server's render time, then (with JS and `tick`) the clock. */
export function useNow(renderedAt: number, tick: boolean): number {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => setNow(renderedAt), [renderedAt]);
  useEffect(() => {
    if (!tick) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [tick]);
  return now;
}

/** Nothing while live; else the state's name and, when known, how old the value is. */
export function FreshnessBadge({ freshness, ageMs, id }: { freshness: Freshness; ageMs: number | null; id?: string }) {
  const t = useT();
  const locale = useRootData()?.localeId ?? "en-US";
  if (freshness === "live") return null;
  const age = ageMs === null ? null : ageText(ageMs, locale);
  const colour = freshness === "offline" ? "border-red-300 text-red-800 dark:border-red-700 dark:text-red-200" : "border-amber-300 text-amber-900 dark:border-amber-600 dark:text-amber-200";
  return (
    <span id={id} className={`ml-2 inline-block whitespace-nowrap rounded border px-1.5 text-xs font-medium ${colour}`} data-testid="freshness-badge" data-state={freshness}>
      {age ? t(`operator.freshness.${freshness}Age`, { age }) : t(`operator.freshness.${freshness}`)}
    </span>
  );
}
