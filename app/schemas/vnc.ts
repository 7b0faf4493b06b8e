import { z } from "zod";
import { visibleOnly } from "./visibleText";

// The VNC target form (validation while typing, and the same rules in the action without
// JavaScript). Messages are i18n keys. The limits are the logger's (VncAPI.Set).
export const NAME_MAX = 64;
export const PASSWORD_MAX = 64;
export const DEFAULT_PORT = 5900;

// A host name (RFC 1123 labels) or an IPv4/IPv6 literal: no scheme, path, port or spaces.
const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*\.?$/;
const IP_LITERAL = /^\[?[0-9A-Fa-f:.]+\]?$/;

export const vncTargetSchema = z.object({
  name: visibleOnly(z.string({ error: "vnc.validation.nameRequired" }).trim().min(1, "vnc.validation.nameRequired").max(NAME_MAX, "vnc.validation.nameTooLong")),
  host: z
    .string({ error: "vnc.validation.hostRequired" })
    .trim()
    .min(1, "vnc.validation.hostRequired")
    .max(253, "vnc.validation.host")
    .refine((h) => HOST_NAME.test(h) || IP_LITERAL.test(h), "vnc.validation.host"),
  port: z.coerce.number({ error: "vnc.validation.port" }).int("vnc.validation.port").min(1, "vnc.validation.port").max(65535, "vnc.validation.port"),
  /** Empty: keep the stored password when editing, none when adding. */
  password: z.string().max(PASSWORD_MAX, "vnc.validation.passwordTooLong").optional(),
  clearPassword: z.boolean().optional(),
});
export type VncTargetInput = z.output<typeof vncTargetSchema>;
