import { z } from "zod";
import { TRACE_LEVELS } from "../trace.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";

export const traceMethods: Registry = {
  // The trace log needs no permission in the console (spec §6), so any valid token reads it.
  "TraceAPI.GetEntries": method({
    params: z.object({
      Level: z.enum(TRACE_LEVELS).default("debug"),
      Since: z.number().int().min(0).default(0),
      Limit: z.number().int().min(1).max(5000).default(500),
    }),
    permission: null,
    handler: (p, ctx) => ctx.trace.query(p.Level, p.Since, p.Limit),
  }),
};
