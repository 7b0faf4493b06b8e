import { z } from "zod";

// Alarming forms, shared by the forms and the action; messages are i18n keys.

export const SHELVE_DURATIONS = ["900", "3600", "14400", "28800", "86400"] as const;

export const shelveSchema = z.object({
  id: z.number().int().positive(),
  duration: z.enum(SHELVE_DURATIONS, { error: "alarming.validation.duration" }),
  reason: z.string({ error: "alarming.validation.reason" }).trim().min(1, "alarming.validation.reason").max(500, "alarming.validation.reasonLong"),
});

export const acknowledgeSchema = z.object({
  id: z.array(z.number().int().positive()).max(500).default([]),
  only: z.number().int().positive().optional(),
  comment: z.string().trim().max(1000, "alarming.validation.commentLong").optional(),
});
