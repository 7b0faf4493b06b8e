import { z } from "zod";
import { LOGGER_VERSION, loggerName } from "../version.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";

export const systemMethods: Registry = {
  "system.getVersionInfo": method({
    params: z.object({}),
    permission: "public",
    handler: (_p, ctx) => ({ Value: { Name: loggerName(ctx.controller), ...LOGGER_VERSION } }),
  }),
};
