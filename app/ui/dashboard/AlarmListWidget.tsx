import { Form, Link, useLocation } from "react-router";
import { AlarmValues } from "~/ui/alarms/AlarmValues";
import { SeverityBadge } from "~/ui/alarms/SeverityBadge";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";
import type { AlarmItem } from "./types";

// States a wall display must tell apart at a glance: the words say it, the weight and colour help.
const STATE_CLASS: Record<string, string> = {
  ActiveUnacknowledged: "font-semibold text-red-800 dark:text-red-300",
  ReturnedUnacknowledged: "font-semibold text-amber-800 dark:text-amber-300",
  ActiveAcknowledged: "text-slate-800 dark:text-slate-100",
  Shelved: "italic text-slate-500 dark:text-slate-400",
};

const awaitsAck = (state: string) => state === "ActiveUnacknowledged" || state === "ReturnedUnacknowledged";

/**
 * An alarm list widget's rows, or "No active alarms"; a link to Alarming when `link`. Rows come
 * only to viewers who may use Alarming (the loader's gate), which is also the permission to
 * acknowledge, so outside the kiosk (`link`) each alarm awaiting it gets an Acknowledge button:
 * a plain form post to /dashboard/acknowledge, which checks the permission again (403).
 */
export function AlarmListWidget({ rows, total, link, acknowledge = link }: { rows: AlarmItem[]; total: number; link: boolean; acknowledge?: boolean }) {
  const t = useT();
  const { dateTime } = useFormatters();
  const location = useLocation();
  const columns = ["severity", "state", "name", "variable", "value", "since"] as const;
  const canAck = acknowledge && rows.some((a) => awaitsAck(a.State));
  return (
    <div className="flex h-full min-h-0 flex-col gap-1">
      {/* Without links (a wall display) the rows have nothing to focus: the list itself takes the
          keyboard, so more alarms than fit can be scrolled to (axe: scrollable-region-focusable). */}
      {/* Outside the kiosk a phone shows each alarm as a card (issue 28 §3, `.data-cards` in app.css). */}
      <div className={`min-h-0 flex-1 overflow-auto focus-visible:outline-2 focus-visible:outline-brand ${link ? "data-cards" : ""}`} tabIndex={link ? undefined : 0} role={link ? undefined : "region"} aria-label={link ? undefined : t("dashboards.types.alarms")}>
        {rows.length === 0 ? (
          <p className="flex h-full items-center justify-center text-center text-sm text-slate-500 lg:text-base" data-testid="widget-empty">
            {t("dashboards.alarms.none")}
          </p>
        ) : (
          <table className="w-full text-left text-sm lg:text-base" data-testid="widget-alarms">
            <thead className="sticky top-0 bg-white text-xs text-slate-500 dark:bg-slate-800 dark:text-slate-400">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="px-2 py-1 font-medium">
                    {t(`dashboards.alarms.${c}`)}
                  </th>
                ))}
                {canAck && (
                  <th scope="col" className="px-2 py-1 font-medium">
                    <span className="sr-only">{t("operator.alarms.actions")}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.ID} className="border-t border-slate-100 align-middle dark:border-slate-700" data-alarm={a.Name} data-state={a.State} data-testid="widget-alarm">
                  <Field label={t("dashboards.alarms.severity")}>
                    <SeverityBadge severity={a.Severity} />
                  </Field>
                  <Field label={t("dashboards.alarms.state")} className={STATE_CLASS[a.State] ?? ""} testId="widget-alarm-state">
                    {t(`alarmState.${a.State}`, { defaultValue: a.State })}
                  </Field>
                  <Field label={t("dashboards.alarms.name")} className="font-medium">
                    {a.Name}
                  </Field>
                  <Field label={t("dashboards.alarms.variable")}>{a.VariableName}</Field>
                  <Field label={t("dashboards.alarms.value")}>
                    <AlarmValues alarm={a} named={false} />
                  </Field>
                  <Field label={t("dashboards.alarms.since")} className="whitespace-nowrap tabular-nums">
                    {dateTime(a.Since)}
                  </Field>
                  {canAck && (
                    <td className="px-2 py-1">
                      {awaitsAck(a.State) && (
                        <Form method="post" action="/dashboard/acknowledge">
                          <input type="hidden" name="intent" value="acknowledge" />
                          <input type="hidden" name="id" value={a.ID} />
                          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
                          <button type="submit" className="rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-100 phone:min-h-11 phone:min-w-11 phone:px-3 phone:text-sm dark:border-slate-500 dark:hover:bg-slate-700" aria-label={t("operator.alarms.acknowledgeLabel", { name: a.Name })}>
                            {t("operator.alarms.acknowledge")}
                          </button>
                        </Form>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {(total > rows.length || link) && (
        <p className="flex flex-wrap justify-between gap-2 text-xs text-slate-500">
          <span>{total > rows.length ? t("dashboards.alarms.more", { count: total - rows.length }) : ""}</span>
          {link && (
            <Link to="/alarming" className="text-brand hover:underline" data-testid="widget-alarming-link">
              {t("dashboards.alarms.open")}
            </Link>
          )}
        </p>
      )}
    </div>
  );
}

/** A cell with its column's label, shown only when the list is a phone's cards. */
function Field({ label, className = "", testId, children }: { label: string; className?: string; testId?: string; children: React.ReactNode }) {
  return (
    <td className={`px-2 py-1 ${className}`} data-label={label} data-testid={testId}>
      <div className="contents phone:block phone:min-w-0">{children}</div>
    </td>
  );
}
