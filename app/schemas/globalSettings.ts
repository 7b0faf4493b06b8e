import { z } from "zod";
import { FEATURES } from "~/features";
import { LANGUAGES } from "~/locales";
import { ANNUNCIATOR_SEVERITIES } from "./annunciator";
import { isTileUrl } from "./map";

// Global Settings: shared by the forms (inline validation) and the action. Messages are i18n keys.

export const MAX_LOGO_BYTES = 1024 * 1024;

/** DefaultStartPage choices: the `device` rule (spec §2) and every built in-console screen. */
export const START_PAGES: readonly { value: string; label: string }[] = [
  { value: "device", label: "globalSettings.startPageDevice" },
  ...FEATURES.filter((f) => f.module && !f.external).map((f) => ({ value: f.path.slice(1), label: f.label })),
];

/** Screens the no-login Features list switches: all but the always-present About and User Settings. */
export const SWITCHABLE_FEATURES = FEATURES.filter((f) => !f.always);
const switchableKeys = SWITCHABLE_FEATURES.map((f) => f.key) as [string, ...string[]];

export const generalSchema = z
  .object({
    // The logger's own rule for the value; the action also insists on a listed choice.
    defaultStartPage: z.string({ error: "globalSettings.errors.startPage" }).regex(/^[A-Za-z0-9_/-]{1,64}$/, "globalSettings.errors.startPage"),
    loginRequired: z.boolean().default(false),
    features: z.array(z.enum(switchableKeys, { error: "validation.choose" })).default([]),
    defaultLanguage: z.enum(LANGUAGES, { error: "validation.choose" }),
    defaultTimezone: z.string({ error: "validation.timezoneRequired" }).max(64, "validation.timezoneRequired"),
    jupyterUrl: z
      .string()
      .trim()
      .max(500, "globalSettings.errors.jupyterUrl")
      .refine((u) => /^https?:\/\/[^\s/]+/i.test(u) && URL.canParse(u), "globalSettings.errors.jupyterUrl")
      .optional(),
    // The Map's base layer ({z}/{x}/{y} template); empty means the built-in offline map.
    mapTileUrl: z.string().trim().refine(isTileUrl, "globalSettings.errors.mapTileUrl").optional(),
    mapTileAttribution: z.string().trim().max(300, "globalSettings.errors.mapTileAttribution").optional(),
    annunciator: z.array(z.enum(ANNUNCIATOR_SEVERITIES, { error: "validation.choose" })).default([]),
  })
  .superRefine((v, ctx) => {
    // Without sign-in and without any screen the console would show nothing at all.
    if (!v.loginRequired && v.features.length === 0) ctx.addIssue({ code: "custom", path: ["features"], message: "globalSettings.errors.noFeatures" });
  });
export type GeneralInput = z.infer<typeof generalSchema>;

const COLOUR_RE = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
export const COLOUR_FIELDS = ["mainColor", "hoverColor"] as const;
type ColourField = (typeof COLOUR_FIELDS)[number];

/** `#abc` → `#aabbcc`, lower case: the only form `<input type="color">` accepts. */
export function normaliseColour(value: string): string {
  const hex = value.trim().toLowerCase();
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
}

export function isColour(value: string | undefined): value is string {
  return value !== undefined && COLOUR_RE.test(value.trim());
}

type ColourValues = { [K in ColourField as K | `${K}Picker` | `${K}Was`]?: string };

/**
 * Each colour has a text field, a picker and the value both were rendered with. With JavaScript
 * the two controls follow each other; without it they cannot, so whichever the user changed wins
 * (the text field when both were).
 */
export function chosenColour(v: ColourValues, field: ColourField): string | undefined {
  const text = v[field]?.trim();
  return text !== v[`${field}Was`] ? text : (v[`${field}Picker`] ?? text);
}

const optionalText = z.string().max(32, "globalSettings.errors.colour").optional();

export const stylingSchema = z
  .object({
    logo: z
      .instanceof(File, { error: "globalSettings.errors.logoType" })
      .optional()
      .refine((f) => !f || f.size <= MAX_LOGO_BYTES, "globalSettings.errors.logoTooLarge"),
    restoreDefaultLogo: z.boolean().default(false),
    mainColor: optionalText,
    mainColorPicker: optionalText,
    mainColorWas: optionalText,
    hoverColor: optionalText,
    hoverColorPicker: optionalText,
    hoverColorWas: optionalText,
  })
  .superRefine((v, ctx) => {
    if (v.logo && v.restoreDefaultLogo) ctx.addIssue({ code: "custom", path: ["logo"], message: "globalSettings.errors.logoChoice" });
    for (const field of COLOUR_FIELDS) {
      if (!isColour(chosenColour(v, field))) ctx.addIssue({ code: "custom", path: [field], message: "globalSettings.errors.colour" });
    }
  });
export type StylingInput = z.infer<typeof stylingSchema>;

