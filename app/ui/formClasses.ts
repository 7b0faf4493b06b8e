/** Shared look of form inputs and primary buttons. */
export const inputClass =
  "max-w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base font-normal focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/30 aria-[invalid]:border-red-500 dark:border-slate-600 dark:bg-slate-900";

/**
 * Text on the brand colours is white or near-black, whichever contrasts more (app/ui/contrast.ts).
 * On a phone at least 44 px tall, a finger's target (issue 28 §3).
 */
export const buttonClass = "rounded-md bg-brand px-4 py-2 font-semibold text-on-brand hover:bg-brand-hover hover:text-on-brand-hover disabled:opacity-60 phone:inline-flex phone:min-h-11 phone:items-center phone:justify-center";
