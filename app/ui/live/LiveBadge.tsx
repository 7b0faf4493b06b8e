import { useEffect, useState } from "react";
import { useRootData } from "~/ui/rootData";
import { useT } from "~/ui/useT";
import type { Freshness } from "./freshness";
import type { LiveState } from "./useLiveValues";

export type BadgeState = LiveState | Freshness;

const DOT: Record<BadgeState, string> = { live: "bg-green-500", stale: "bg-amber-500", offline: "bg-red-500", connecting: "bg-slate-400" };

/**
 * Live / stale / offline badge, with how old the values are when they are not live ("Stale ·
 * 12 s"). Rendered by the server too, from the values' timestamps, so a page without JavaScript
 * tells the truth; only "connecting" waits for JavaScript (without it nothing ever connects).
 */
export function LiveBadge({ state, ageMs, className = "" }: { state: BadgeState; ageMs?: number | null; className?: string }) {
  const t = useT();
  const age = useAge(ageMs);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (state === "connecting" && !hydrated) return null;
  const name = t(`liveState.${state}`);
  return (
    <span className={`flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300 ${className}`} data-testid="live-state" data-state={state} data-age-ms={ageMs ?? undefined}>
      <span aria-hidden="true" className={`h-2 w-2 shrink-0 rounded-full ${DOT[state]}`} />
      {/* The state is announced when it changes; the age ticks every second, so it is not. */}
      <span role="status">{name}</span>{" "}
      {age && (state === "stale" || state === "offline") && <span data-testid="live-age">· {age}</span>}
    </span>
  );
}

/** "12 s", "3 min", "2 h", "1 d" in the user's locale (Intl units). */
export function useAge(ageMs: number | null | undefined): string | null {
  const locale = useRootData()?.localeId ?? "en-US";
  if (ageMs === null || ageMs === undefined || !Number.isFinite(ageMs)) return null;
  return formatAge(ageMs, locale);
}

export function formatAge(ageMs: number, locale: string): string {
  const s = Math.max(0, Math.floor(ageMs / 1000));
  const [n, unit] = s < 120 ? [s, "second"] : s < 7200 ? [Math.floor(s / 60), "minute"] : s < 172_800 ? [Math.floor(s / 3600), "hour"] : [Math.floor(s / 86_400), "day"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short" }).format(n);
}
