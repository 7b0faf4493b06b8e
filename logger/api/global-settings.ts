import { z } from "zod";
import { readConfig, writeConfig } from "../store/global-settings.ts";
import type { GlobalConfig } from "../store/global-settings.ts";
import { ianaZone } from "./schemas.ts";
import type { CallContext } from "./registry.ts";

// Shared by ConfigAPI and AdminAPI, which expose the same settings under two names.

// Partial: a Config with only the changed keys merges into the stored one. Unknown keys are kept
// because the real logger family stores more settings than this logger knows about.
export const configPatch = z.looseObject({
  DefaultStartPage: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_/-]+$/, { message: "Use letters, digits, _ / and - only" })
    .optional(),
  LoginRequired: z.boolean().optional(),
  Features: z.array(z.string().max(64)).max(200).optional(),
  DefaultLanguage: z.enum(["en", "it"]).optional(),
  DefaultTimezone: ianaZone.optional(),
  // The Jupyter Lab page embeds this address; "" switches it off.
  JupyterUrl: z.union([z.literal(""), z.url({ protocol: /^https?$/, error: "Use an http or https address" }).max(500)]).optional(),
  // The Map's base layer: a tile URL template ({z}/{x}/{y}); "" means the built-in offline map.
  MapTileUrl: z
    .union([
      z.literal(""),
      z
        .string()
        .max(500)
        .refine((u) => /^https?:\/\/[^\s/]+/i.test(u) && ["{z}", "{x}", "{y}"].every((p) => u.includes(p)), "Use an http or https address with {z}, {x} and {y}"),
    ])
    .optional(),
  MapTileAttribution: z.string().max(300).optional(),
  // Alarm priorities the console's audible annunciator sounds for; [] switches it off.
  AnnunciatorSeverities: z.array(z.enum(["critical", "high", "medium", "low"])).max(4).optional(),
});

export const setGlobalParams = z.object({ Config: configPatch });

export const getGlobal = async (ctx: CallContext) => ({ Config: await readConfig(ctx.db) });

export async function setGlobal(patch: z.output<typeof configPatch>, ctx: CallContext): Promise<object> {
  const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  await ctx.db.tx(async (q) => {
    const before = await readConfig(q);
    const next: GlobalConfig = { ...before, ...clean };
    const changed = Object.keys(clean).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(next[k]));
    await writeConfig(q, next);
    if (changed.length) await ctx.audit(`Changed global settings: ${changed.join(", ")}`, q);
  });
  return {};
}
