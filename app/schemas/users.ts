import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password";

// User Management forms, shared by the form (inline validation) and the action. Messages are
// i18n keys. The logger enforces the same rules; these catch mistakes before a round trip.
const username = z
  .string({ error: "users.validation.usernameRequired" })
  .trim()
  .max(64, "users.validation.username")
  .regex(/^[A-Za-z0-9._@-]+$/, "users.validation.username");
const email = z.email({ error: "validation.email" }).max(254, "validation.email").optional();
const role = z.number({ error: "users.validation.role" }).int().positive("users.validation.role");
/** "" = the browser's zone, an IANA name, or "offset:<seconds>" for a fixed offset. */
const timezone = z.string().max(64).optional();
const password = z
  .string({ error: "validation.newPasswordRequired" })
  .min(MIN_PASSWORD_LENGTH, "validation.passwordTooShort")
  .max(MAX_PASSWORD_LENGTH, "validation.passwordTooLong");
const confirmPassword = z.string({ error: "validation.confirmRequired" });
const id = z.number().int().positive();

export const addUserSchema = z
  .object({ username, email, role, timezone, password, confirmPassword, mustChange: z.boolean().optional() })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordsDiffer" })
  .refine((v) => v.password.toLowerCase() !== v.username.toLowerCase(), { path: ["password"], message: "users.validation.passwordIsUsername" });

export const editUserSchema = z.object({ id, version: z.number().int().optional(), username, email, role, timezone });

export const resetPasswordSchema = z
  .object({ id, username: z.string().optional(), password, confirmPassword })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordsDiffer" })
  .refine((v) => !v.username || v.password.toLowerCase() !== v.username.toLowerCase(), { path: ["password"], message: "users.validation.passwordIsUsername" });

/** The logger's three time zone fields from the form's single choice. */
export function zoneFields(choice: string | undefined) {
  const offset = /^offset:(-?\d+)$/.exec(choice ?? "");
  if (offset) return { Timezone: "", TimezoneDiffSec: Number(offset[1]), TimezoneUseDST: false };
  return { Timezone: choice ?? "", TimezoneDiffSec: 0, TimezoneUseDST: true };
}
