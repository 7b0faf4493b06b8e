import { useT } from "~/ui/useT";

// The class strings live apart so screens needing only them (the dashboard's range bar) load no form components.
export { buttonClass, inputClass } from "./formClasses";

/**
 * A labelled control with its hint and translated errors (i18n keys or logger texts). Only the
 * label text names the control; hint and errors stay outside the label so they do not.
 */
export function FormField({ id, label, errors, errorId, children, hint }: { id?: string; label: string; errors?: string[]; errorId?: string; hint?: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-1 text-sm font-medium">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <span className="text-xs font-normal text-slate-600 dark:text-slate-400">{hint}</span>}
      {errors?.length ? (
        <span id={errorId} className="text-sm font-normal text-red-700 dark:text-red-400" role="alert">
          {errors.map((e) => t(e)).join(" ")}
        </span>
      ) : null}
    </div>
  );
}

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const t = useT();
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="form-error">
      {errors.map((e) => t(e)).join(" ")}
    </div>
  );
}
