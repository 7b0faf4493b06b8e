import { z } from "zod";

// Shared by the forced password change and User Settings; messages are i18n keys.
export const MIN_PASSWORD_LENGTH = 8;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string({ error: "validation.currentPasswordRequired" }).min(1, "validation.currentPasswordRequired"),
    newPassword: z.string({ error: "validation.newPasswordRequired" }).min(MIN_PASSWORD_LENGTH, "validation.passwordTooShort"),
    confirmPassword: z.string({ error: "validation.confirmRequired" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordsDiffer" })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], message: "validation.passwordUnchanged" });
