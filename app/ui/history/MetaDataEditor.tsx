import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { buttonClass, FormErrors, inputClass } from "~/ui/FormField";

/**
 * Key/value metadata as a table with a remove button per key and one form to set a key; keys
 * suggested from the ones already in use. Posts intent=meta plus the `hidden` fields.
 */
export function MetaDataEditor({ entries, keys, canEdit, hidden, error, typed }: { entries: { Key: string; Value: string }[]; keys: string[]; canEdit: boolean; hidden: Record<string, string>; error?: string; typed?: { key: string; value: string } }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const fields = (
    <>
      <input type="hidden" name="intent" value="meta" />
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
  return (
    <div className="flex flex-col gap-2" data-testid="metadata">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">{t("history.measurements.noMetadata")}</p>
      ) : (
        <table className="w-full max-w-2xl text-left text-sm">
          <thead>
            <tr>
              <th className="py-1 pr-4">{t("history.metadata.key")}</th>
              <th className="py-1 pr-4">{t("history.metadata.value")}</th>
              {canEdit && <th className="sr-only">{t("common.actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.Key} className="border-t border-slate-100 dark:border-slate-700" data-key={e.Key}>
                <td className="py-1 pr-4 font-medium">{e.Key}</td>
                <td className="py-1 pr-4">{e.Value}</td>
                {canEdit && (
                  <td className="py-1">
                    <Form method="post" preventScrollReset>
                      {fields}
                      <input type="hidden" name="key" value={e.Key} />
                      <input type="hidden" name="value" value="" />
                      <button type="submit" className="text-red-700 hover:underline dark:text-red-400" aria-label={`${t("history.metadata.remove")} ${e.Key}`}>
                        {t("history.metadata.remove")}
                      </button>
                    </Form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit ? (
        <Form method="post" preventScrollReset className="flex flex-wrap items-end gap-2" data-testid="metadata-form">
          {fields}
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.metadata.key")}
            <input name="key" list="metadata-keys" required maxLength={64} defaultValue={typed?.key ?? ""} aria-invalid={error ? true : undefined} className={inputClass} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t("history.metadata.value")}
            <input name="value" maxLength={1000} defaultValue={typed?.value ?? ""} className={inputClass} />
          </label>
          <button type="submit" className={buttonClass} disabled={busy}>
            {t("history.metadata.add")}
          </button>
          <datalist id="metadata-keys">
            {keys.map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
        </Form>
      ) : (
        <p className="text-sm text-slate-500">{t("history.metadata.readOnly")}</p>
      )}
      <FormErrors errors={error ? [error] : undefined} />
    </div>
  );
}
