import { Link } from "react-router";
import type { Preview } from "~/services/files.server";
import { FormErrors, buttonClass } from "~/ui/FormField";
import { DataPreview } from "~/ui/import/DataPreview";
import { useT } from "~/ui/useT";

const PATH = "/fileBrowser";
const cardClass = "rounded-lg bg-white p-6 shadow-sm dark:bg-slate-800";

/** The chosen file shown under the list: image, text, the first CSV rows, or why not. */
export function PreviewPane({ preview, closeHref }: { preview: Preview; closeHref: string }) {
  const t = useT();
  const name = preview.path.split("/").at(-1);
  const raw = `${PATH}/raw?${new URLSearchParams({ path: preview.path })}`;
  return (
    <section className={cardClass} aria-label={t("fileBrowser.previewOf", { name })} data-testid="preview">
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 className="text-lg font-semibold">{t("fileBrowser.previewOf", { name })}</h2>
        <Link to={closeHref} className="text-brand hover:underline" preventScrollReset>
          {t("fileBrowser.closePreview")}
        </Link>
      </div>
      {preview.kind === "data" && (
        <div className="flex flex-col gap-3">
          <DataPreview preview={preview.preview} name={name ?? ""} />
          <div>
            <Link to={`/import?${new URLSearchParams({ file: preview.path })}`} className={buttonClass}>
              {t("fileBrowser.importAsMeasurement")}
            </Link>
          </div>
        </div>
      )}
      {preview.kind === "image" && <img src={raw} alt={name} className="max-h-[32rem] max-w-full" />}
      {preview.kind === "text" && <pre className="max-h-[32rem] overflow-auto rounded bg-slate-100 p-3 text-xs dark:bg-slate-900">{preview.text}</pre>}
      {preview.kind === "csv" && (
        <div className="max-h-[32rem] overflow-auto">
          <table className="text-left text-xs" data-testid="csv-preview">
            <tbody>
              {preview.rows.map((row, i) => (
                <tr key={i} className={i === 0 ? "bg-slate-100 font-semibold dark:bg-slate-700" : "border-t border-slate-100 dark:border-slate-700"}>
                  {row.map((cell, j) => (
                    <td key={j} className="px-2 py-1">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(preview.kind === "text" || preview.kind === "csv") && preview.truncated && <p className="mt-2 text-sm text-slate-500">{t("fileBrowser.truncated")}</p>}
      {preview.kind === "none" && <p>{t("fileBrowser.noPreview")}</p>}
      {preview.kind === "error" && <FormErrors errors={[preview.message]} />}
    </section>
  );
}
