import { z } from "zod";

let zones: Set<string> | undefined;
export function timezoneNames(): string[] {
  return [...timezoneSet()];
}
function timezoneSet(): Set<string> {
  // Intl's list omits the "UTC" alias; the console and users expect it.
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"].sort());
  return zones;
}
// Intl lists ICU's canonical names (Asia/Calcutta, Europe/Kiev) while browsers and people use the
// current IANA ones (Asia/Kolkata, Europe/Kyiv); accept those aliases too.
const ALIAS_SHAPE = /^[A-Z][A-Za-z_]*(\/[A-Z][A-Za-z0-9_+-]*)+$/;
export function isTimezone(name: string): boolean {
  if (timezoneSet().has(name)) return true;
  if (!ALIAS_SHAPE.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const ianaZone = z.string().refine(isTimezone, { message: "Unknown time zone; use an IANA name such as Europe/Rome or UTC" });

export const id = z.number().int();

export const email = z
  .string()
  .max(254)
  .refine((s) => s === "" || z.email().safeParse(s).success, { message: "Invalid email address" });

export const base64 = z.string().regex(/^[A-Za-z0-9+/\s]*={0,2}\s*$/, { message: "Content must be base64" });

// Control and format characters (NUL, line breaks, zero-width and bidi marks, unpaired surrogates)
// make two names look the same, reorder what is shown around them, or break logs and CSV files.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
export const INVISIBLE_NAME_MESSAGE = "Must not contain control or invisible formatting characters (such as NUL, zero-width or bidi marks)";

export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * A name a person gives (role, dashboard, target, rule…): NFC-normalised — so "é" typed composed
 * or decomposed is one name, stored and compared alike — trimmed, 1..max characters, and free of
 * control and format characters.
 */
export function nameField(max: number, messages: { empty?: string; tooLong?: string } = {}) {
  return z
    .string()
    .normalize("NFC")
    .trim()
    .min(1, messages.empty ?? "Name must not be empty")
    .max(max, messages.tooLong ?? `Name must be at most ${max} characters`)
    .refine((s) => !hasInvisibleCharacters(s), { message: INVISIBLE_NAME_MESSAGE });
}

/** Names compared regardless of case and Unicode normal form (uniqueness checks). */
export function sameName(a: string, b: string): boolean {
  return a.normalize("NFC").toLowerCase() === b.normalize("NFC").toLowerCase();
}
