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
