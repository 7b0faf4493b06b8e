import { Link } from "react-router";
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

/** An alarm list widget's rows, or "No active alarms"; a link to Alarming when `link`. */
export function AlarmListWidget({ rows, total, link }: { rows: AlarmItem[]; total: number; link: boolean }) {
  const t = useT();
  const { dateTime, value } = useFormatters();
  const columns = ["severity", "state", "name", "variable", "value", "since"] as const;
  return (
    <div className="flex h-full min-h-0 flex-col gap-1">
      <div className="min-h-0 flex-1 overflow-auto">
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
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.ID} className="border-t border-slate-100 align-middle dark:border-slate-700" data-alarm={a.Name} data-state={a.State} data-testid="widget-alarm">
                  <td className="px-2 py-1">
                    <SeverityBadge severity={a.Severity} />
                  </td>
                  <td className={`px-2 py-1 ${STATE_CLASS[a.State] ?? ""}`} data-testid="widget-alarm-state">
                    {t(`alarmState.${a.State}`, { defaultValue: a.State })}
                  </td>
                  <td className="px-2 py-1 font-medium">{a.Name}</td>
                  <td className="px-2 py-1">{a.VariableName}</td>
                  <td className="whitespace-nowrap px-2 py-1 tabular-nums">
                    {value(a.Value)} {a.Unit}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1 tabular-nums">{dateTime(a.Since)}</td>
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
