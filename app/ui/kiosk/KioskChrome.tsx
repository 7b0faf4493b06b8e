import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { AlarmValues } from "~/ui/alarms/AlarmValues";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { useConnection } from "~/ui/connection/connection";
import { useFormatters } from "~/ui/format";
import { LiveBadge, ReasonText, useAge } from "~/ui/live/LiveBadge";
import type { QualitySummary } from "~/ui/live/quality";
import { useRootData } from "~/ui/rootData";
import { withTimeConvention } from "~/ui/timeConvention";
import { useT } from "~/ui/useT";
import type { KioskAlarms } from "./kiosk.server";
import type { CyclePlan } from "./kioskCycle";

// What only a wall display shows (issue 15 §5): a clock, the outage strip, the alarm strip, the
// rotation. Rendered by the server (complete without JavaScript); in the browser this module is
// fetched on its own, so the ordinary dashboard does not carry it.

export interface KioskChromeProps {
  name: string;
  badge: Pick<QualitySummary, "state" | "ageMs" | "reason"> | null;
  /** The server's clock at the render: the clock starts there, so the first render matches. */
  renderedAt: number;
  alarms: KioskAlarms | null;
  cycle: CyclePlan | null;
  /** The logger is away and nothing of this dashboard is remembered: the strip says so. */
  nothing?: boolean;
  /** The alarm annunciator's control (the dashboard's, given here so its code is not a chunk of its own). */
  annunciator?: React.ReactNode;
}

export function KioskChrome({ name, badge, renderedAt, alarms, cycle, nothing = false, annunciator }: KioskChromeProps) {
  useCycle(cycle);
  // This display lost the console: the picture is the last one it got, and it says so (issue 26 §1).
  const connection = useConnection();
  const reconnecting = connection.reconnecting;
  const shown = reconnecting ? { state: "reconnecting" as const, ageMs: null, reason: null } : badge;
  // With the data offline, alarms from before could be untrue now: their state is unknown.
  const unknown = reconnecting || badge?.state === "offline" || (alarms !== null && "unknown" in alarms);
  return (
    <>
      <div className="flex shrink-0 items-center justify-between gap-4">
        <h1 className="truncate text-[1.125rem] font-semibold">{name}</h1>
        <div className="flex items-center gap-6">
          {shown && <LiveBadge state={shown.state} ageMs={shown.ageMs} reason={shown.reason} className="text-[0.875rem]" />}
          {annunciator}
          <Clock renderedAt={renderedAt} />
        </div>
      </div>
      {reconnecting ? <Reconnecting lastOkAt={connection.lastOkAt} /> : badge && badge.state !== "live" && <Outage state={badge.state} ageMs={badge.ageMs} reason={badge.reason} nothing={nothing} />}
      {alarms && <AlarmStrip alarms={unknown ? { unknown: true } : alarms} />}
    </>
  );
}

function Reconnecting({ lastOkAt }: { lastOkAt: number }) {
  const t = useT();
  const { clock } = useFormatters();
  return (
    <p role="alert" className="shrink-0 rounded-md bg-amber-300 px-4 py-2 text-center text-[1rem] font-semibold text-amber-950" data-testid="kiosk-outage" data-state="reconnecting">
      {lastOkAt ? t("connection.networkSince", { time: clock(lastOkAt) }) : t("connection.network")}
    </p>
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
      <span className="text-[0.875rem] text-slate-600 dark:text-slate-300">{day}</span>
      <span className="text-[1.25rem] font-semibold">{time}</span>
    </time>
  );
}

function Outage({ state, ageMs, reason, nothing }: { state: "stale" | "offline"; ageMs: number | null; reason: QualitySummary["reason"]; nothing: boolean }) {
  const t = useT();
  const age = useAge(ageMs);
  const colour = state === "offline" ? "bg-red-700 text-white" : "bg-amber-300 text-amber-950";
  return (
    <p role="alert" className={`shrink-0 rounded-md px-4 py-2 text-center text-[1rem] font-semibold ${colour}`} data-testid="kiosk-outage" data-state={state} data-reason={reason?.kind}>
      {nothing ? t("kiosk.outage.nothing") : age ? t(`kiosk.outage.${state}`, { age }) : t(`kiosk.outage.${state}NoAge`)}
      {!nothing && state === "stale" && reason && (
        <span className="block text-[0.85em] font-medium" data-testid="kiosk-outage-reason">
          <ReasonText reason={reason} />
        </span>
      )}
    </p>
  );
}

function AlarmStrip({ alarms }: { alarms: KioskAlarms }) {
  const t = useT();
  const body =
    "unknown" in alarms ? (
      <p className="font-semibold text-slate-800 dark:text-slate-100" data-testid="kiosk-alarms-unknown">
        {t("alarmBanner.unknown")}
      </p>
    ) : "error" in alarms ? (
      <p className="text-red-800 dark:text-red-300">{t("dashboards.alarms.failed", { error: alarms.error.startsWith("dashboards.") ? t(alarms.error) : alarms.error })}</p>
    ) : alarms.rows.length === 0 ? (
      <p className="text-slate-600 dark:text-slate-300">{t("dashboards.alarms.none")}</p>
    ) : (
      <ul className="flex min-w-0 flex-1 flex-wrap items-center gap-x-6 gap-y-1">
        {alarms.rows.map((a) => (
          <li key={a.ID} className="flex min-w-0 flex-wrap items-center gap-x-2" data-testid="kiosk-alarm" data-alarm={a.Name} data-state={a.State}>
            <SeverityBadge severity={a.Severity} />
            <span className="truncate font-semibold">{a.Name}</span>
            <AlarmValues alarm={a} className="text-slate-700 dark:text-slate-200" />
            <span className="text-slate-600 dark:text-slate-300">({t(`alarmState.${a.State}`)})</span>
          </li>
        ))}
        {alarms.total > alarms.rows.length && <li className="text-slate-600 dark:text-slate-300">{t("dashboards.alarms.more", { count: alarms.total - alarms.rows.length })}</li>}
      </ul>
    );
  return (
    <section aria-label={t("kiosk.alarms")} className="flex shrink-0 items-center gap-4 rounded-md bg-white px-4 py-2 text-[0.875rem] shadow-sm dark:bg-slate-800" data-testid="kiosk-alarms" data-state={"unknown" in alarms ? "unknown" : undefined}>
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
