import { useState } from "react";
import { useFormatters } from "~/ui/format";
import { formatSize } from "~/ui/fileSize";

/**
 * The one file input: a native `<input type="file">` (so it posts without JavaScript and the
 * browser names the chosen file), styled alike everywhere, with its label, hint and error wired
 * by id; with JavaScript the chosen file's name and size are repeated below it.
 */
export function FileInput({
  id,
  label,
  name = "file",
  accept,
  hint,
  error,
  required = false,
  onChange,
}: {
  id: string;
  label: string;
  name?: string;
  accept?: string;
  hint?: string;
  /** Already translated (it may carry file names and the logger's words). */
  error?: string;
  required?: boolean;
  onChange?: (file: File | undefined) => void;
}) {
  const { number } = useFormatters();
  const [chosen, setChosen] = useState<File | undefined>();
  const described = [hint && `${id}-hint`, chosen && `${id}-chosen`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1 text-sm font-medium">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        name={name}
        accept={accept}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setChosen(file);
          onChange?.(file);
        }}
        className="w-full max-w-full min-w-0 rounded-md border border-slate-300 bg-white text-sm font-normal file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-slate-300 file:bg-slate-100 file:px-3 file:py-2 file:font-medium file:text-slate-800 hover:file:bg-slate-200 focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none aria-[invalid]:border-red-500 dark:border-slate-600 dark:bg-slate-900 dark:file:border-slate-600 dark:file:bg-slate-700 dark:file:text-slate-100"
      />
      {chosen && (
        <span id={`${id}-chosen`} className="truncate text-xs font-normal text-slate-700 dark:text-slate-200" data-testid="file-chosen">
          {chosen.name} · {formatSize(chosen.size, number)}
        </span>
      )}
      {hint && (
        <span id={`${id}-hint`} className="text-xs font-normal text-slate-600 dark:text-slate-400">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} role="alert" className="text-sm font-normal text-red-700 dark:text-red-400" data-testid="form-error">
          {error}
        </span>
      )}
    </div>
  );
}
