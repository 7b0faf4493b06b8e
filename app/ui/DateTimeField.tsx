import { useId } from "react";
import { inputClass } from "~/ui/FormField";
import { useRootData } from "~/ui/rootData";
import { useT } from "~/ui/useT";
import { parseTypedDateTime, patternKey, showDateTime } from "./dateTimeInput";

/**
 * A date and time typed in the user's locale ("23/11/2026 14:05" in Italian, "11/23/2026 14:05"
 * in English, 24-hour clock), as a plain text input so it is the same with and without
 * JavaScript (a datetime-local input shows the browser's format, often mm/dd/yyyy AM/PM).
 * `value`: the canonical wall time ("2026-11-23T14:05") or what the user typed; a typed value
 * that is no real date and time is kept and flagged next to the field.
 */
export function DateTimeField({
  name,
  value,
  label,
  id,
  className = inputClass,
  showHint = true,
  flagInvalid = true,
}: {
  name: string;
  value: string;
  label: string;
  id?: string;
  className?: string;
  showHint?: boolean;
  /** False where the screen already shows its own error for the field. */
  flagInvalid?: boolean;
}) {
  const t = useT();
  const localeId = useRootData()?.localeId ?? "en-US";
  const autoId = useId();
  const fieldId = id ?? `dt-${autoId}`;
  const bad = flagInvalid && value !== "" && parseTypedDateTime(value, localeId) === null;
  const pattern = t(patternKey(localeId));
  const shown = showDateTime(value, localeId);
  const describedBy = [showHint ? `${fieldId}-hint` : "", bad ? `${fieldId}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <span className="inline-flex flex-col gap-0.5">
      <input
        // A new value from the server (after a client navigation) replaces what was typed.
        key={shown}
        type="text"
        id={fieldId}
        name={name}
        defaultValue={shown}
        aria-label={label}
        placeholder={pattern}
        inputMode="numeric"
        autoComplete="off"
        size={18}
        aria-invalid={bad || undefined}
        aria-describedby={describedBy}
        className={className}
        data-testid={`datetime-${name}`}
      />
      {showHint && (
        <span id={`${fieldId}-hint`} className="text-xs text-slate-600 dark:text-slate-300">
          {pattern}
        </span>
      )}
      {bad && (
        <span id={`${fieldId}-error`} role="alert" className="text-xs font-medium text-red-700 dark:text-red-300">
          {t("dateTime.invalid", { pattern })}
        </span>
      )}
    </span>
  );
}
