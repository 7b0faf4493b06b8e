import { z } from "zod";
import { visibleOnly } from "./visibleText";

// Simple Config: shared by the form (validation while typing) and the action (the same rules
// without JavaScript). Messages are i18n keys. The limits are the logger's (ConfigAPI), so a
// form that passes here is refused only by a rule that needs the logger (a stale revision…).
export const PROJECT_NAME_MAX = 100;
export const CHANNEL_NAME_MAX = 64;
export const UNIT_MAX = 32;
export const PRECISION_MAX = 6;

const number = (key: string) => z.number({ error: key }).refine(Number.isFinite, key);

export const channelSchema = z
  .object({
    id: z.string().min(1).max(100),
    enabled: z.boolean().default(false),
    name: visibleOnly(z.string({ error: "config.validation.nameRequired" }).trim().min(1, "config.validation.nameRequired").max(CHANNEL_NAME_MAX, "config.validation.nameTooLong")),
    unit: z.string().trim().max(UNIT_MAX, "config.validation.unitTooLong").optional(),
    min: number("config.validation.number"),
    max: number("config.validation.number"),
    precision: z.number({ error: "config.validation.precision" }).int("config.validation.precision").min(0, "config.validation.precision").max(PRECISION_MAX, "config.validation.precision"),
  })
  .superRefine(
    (c, ctx) => {
      if (typeof c.min === "number" && typeof c.max === "number" && c.min >= c.max) ctx.addIssue({ code: "custom", path: ["max"], message: "config.validation.range" });
    },
    // Also when another field of the row is wrong: every error shows after one submit.
    { when: () => true },
  );

export const configSchema = z
  .object({
    projectName: visibleOnly(z.string({ error: "config.validation.projectNameRequired" }).trim().min(1, "config.validation.projectNameRequired").max(PROJECT_NAME_MAX, "config.validation.projectNameTooLong")),
    sampleRate: z.number({ error: "config.validation.rate" }).positive("config.validation.rate").optional(),
    revision: z.number().int().min(0),
    channels: z.array(channelSchema).max(256).default([]),
  })
  .superRefine(
    (v, ctx) => {
      // Names are unique regardless of case (the logger's rule too). Runs even when other fields
      // are wrong (`when`), so the value may be partial: only names that are strings count.
      const seen = new Set<string>();
      const channels: unknown[] = Array.isArray(v.channels) ? v.channels : [];
      channels.forEach((c, i) => {
        const name = (c as { name?: unknown } | undefined)?.name;
        if (typeof name !== "string" || !name.trim()) return;
        const key = name.trim().toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["channels", i, "name"], message: "config.validation.duplicateName" });
        seen.add(key);
      });
    },
    { when: () => true },
  );
export type ConfigInput = z.input<typeof configSchema>;
export type ConfigOutput = z.output<typeof configSchema>;
