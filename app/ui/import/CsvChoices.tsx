import { Form } from "react-router";
import { queryOfLayout } from "~/schemas/import";
import type { CsvLayout } from "~/services/logger/importSchemas";
import { inputClass } from "~/ui/FormField";
import { useT } from "~/ui/useT";

const PATTERNS = ["%Y-%m-%d %H:%M:%S.%%0us", "%Y-%m-%dT%H:%M:%S.%%0usZ", "%Y-%m-%d %H:%M:%S", "%d.%m.%Y %H:%M:%S.%F", "%d.%m.%Y %H:%M:%S", "%d/%m/%Y %H:%M:%S", "%m/%d/%Y %I:%M:%S %p", "%s"];

/**
 * A CSV file's layout as the preview used it (detected, or chosen here): separators, the lines of
 * names, units and values, the first value column and the date-time pattern(s). A GET form: the
 * preview is shown again with these choices, nothing is stored.
 */
export function CsvChoices({ layout, detected, hidden }: { layout: CsvLayout; detected: boolean; hidden: Record<string, string> }) {
  const t = useT();
  const q = queryOfLayout(layout);
  const number = (name: string, min: number) => (
    <label className="flex flex-col gap-1 text-sm font-medium">
      {t(`import.csv.${name}`)}
      <input type="number" name={name} min={min} defaultValue={q.get(name) ?? ""} className={`${inputClass} w-24`} />
    </label>
  );
  return (
    <Form method="get" className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm dark:bg-slate-800" data-testid="csv-choices" aria-label={t("import.csv.title")}>
      <h2 className="font-semibold">{t("import.csv.title")}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">{detected ? t("import.csv.detected") : t("import.csv.chosen")}</p>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("import.csv.sep")}
          <select name="sep" defaultValue={q.get("sep") ?? ";"} className={inputClass}>
            {[";", ",", "tab", "|"].map((s) => (
              <option key={s} value={s}>
                {t(`import.csv.separators.${s === "tab" ? "tab" : s === ";" ? "semicolon" : s === "," ? "comma" : "bar"}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("import.csv.dec")}
          <select name="dec" defaultValue={q.get("dec") ?? "."} className={inputClass}>
            <option value=".">{t("import.csv.decimals.point")}</option>
            <option value=",">{t("import.csv.decimals.comma")}</option>
          </select>
        </label>
        {number("nameLine", 0)}
        {number("unitLine", 0)}
        {number("valuesLine", 1)}
        {number("valuesColumn", 1)}
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("import.csv.fmt1")}
          <input name="fmt1" list="import-patterns" defaultValue={q.get("fmt1") ?? ""} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("import.csv.fmt2")}
          <input name="fmt2" list="import-patterns" defaultValue={q.get("fmt2") ?? ""} className={inputClass} />
        </label>
        <datalist id="import-patterns">
          {PATTERNS.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-700">
          {t("import.csv.apply")}
        </button>
      </div>
      <p className="text-xs text-slate-500">{t("import.csv.hint")}</p>
    </Form>
  );
}
