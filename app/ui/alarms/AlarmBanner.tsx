import { Form, Link, useLocation } from "react-router";
import type { AlarmFeed } from "./useAlarmFeed";
import { AlarmValues } from "./AlarmValues";
import { SeverityBadge } from "./SeverityBadge";
import { useT } from "~/ui/useT";

const TONE: Record<string, string> = {
  critical: "border-red-700 bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-50",
  high: "border-orange-500 bg-orange-50 text-orange-950 dark:bg-orange-950 dark:text-orange-50",
  medium: "border-amber-400 bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-50",
  low: "border-sky-400 bg-sky-50 text-sky-950 dark:bg-sky-950 dark:text-sky-50",
};

/**
 * Below the header on every page (issue 26 §4): the newest unacknowledged alarm of the highest
 * priority, how many await acknowledgement, and Acknowledge — a plain form post (the same gate as
 * Alarming checks the permission again). Without JavaScript it is as of the page load; with it the
 * alarm feed keeps it current. While the logger does not answer it says the state is unknown.
 */
export function AlarmBanner({ alarms }: { alarms: AlarmFeed }) {
  const t = useT();
  const location = useLocation();
  if (alarms === null) return null;
  if (alarms === "unknown") {
    return (
      <section aria-label={t("alarmBanner.label")} className="border-b-4 border-slate-500 bg-slate-100 px-4 py-2 text-sm font-semibold text-slate-900 dark:bg-slate-800 dark:text-slate-100" data-testid="alarm-banner" data-state="unknown">
        <p role="status">{t("alarmBanner.unknown")}</p>
      </section>
    );
  }
  const top = alarms.top;
  if (!top) return null;
  return (
    <section aria-label={t("alarmBanner.label")} className={`flex flex-wrap items-center gap-x-4 gap-y-1 border-b-4 px-4 py-2 text-sm ${TONE[top.Severity] ?? TONE.medium}`} data-testid="alarm-banner" data-alarm={top.Name} data-state={top.State} data-severity={top.Severity}>
      <p role="alert" className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1">
        <SeverityBadge severity={top.Severity} />
        <strong className="font-semibold">{top.Name}</strong>
        <span>{t(`alarmState.${top.State}`, { defaultValue: top.State })}</span>
        <AlarmValues alarm={top} />
        {alarms.unacknowledged > 1 && <span data-testid="alarm-banner-count">{t("alarmBanner.more", { count: alarms.unacknowledged - 1 })}</span>}
      </p>
      <Form method="post" action="/dashboard/acknowledge" className="flex items-center gap-3">
        <input type="hidden" name="intent" value="acknowledge" />
        <input type="hidden" name="id" value={top.ID} />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <button type="submit" className="rounded-md border border-current px-3 py-1 font-semibold hover:bg-black/10 phone:min-h-11" aria-label={t("alarmBanner.acknowledgeLabel", { name: top.Name })} data-testid="alarm-banner-ack">
          {t("alarmBanner.acknowledge")}
        </button>
        <Link to="/alarming" className="underline phone:inline-flex phone:min-h-11 phone:items-center">
          {t("alarmBanner.all")}
        </Link>
      </Form>
    </section>
  );
}
