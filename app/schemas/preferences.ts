import { z } from "zod";

export const THEMES = ["light", "dark", "semi-dark"] as const;
export const LAYOUTS = ["horizontal-minimal", "vertical-default"] as const;
export const ZONE_MODES = ["name", "offset", "browser"] as const;
export type ThemeMode = (typeof THEMES)[number];
export type LayoutMode = (typeof LAYOUTS)[number];

// User Settings: shared by the form (inline validation) and the action. Messages are i18n keys.
export const preferencesSchema = z
  .object({
    email: z.email({ error: "validation.email" }).max(254, "validation.email").optional(),
    language: z.enum(["en", "it"], { error: "validation.choose" }),
    theme: z.enum(THEMES, { error: "validation.choose" }),
    layout: z.enum(LAYOUTS, { error: "validation.choose" }),
    zoneMode: z.enum(ZONE_MODES, { error: "validation.choose" }),
    timezone: z.string().max(64).optional(),
    offsetMinutes: z.number({ error: "validation.offset" }).int("validation.offset").min(-720, "validation.offset").max(840, "validation.offset").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.zoneMode === "name" && !v.timezone) ctx.addIssue({ code: "custom", path: ["timezone"], message: "validation.timezoneRequired" });
    if (v.zoneMode === "offset" && v.offsetMinutes === undefined) ctx.addIssue({ code: "custom", path: ["offsetMinutes"], message: "validation.offset" });
  });
export type PreferencesInput = z.infer<typeof preferencesSchema>;
