import type { FilePreview } from "~/services/logger/importSchemas";
import { SvgChart } from "~/ui/dashboard/SvgChart";
import type { SeriesData } from "~/ui/dashboard/types";
import { useFormatters } from "~/ui/format";
import { formatSize } from "~/ui/fileSize";
import { FormErrors } from "~/ui/FormField";
import { useT } from "~/ui/useT";

/** The rows the logger picked evenly through the file, drawn as an equidistant series (a preview, not every sample). */
function chartSeries(p: FilePreview): SeriesData | null {
  const n = p.Chart.Times.length;
  if (n < 2) return null;
  const start = p.Chart.Times[0]!;
  return { start, delta: (p.Chart.Times[n - 1]! - start) / (n - 1), size: n, values: p.Chart.Values };
}

/**
 * What a data file holds, as the logger read it before anything is stored: its variables (with
 * the UDBF type and whether the store's float32 may round it), rate, time span, row count, the
 * first rows and a preview chart (server-rendered SVG: works without JavaScript).
 */
export function DataPreview({ preview, name }: { preview: FilePreview; name: string }) {
  const t = useT();
  const fmt = useFormatters();
  const series = chartSeries(preview);
  const vars = preview.Variables.map((v, i) => ({ Id: `v${i}`, Name: v.Name, Unit: v.Unit, DataFormat: "FLOAT" as const }));
  const lossy = preview.Variables.filter((v) => v.Lossy).map((v) => v.Name);
  return (
    <div className="flex flex-col gap-3" data-testid="data-preview">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">{t("import.preview.file")}</dt>
        <dd>
          {name} ({preview.Type === "udbf" ? "UDBF" : "CSV"}, {formatSize(preview.Size, fmt.number)})
        </dd>
        <dt className="font-medium">{t("import.preview.rows")}</dt>
        <dd data-testid="preview-rows">{fmt.number(preview.Rows)}</dd>
        <dt className="font-medium">{t("import.preview.rate")}</dt>
        <dd>{preview.SampleRateHz === null ? "–" : `${fmt.number(preview.SampleRateHz)} Hz`}</dd>
        <dt className="font-medium">{t("import.preview.first")}</dt>
        <dd data-testid="preview-first">{preview.First === null ? "–" : fmt.dateTime(preview.First)}</dd>
        <dt className="font-medium">{t("import.preview.last")}</dt>
        <dd data-testid="preview-last">{preview.Last === null ? "–" : fmt.dateTime(preview.Last)}</dd>
      </dl>
      <FormErrors errors={preview.Problem ? [t("import.preview.problem", { problem: preview.Problem })] : undefined} />
      <table className="text-left text-sm" data-testid="preview-variables">
        <caption className="text-left font-semibold">{t("import.preview.variables", { count: preview.Variables.length })}</caption>
        <thead>
          <tr>
            <th className="px-2 py-1">{t("import.preview.name")}</th>
            <th className="px-2 py-1">{t("import.preview.unit")}</th>
            {preview.Type === "udbf" && <th className="px-2 py-1">{t("import.preview.type")}</th>}
          </tr>
        </thead>
        <tbody>
          {preview.Variables.map((v) => (
            <tr key={v.Name} className="border-t border-slate-100 dark:border-slate-700">
              <td className="px-2 py-1">{v.Name}</td>
              <td className="px-2 py-1">{v.Unit}</td>
              {preview.Type === "udbf" && (
                <td className="px-2 py-1">
                  {v.DataType}
                  {v.Lossy ? ` — ${t("import.preview.lossy")}` : ""}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {lossy.length > 0 && <p className="text-sm text-amber-800 dark:text-amber-300">{t("import.preview.lossyNote", { names: lossy.join(", ") })}</p>}
      {preview.FirstRows.Times.length > 0 && (
        <div className="max-h-80 overflow-auto">
          <table className="text-left text-xs tabular-nums" data-testid="preview-first-rows">
            <caption className="text-left text-sm font-semibold">{t("import.preview.firstRows")}</caption>
            <thead>
              <tr>
                <th className="px-2 py-1">{t("import.preview.time")}</th>
                {preview.Variables.map((v) => (
                  <th key={v.Name} className="px-2 py-1">
                    {v.Unit ? `${v.Name} [${v.Unit}]` : v.Name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.FirstRows.Times.map((time, k) => (
                <tr key={k} className="border-t border-slate-100 dark:border-slate-700">
                  <td className="px-2 py-1 whitespace-nowrap">{fmt.dateTime(time)}</td>
                  {preview.FirstRows.Values.map((col, i) => (
                    <td key={i} className="px-2 py-1">
                      {col[k] === null || col[k] === undefined ? "" : fmt.number(col[k]!)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {series && (
        <figure className="@container h-64" data-testid="preview-chart">
          <SvgChart series={series} vars={vars} height={256} from={series.start} to={series.start + series.delta * (series.size - 1)} locale={fmt.locale} timeZone={fmt.timeZone} label={t("import.preview.chart", { name })} />
        </figure>
      )}
    </div>
  );
}
