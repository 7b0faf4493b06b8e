import { useEffect, useState } from "react";
import { useConnection } from "~/ui/connection/connection";
import { useFormatters } from "~/ui/format";
import { useRootData } from "~/ui/rootData";
import { useT } from "~/ui/useT";
import type { Freshness } from "./freshness";
import type { QualityReason } from "./quality";
import type { LiveState } from "./useLiveValues";

export type BadgeState = LiveState | Freshness | "reconnecting";

const DOT: Record<BadgeState, string> = { live: "bg-green-500", stale: "bg-amber-500", offline: "bg-red-500", connecting: "bg-slate-400", reconnecting: "bg-amber-500 animate-pulse" };

/**
 * Live / stale / offline badge of a page, with how old the values are when they are not live
 * ("Stale · 12 s") and why, where it is known ("acquisition stopped by admin at 00:54"; issue 26
 * §3). Rendered by the server too, from the values' timestamps, so a page without JavaScript
 * tells the truth; only "connecting" waits for JavaScript (without it nothing ever connects).
 * "reconnecting": this browser lost the console; the values are the last ones it got.
 */
export function LiveBadge({ state: judged, ageMs, reason = null, className = "" }: { state: BadgeState; ageMs?: number | null; reason?: QualityReason | null; className?: string }) {
  const t = useT();
  const age = useAge(ageMs);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // This browser lost the console: whatever the values were, they are the last ones it got.
  const state: BadgeState = useConnection().reconnecting && judged !== "connecting" ? "reconnecting" : judged;
  if (state === "connecting" && !hydrated) return null;
  const name = t(`liveState.${state}`);
  const why = state === "live" || state === "connecting" ? null : reason;
  return (
    <span className={`flex flex-wrap items-center gap-x-2 text-sm text-slate-600 dark:text-slate-300 ${className}`} data-testid="live-state" data-state={state} data-age-ms={ageMs ?? undefined} data-reason={why?.kind}>
      <span aria-hidden="true" className={`h-2 w-2 shrink-0 rounded-full ${DOT[state]}`} />
      {/* The state is announced when it changes; the age ticks every second, so it is not. */}
      <span role="status">{name}</span>{" "}
      {age && (state === "stale" || state === "offline") && <span data-testid="live-age">· {age}</span>}
      {why && (
        <span data-testid="live-reason">
          · <ReasonText reason={why} />
        </span>
      )}
    </span>
  );
}

/** Why values are not current, in words: "acquisition stopped by admin at 00:54", "Weather station disconnected". */
export function ReasonText({ reason }: { reason: QualityReason }) {
  const t = useT();
  const fmt = useFormatters();
  switch (reason.kind) {
    case "stopped": {
      if (reason.at === null) return <>{t("quality.stopped")}</>;
      // Today's stop by its time of day, an older one with its date.
      const when = Date.now() - reason.at < 20 * 3600_000 ? fmt.clock(reason.at) : fmt.dateTime(reason.at);
      return <>{reason.by ? t("quality.stoppedBy", { by: reason.by, time: when }) : t("quality.stoppedAt", { time: when })}</>;
    }
    case "disconnected":
      return <>{t("quality.disconnected", { device: reason.device })}</>;
    case "logger":
      return <>{t("quality.logger")}</>;
    case "network":
      return <>{t("quality.network")}</>;
  }
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
