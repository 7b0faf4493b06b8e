import type { VariableStatistics } from "~/services/logger/schemas";
import { useFormatters } from "~/ui/format";
import { useT } from "~/ui/useT";

/** Analytics' exact statistics per variable over the range, for A and (when comparing) B. */
export function StatisticsTable({ stats, cmpStats, compareName, variables }: { stats: VariableStatistics[]; cmpStats: VariableStatistics[]; compareName: string | null; variables: { Id: string; Name: string; Unit: string; Precision?: number }[] }) {
  const t = useT();
  const fmt = useFormatters();
  const rows = [...stats.map((s) => ({ s, suffix: "" })), ...cmpStats.map((s) => ({ s, suffix: compareName ? ` · ${compareName}` : "" }))];
  const cols = ["Min", "Max", "Mean", "StdDev", "RMS", "First", "Last"] as const;
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm dark:bg-slate-800">
      <table className="w-full text-left text-sm" data-testid="statistics">
        <caption className="px-4 py-2 text-left font-semibold">{t("history.analytics.statistics")}</caption>
        <thead className="bg-slate-100 dark:bg-slate-700">
          <tr>
            <th className="px-4 py-2">{t("history.stats.variable")}</th>
            {cols.map((c) => (
              <th key={c} className="px-4 py-2 text-right">
                {t(`history.stats.${c}`)}
              </th>
            ))}
            <th className="px-4 py-2 text-right">{t("history.stats.Count")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ s, suffix }) => {
            const v = variables.find((x) => x.Id === s.VID);
            const digits = v?.Precision === undefined ? undefined : v.Precision + 1;
            return (
              <tr key={`${s.VID}${suffix}`} className="border-t border-slate-100 dark:border-slate-700" data-variable={`${v?.Name ?? s.VID}${suffix}`}>
                <th scope="row" className="px-4 py-2 font-medium">
                  {v ? `${v.Name}${v.Unit ? ` [${v.Unit}]` : ""}` : s.VID}
                  {suffix}
                </th>
                {cols.map((c) => (
                  <td key={c} className="px-4 py-2 text-right font-mono tabular-nums" data-stat={c}>
                    {fmt.value(s[c], digits)}
                  </td>
                ))}
                <td className="px-4 py-2 text-right font-mono tabular-nums" data-stat="Count">
                  {fmt.number(s.Count)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
