import { z } from "zod";

// Log Messages: the filter (read from the URL) and the maintenance notice form; messages are i18n keys.

export const MESSAGE_TYPES = ["Info", "Warning", "Error", "Success"] as const;
export const PAGE_SIZES = [25, 50, 100] as const;
export const MAINTENANCE_TYPES = ["Info", "Warning", "Error"] as const;

export const maintenanceSchema = z.object({
  text: z.string({ error: "log.validation.text" }).trim().min(1, "log.validation.text").max(500, "log.validation.textLong"),
  type: z.enum(MAINTENANCE_TYPES, { error: "log.validation.type" }),
});
