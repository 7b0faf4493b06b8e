import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { inputClass } from "~/ui/formClasses";
import { useT } from "~/ui/useT";
import type { Message } from "./draft";

// The data-source form's controls: each shows its errors right below it, pointed to by
// aria-describedby. Errors are text keys (translated here) or the logger's own words, which are
// shown as they are: a logger text is no key and must not go through t() (a ":" in it would be
// read as a namespace).

export function messageText(t: TFunction, m: Message): string {
  return "key" in m ? t(m.key, m.values) : m.text;
}

/** Form names hold dots; ids may not need them, but a stable, readable id helps tests and labels. */
export const idOf = (name: string) => `ds-${name.replace(/[^\w-]/g, "-")}`;

export function Errors({ id, errors }: { id: string; errors?: Message[] }) {
  const t = useT();
  if (!errors?.length) return null;
  return (
    <span id={id} role="alert" className="text-sm font-normal text-red-700 dark:text-red-300" data-testid="field-error">
      {errors.map((m) => messageText(t, m)).join(" ")}
    </span>
  );
}

interface ControlProps {
  name: string;
  /** Visible label; in table cells `srLabel` names the control instead. */
  label?: string;
  srLabel?: string;
  defaultValue: string;
  errors?: Message[];
  hint?: string;
  className?: string;
}

function Wrap({ id, label, hint, errors, children, className = "" }: { id: string; label?: string; hint?: string; errors?: Message[]; children: ReactNode; className?: string }) {
  return (
    <div className={`flex min-w-0 flex-col gap-1 text-sm font-medium ${className}`}>
      {label && <label htmlFor={id}>{label}</label>}
      {children}
      {hint && (
        <span id={`${id}-hint`} className="text-xs font-normal text-slate-600 dark:text-slate-400">
          {hint}
        </span>
      )}
      <Errors id={`${id}-error`} errors={errors} />
    </div>
  );
}

const describedBy = (id: string, hint?: string, errors?: Message[]) => [hint && `${id}-hint`, errors?.length && `${id}-error`].filter(Boolean).join(" ") || undefined;

export function TextField({ name, label, srLabel, defaultValue, errors, hint, className, type = "text", inputMode, placeholder, autoComplete = "off", inputClassName = "" }: ControlProps & { type?: "text" | "number" | "password" | "url"; inputMode?: "numeric" | "decimal"; placeholder?: string; autoComplete?: string; inputClassName?: string }) {
  const id = idOf(name);
  return (
    <Wrap id={id} label={label} hint={hint} errors={errors} className={className}>
      <input
        id={id}
        name={name}
        type={type}
        step={type === "number" ? "any" : undefined}
        inputMode={inputMode}
        defaultValue={defaultValue}
        placeholder={placeholder}
        autoComplete={autoComplete}
        spellCheck={false}
        aria-label={srLabel}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        className={`${inputClass} w-full ${inputClassName}`}
      />
    </Wrap>
  );
}

export function SelectField({ name, label, srLabel, defaultValue, errors, hint, className, options }: ControlProps & { options: readonly { value: string; label: string }[] }) {
  const id = idOf(name);
  return (
    <Wrap id={id} label={label} hint={hint} errors={errors} className={className}>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-label={srLabel}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        className={`${inputClass} w-full`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Wrap>
  );
}

export function CheckField({ name, label, defaultChecked, hint }: { name: string; label: string; defaultChecked: boolean; hint?: string }) {
  const id = idOf(name);
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label className="flex items-center gap-2 font-medium" htmlFor={id}>
        <input id={id} type="checkbox" name={name} defaultChecked={defaultChecked} className="h-4 w-4 accent-brand" aria-describedby={hint ? `${id}-hint` : undefined} />
        {label}
      </label>
      {hint && (
        <span id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </span>
      )}
    </div>
  );
}

/** The same option list for value = label choices (register types, security policies…). */
export const plainOptions = (values: readonly (string | number)[]) => values.map((v) => ({ value: String(v), label: String(v) }));
