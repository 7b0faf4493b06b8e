import { useT } from "./useT";

/**
 * An error shown next to the control that caused it (issue 15 §2), not at the top of the page.
 * The control points here with aria-describedby; texts are i18n keys or the logger's words.
 */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  const t = useT();
  if (!error) return null;
  return (
    <p id={id} role="alert" className="mt-1 basis-full text-sm font-normal text-red-700 dark:text-red-300" data-testid="field-error">
      {t(error)}
    </p>
  );
}
