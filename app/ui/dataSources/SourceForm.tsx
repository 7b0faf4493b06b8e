import { Form, Link, useNavigation } from "react-router";
import { buttonClass } from "~/ui/formClasses";
import { useT } from "~/ui/useT";
import type { BrowseLevel } from "./BrowsePanel";
import { ConnectionFields } from "./ConnectionFields";
import { DraftBrowse } from "./DraftBrowse";
import type { Draft, Errors as ErrorMap } from "./draft";
import { CheckField, Errors, TextField } from "./Field";
import { VariablesTable } from "./VariablesTable";

/**
 * Add or edit one data source. One form holds the connection and every variable, so a refused
 * save or a row added without JavaScript comes back with everything as typed (passwords aside,
 * which never travel back to the page).
 */
export function SourceForm({
  id,
  draft,
  errors,
  hasPassword,
  cancelHref,
  pending,
  browse,
  seenFingerprint = null,
}: {
  id: number | null;
  draft: Draft;
  errors: ErrorMap;
  hasPassword: boolean;
  cancelHref: string;
  /** The token of a password typed before this round trip, kept on the server (never the password). */
  pending: string | null;
  /** The OPC UA server browsed with the connection as typed (the "Browse the server" button). */
  browse: BrowseLevel | null;
  /** OPC UA: the certificate fingerprint the logger saw at its last connection to this server. */
  seenFingerprint?: string | null;
}) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const v = draft.values;
  return (
    <Form method="post" className="flex min-w-0 flex-col gap-5" data-testid="source-form" noValidate>
      {/* The form's default button: Enter in any field saves (the first submit button in the
          form decides, and the rows' Remove buttons come before Save). */}
      <button type="submit" name="intent" value="save" hidden tabIndex={-1} />
      <input type="hidden" name="Protocol" value={draft.protocol} />
      {id !== null && <input type="hidden" name="id" value={id} />}
      {errors.form?.length ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="form-error">
          <Errors id="ds-form-error" errors={errors.form} />
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <TextField name="Name" label={t("dataSources.name")} defaultValue={v.Name ?? ""} errors={errors.Name} hint={t("dataSources.nameHint")} />
        <TextField name="PeriodMs" label={t("dataSources.periodMs")} type="number" inputMode="numeric" defaultValue={v.PeriodMs ?? ""} errors={errors.PeriodMs} hint={t(`dataSources.periodHint_${draft.protocol}`)} />
      </div>
      <CheckField name="Enabled" label={t("dataSources.enabled")} defaultChecked={v.Enabled === "on"} hint={t("dataSources.enabledHint")} />
      <ConnectionFields protocol={draft.protocol} values={v} errors={errors} hasPassword={hasPassword} pending={pending} seenFingerprint={browse?.fingerprint ?? seenFingerprint} />
      {draft.protocol === "opcua" &&
        (browse ? (
          <DraftBrowse level={browse} added={new Set(draft.variables.map((row) => row["Address.NodeId"] ?? ""))} />
        ) : (
          <p className="text-sm">
            <button type="submit" name="intent" value="browse" className="cursor-pointer text-brand underline" data-testid="browse-button">
              {t("dataSources.browse.open")}
            </button>{" "}
            <span className="text-slate-600 dark:text-slate-400">{t("dataSources.browse.openHint")}</span>
          </p>
        ))}
      <VariablesTable protocol={draft.protocol} variables={draft.variables} errors={errors} />
      <div className="flex gap-2">
        <button type="submit" name="intent" value="save" className={buttonClass} disabled={busy}>
          {id === null ? t("dataSources.addSubmit") : t("common.save")}
        </button>
        <Link to={cancelHref} className="rounded-md px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-700" preventScrollReset>
          {t("common.cancel")}
        </Link>
      </div>
    </Form>
  );
}
