import { z } from "zod";

// Shared by the forced password change and User Settings; messages are i18n keys.
export const MIN_PASSWORD_LENGTH = 8;
/** The logger's cap (logger/auth/passwords.ts): it bounds what one password check costs. */
export const MAX_PASSWORD_LENGTH = 1024;

export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "validation.currentPasswordRequired" })
      .min(1, "validation.currentPasswordRequired")
      .max(MAX_PASSWORD_LENGTH, "validation.passwordTooLong"),
    newPassword: z
      .string({ error: "validation.newPasswordRequired" })
      .min(MIN_PASSWORD_LENGTH, "validation.passwordTooShort")
      .max(MAX_PASSWORD_LENGTH, "validation.passwordTooLong"),
    confirmPassword: z.string({ error: "validation.confirmRequired" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordsDiffer" })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], message: "validation.passwordUnchanged" });
