import type { z } from "zod";

// The logger refuses control and format characters in every name it keeps (NUL, line breaks,
// zero-width and bidi marks: two names that look alike, text shown out of order). A name pasted
// from a chat or a web page often carries a zero-width space: the forms check it too, so the field
// itself says so in the reader's language, instead of the logger's English words above the form.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** The message key (translation.json, every screen has it). */
export const INVISIBLE_CHARACTERS = "validation.invisibleCharacters";

export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/** `schema` (a name's, trimmed first) that also refuses invisible characters. */
export function visibleOnly<T extends z.ZodString>(schema: T): T {
  return schema.refine((s) => !hasInvisibleCharacters(s), INVISIBLE_CHARACTERS);
}
