import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useRef } from "react";
import { useT } from "~/ui/useT";
import { isColour, normaliseColour } from "~/schemas/globalSettings";
import { FormField, inputClass } from "./FormField";

/** `<input type="color">` only takes #rrggbb; stored colours may carry alpha or be short. */
export function pickerColour(colour: string): string {
  const hex = colour.trim().toLowerCase();
  if (/^#[0-9a-f]{4}$/.test(hex)) return normaliseColour(hex.slice(0, 4));
  if (/^#[0-9a-f]{8}$/.test(hex)) return hex.slice(0, 7);
  return isColour(hex) ? normaliseColour(hex) : "#000000";
}

/**
 * A colour as a picker plus a text field (#rgb or #rrggbb). Both are posted, with the value they
 * were rendered with, so the server can tell which one changed when there is no JavaScript to
 * keep them in step (see chosenColour). With JavaScript each follows the other and `onColour`
 * reports every valid colour as it is typed or picked.
 */
export function ColourField({
  label,
  hint,
  text,
  picker,
  saved,
  onColour,
}: {
  label: string;
  hint?: string;
  text: FieldMetadata<string | undefined>;
  picker: FieldMetadata<string | undefined>;
  saved: string;
  onColour: (colour: string) => void;
}) {
  const t = useT();
  const textRef = useRef<HTMLInputElement>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  return (
    <FormField id={text.id} label={label} errors={text.errors} errorId={text.errorId} hint={hint}>
      <div className="flex items-center gap-2">
        <input
          {...getInputProps(picker, { type: "color" })}
          ref={pickerRef}
          aria-label={t("globalSettings.colourPicker", { label })}
          className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1 dark:border-slate-600 dark:bg-slate-900"
          onInput={(e) => {
            const value = e.currentTarget.value;
            onColour(value);
            const field = textRef.current;
            if (field && field.value !== value) {
              field.value = value;
              // Lets conform re-validate the text field, which may still show an old error.
              field.dispatchEvent(new Event("input", { bubbles: true }));
            }
          }}
        />
        <input
          {...getInputProps(text, { type: "text" })}
          ref={textRef}
          className={`${inputClass} w-36 font-mono`}
          spellCheck={false}
          autoComplete="off"
          placeholder="#3056a8"
          onInput={(e) => {
            const value = e.currentTarget.value;
            if (!isColour(value)) return;
            onColour(normaliseColour(value));
            if (pickerRef.current) pickerRef.current.value = normaliseColour(value);
          }}
        />
      </div>
      <input type="hidden" name={`${text.name}Was`} value={saved} />
    </FormField>
  );
}
