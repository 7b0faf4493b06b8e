import { useT } from "~/ui/useT";
import { Link } from "react-router";
import type { HeaderAlerts as Alerts } from "~/services/header.server";
import { useFormatters } from "./format";
import { Icon } from "./Icon";

const TYPE_DOT: Record<string, string> = { Error: "bg-red-500", Warning: "bg-amber-500", Success: "bg-green-500", Info: "bg-sky-500" };

/** Header badges: active alarms (a link to Alarming) and a popover of the latest messages. */
export function HeaderAlerts({ alerts, alarms }: { alerts: Alerts; alarms: Alerts["alarms"] }) {
  const t = useT();
  const { dateTime } = useFormatters();
  return (
    <div className="flex items-center gap-1">
      {alarms === "unknown" ? <UnknownBell /> : alarms !== null && <AlarmBell {...alarms} />}
      {alerts.messages !== null && (
        <details data-menu className="relative">
          <summary className="list-none rounded-full p-2 hover:bg-black/5 dark:hover:bg-white/10" aria-label={t("header.messages")} title={t("header.messages")} data-testid="messages-popover">
            <Icon name="log" className="h-6 w-6" />
          </summary>
          <div className="absolute right-0 z-30 mt-2 w-80 rounded-md border border-slate-200 bg-white p-2 text-sm text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100">
            <div className="mb-1 px-2 font-semibold">{t("header.messagesTitle")}</div>
            {alerts.messages.length === 0 ? (
              <p className="px-2 py-3 text-slate-500">{t("header.noMessages")}</p>
            ) : (
              <ul className="divide-y divide-slate-100 dark:divide-slate-700">
                {alerts.messages.map((m) => (
                  <li key={m.ID} className="flex gap-2 px-2 py-2">
                    <span className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${TYPE_DOT[m.Type] ?? "bg-slate-400"}`} aria-hidden="true" />
                    <span className="min-w-0">
                      {/* Said in the reader's language by the server (app/services/shellTexts.server.ts). */}
                      <span className="block truncate">{m.Text}</span>
                      <span className="block text-xs text-slate-500">
                        {m.Sender}
                        {m.Topic ? ` · ${m.Topic}` : ""} · {dateTime(m.Timestamp)}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <Link to="/log" className="mt-1 block rounded px-2 py-1.5 text-center font-medium text-brand hover:bg-brand-light">
              {t("header.allMessages")}
            </Link>
          </div>
        </details>
      )}
    </div>
  );
}

/** The logger did not answer: no count (an old one could be untrue), but the bell says so (issue 26 §2). */
function UnknownBell() {
  const t = useT();
  const label = t("header.alarmsUnknown");
  return (
    <Link to="/alarming" className="relative rounded-full p-2 hover:bg-black/5 dark:hover:bg-white/10" data-testid="alarm-count" data-state="unknown" aria-label={label} title={label}>
      <Icon name="bell" className="h-6 w-6" />
      <span className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-slate-500 px-1 text-center text-xs font-bold leading-5 text-white" aria-hidden="true" data-testid="alarm-badge">
        ?
      </span>
    </Link>
  );
}

/**
 * The bell counts active alarms, acknowledged ones included; the badge is red and ringed while
 * some await acknowledgement, grey-blue when all are acknowledged (the label says both counts).
 * With none active but a returned one unacknowledged, the badge shows that one.
 */
function AlarmBell({ active, unacknowledged }: { active: number; unacknowledged: number }) {
  const t = useT();
  const label = `${t("header.activeAlarms", { count: active })}, ${t("header.unacknowledgedAlarms", { count: unacknowledged })}`;
  const shown = active > 0 ? active : unacknowledged;
  const badge = unacknowledged > 0 ? "bg-red-600 text-white ring-2 ring-red-300 dark:ring-red-800" : "bg-slate-600 text-white dark:bg-slate-300 dark:text-slate-900";
  return (
    <Link
      to="/alarming"
      className="relative rounded-full p-2 hover:bg-black/5 dark:hover:bg-white/10"
      data-testid="alarm-count"
      data-count={active}
      data-active={active}
      data-unacknowledged={unacknowledged}
      aria-label={label}
      title={label}
    >
      <Icon name="bell" className="h-6 w-6" />
      {shown > 0 && (
        <span className={`absolute -right-0.5 -top-0.5 min-w-5 rounded-full px-1 text-center text-xs font-bold leading-5 ${badge}`} aria-hidden="true" data-testid="alarm-badge" data-unacknowledged={unacknowledged > 0 || undefined}>
          {shown > 99 ? "99+" : shown}
        </span>
      )}
    </Link>
  );
}
