import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { FormField, inputClass } from "./FormField";

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A labelled select of a conform form with its hint and errors (the error is the select's
 * description, so a screen reader reads it with the field). `placeholder` adds a first option
 * with the empty value ("Choose …").
 */
export function SelectField<Schema>({
  field,
  label,
  options,
  hint,
  placeholder,
  children,
}: {
  // Any form: conform's own getSelectProps takes the same.
  field: FieldMetadata<Schema, any, string[]>;
  label: string;
  options: readonly SelectOption[];
  hint?: string;
  placeholder?: string;
  /** Options listed before `options` (e.g. a value that is offered only when it is stored). */
  children?: React.ReactNode;
}) {
  return (
    <FormField id={field.id} label={label} errors={field.errors} errorId={field.errorId} hint={hint}>
      <select {...getSelectProps(field)} key={field.key} className={inputClass}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {children}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FormField>
  );
}
