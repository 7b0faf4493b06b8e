import { z } from "zod";

export const THEMES = ["light", "dark", "semi-dark"] as const;
/** Spec §4: the default layout first, then the alternatives. */
export const LAYOUTS = [
  "horizontal-minimal",
  "vertical-default",
  "vertical-minimal",
  "vertical-minimal-no-header",
  "vertical-modern-sidebar",
  "horizontal-default",
  "horizontal-dark",
  "horizontal-top-menu",
] as const;
/** Spec §4, §9: full-width (default); boxed 1300 px (1740 on xl screens); framed from 1366 px. */
export const LAYOUT_TYPES = ["full-width", "boxed", "framed"] as const;
/** Spec §9: sidebar width 304 px, options 280, 304, 330. */
export const SIDEBAR_WIDTHS = [280, 304, 330] as const;
export const DEFAULT_SIDEBAR_WIDTH = 304;
export const ZONE_MODES = ["name", "offset", "browser"] as const;
export type ThemeMode = (typeof THEMES)[number];
export type LayoutMode = (typeof LAYOUTS)[number];
export type LayoutType = (typeof LAYOUT_TYPES)[number];
export type SidebarWidth = (typeof SIDEBAR_WIDTHS)[number];

// User Settings: shared by the form (inline validation) and the action. Messages are i18n keys.
export const preferencesSchema = z
  .object({
    email: z.email({ error: "validation.email" }).max(254, "validation.email").optional(),
    language: z.enum(["en", "it"], { error: "validation.choose" }),
    theme: z.enum(THEMES, { error: "validation.choose" }),
    layout: z.enum(LAYOUTS, { error: "validation.choose" }),
    layoutType: z.enum(LAYOUT_TYPES, { error: "validation.choose" }),
    sidebarWidth: z.coerce
      .number({ error: "validation.choose" })
      .refine((w): w is SidebarWidth => (SIDEBAR_WIDTHS as readonly number[]).includes(w), "validation.choose"),
    zoneMode: z.enum(ZONE_MODES, { error: "validation.choose" }),
    timezone: z.string().max(64).optional(),
    offsetMinutes: z.number({ error: "validation.offset" }).int("validation.offset").min(-720, "validation.offset").max(840, "validation.offset").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.zoneMode === "name" && !v.timezone) ctx.addIssue({ code: "custom", path: ["timezone"], message: "validation.timezoneRequired" });
    if (v.zoneMode === "offset" && v.offsetMinutes === undefined) ctx.addIssue({ code: "custom", path: ["offsetMinutes"], message: "validation.offset" });
  });
export type PreferencesInput = z.infer<typeof preferencesSchema>;
