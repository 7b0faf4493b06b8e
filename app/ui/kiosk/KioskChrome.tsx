import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { useFormatters } from "~/ui/format";
import { LiveBadge, useAge } from "~/ui/live/LiveBadge";
import type { FreshnessSummary } from "~/ui/live/freshness";
import { useRootData } from "~/ui/rootData";
import { withTimeConvention } from "~/ui/timeConvention";
import { useT } from "~/ui/useT";
import type { AlarmItem } from "~/ui/dashboard/types";
import type { CyclePlan } from "./kioskCycle";

// What only a wall display shows (issue 15 §5): a clock, the outage strip, the alarm strip, the
// rotation. Rendered by the server (complete without JavaScript); in the browser this module is
// fetched on its own, so the ordinary dashboard does not carry it.

export interface KioskChromeProps {
  name: string;
  badge: Pick<FreshnessSummary, "state" | "ageMs"> | null;
  /** The server's clock at the render: the clock starts there, so the first render matches. */
  renderedAt: number;
  alarms: { rows: AlarmItem[]; total: number } | { error: string } | null;
  cycle: CyclePlan | null;
  /** The logger is away and nothing of this dashboard is remembered: the strip says so. */
  nothing?: boolean;
}

export function KioskChrome({ name, badge, renderedAt, alarms, cycle, nothing = false }: KioskChromeProps) {
  useCycle(cycle);
  return (
    <>
      <div className="flex shrink-0 items-center justify-between gap-4">
        <h1 className="truncate text-[clamp(1.25rem,2.6vh,4rem)] font-semibold">{name}</h1>
        <div className="flex items-center gap-6">
          {badge && <LiveBadge state={badge.state} ageMs={badge.ageMs} className="text-[clamp(1rem,1.8vh,2.5rem)]" />}
          <Clock renderedAt={renderedAt} />
        </div>
      </div>
      {badge && badge.state !== "live" && <Outage state={badge.state} ageMs={badge.ageMs} nothing={nothing} />}
      {alarms && <AlarmStrip alarms={alarms} />}
    </>
  );
}

/** Hours and minutes in the user's (else the site's) zone, 24-hour; ticks with JavaScript. */
function Clock({ renderedAt }: { renderedAt: number }) {
  const t = useT();
  const root = useRootData();
  const zone = root?.timeZone ?? "UTC";
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, []);
  const locale = root?.localeId ?? "en-US";
  const date = new Date(now);
  const time = new Intl.DateTimeFormat(locale, withTimeConvention({ hour: "2-digit", minute: "2-digit", timeZone: zone })).format(date);
  const day = new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", timeZone: zone }).format(date);
  return (
    <time dateTime={date.toISOString()} className="flex items-baseline gap-3 font-mono tabular-nums" data-testid="kiosk-clock" data-zone={zone} title={t("kiosk.clock", { zone })}>
      <span className="text-[clamp(1rem,1.8vh,2.5rem)] text-slate-600 dark:text-slate-300">{day}</span>
      <span className="text-[clamp(1.5rem,3.4vh,5rem)] font-semibold">{time}</span>
    </time>
  );
}

function Outage({ state, ageMs, nothing }: { state: "stale" | "offline"; ageMs: number | null; nothing: boolean }) {
  const t = useT();
  const age = useAge(ageMs);
  const colour = state === "offline" ? "bg-red-700 text-white" : "bg-amber-300 text-amber-950";
  return (
    <p role="alert" className={`shrink-0 rounded-md px-4 py-2 text-center text-[clamp(1rem,2.2vh,3rem)] font-semibold ${colour}`} data-testid="kiosk-outage" data-state={state}>
      {nothing ? t("kiosk.outage.nothing") : age ? t(`kiosk.outage.${state}`, { age }) : t(`kiosk.outage.${state}NoAge`)}
    </p>
  );
}

function AlarmStrip({ alarms }: { alarms: NonNullable<KioskChromeProps["alarms"]> }) {
  const t = useT();
  const fmt = useFormatters();
  const body =
    "error" in alarms ? (
      <p className="text-red-800 dark:text-red-300">{t("dashboards.alarms.failed", { error: alarms.error })}</p>
    ) : alarms.rows.length === 0 ? (
      <p className="text-slate-600 dark:text-slate-300">{t("dashboards.alarms.none")}</p>
    ) : (
      <ul className="flex min-w-0 flex-1 flex-wrap items-center gap-x-6 gap-y-1">
        {alarms.rows.map((a) => (
          <li key={a.ID} className="flex min-w-0 items-center gap-2" data-testid="kiosk-alarm" data-alarm={a.Name} data-state={a.State}>
            <SeverityBadge severity={a.Severity} />
            <span className="truncate font-semibold">{a.Name}</span>
            <span className="truncate text-slate-600 dark:text-slate-300">
              {a.VariableName} {fmt.value(a.Value)} {a.Unit}
            </span>
            <span className="text-slate-600 dark:text-slate-300">({t(`alarmState.${a.State}`)})</span>
          </li>
        ))}
        {alarms.total > alarms.rows.length && <li className="text-slate-600 dark:text-slate-300">{t("dashboards.alarms.more", { count: alarms.total - alarms.rows.length })}</li>}
      </ul>
    );
  return (
    <section aria-label={t("kiosk.alarms")} className="flex shrink-0 items-center gap-4 rounded-md bg-white px-4 py-2 text-[clamp(1rem,2vh,2.75rem)] shadow-sm dark:bg-slate-800" data-testid="kiosk-alarms">
      <h2 className="shrink-0 font-semibold">{t("kiosk.alarms")}</h2>
      {body}
    </section>
  );
}

/** With JavaScript: on to the next dashboard after the cycle (the <meta refresh> does it without). */
function useCycle(cycle: CyclePlan | null) {
  const navigate = useNavigate();
  const next = cycle?.next;
  const leftS = cycle?.leftS;
  useEffect(() => {
    if (!next || !leftS) return;
    const timer = setTimeout(() => void navigate(next), leftS * 1000);
    return () => clearTimeout(timer);
  }, [next, leftS, navigate]);
}
