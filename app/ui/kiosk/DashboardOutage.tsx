import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { useT } from "~/ui/useT";
import { KioskSlot } from "./KioskSlot";

/** Seconds between tries while a dashboard is drawn from memory with the logger away (with and without JavaScript). */
export const OUTAGE_RETRY_S = 10;

/** The <meta refresh> that brings a page without JavaScript back once the logger answers again. */
export function OutageRefresh() {
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(OUTAGE_RETRY_S)} />
    </noscript>
  );
}

/**
 * With JavaScript: the page polls (every AWAY_POLL_MS); the first answer that is not "offline"
 * means the logger is back, and every loader runs again (its shell was drawn from memory too) —
 * a revalidation, not a reload: a reload while the network is still shaky can land on the
 * browser's own error page, a revalidation waits and retries (issue 26 §1).
 */
export function useOutageRecovery(outage: boolean, answer: { offline?: boolean; outage?: boolean }, stillAway: boolean) {
  const back = outage && !stillAway && !answer.offline && answer.outage === false;
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (back) void latest.current.revalidate();
  }, [back]);
}

/** Nothing remembered of this dashboard: the kiosk's chrome with its outage strip, or a heading and the notice. */
export function DashboardOutage({ kiosk, renderedAt }: { kiosk: boolean; renderedAt: number }) {
  const t = useT();
  if (kiosk) return <KioskSlot name={t("dashboard.title")} badge={{ state: "offline", ageMs: null, reason: { kind: "logger" } }} renderedAt={renderedAt} alarms={null} cycle={null} nothing />;
  return (
    <>
      <h1 className="text-2xl font-semibold">{t("dashboard.title")}</h1>
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="dashboard-outage">
        {t("kiosk.outage.nothing")}
      </p>
    </>
  );
}
