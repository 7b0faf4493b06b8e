/** An error already in the user's language (with file names and logger words: not an i18n key). */
export function ErrorAlert({ text, id }: { text?: string; id?: string }) {
  if (!text) return null;
  return (
    <div id={id} role="alert" className="mx-4 mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 md:mx-0" data-testid="form-error">
      {text}
    </div>
  );
}
