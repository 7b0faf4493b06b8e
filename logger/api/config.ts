import { z } from "zod";
import { notFound } from "../http/errors.ts";
import { engineVersion } from "../store/db.ts";
import { schemaAppliedAt, schemaVersion } from "../store/migrations.ts";
import { LOGGER_VERSION, loggerName } from "../version.ts";
import { getGlobal, setGlobal, setGlobalParams } from "./global-settings.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { timezoneNames } from "./schemas.ts";

// A controller keeps its settings under AdminAPI only; the console probes ConfigAPI first.
function serviceOnly(ctx: CallContext): void {
  if (ctx.controller) throw notFound("Not available on a controller");
}

function versionParts(text: string) {
  const [major = 0, minor = 0, build = 0] = text.split(".").map((n) => Number.parseInt(n, 10) || 0);
  return { Major: major, Minor: minor, Build: build };
}

function utcOffset(zone: string, at: Date): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  const offset = part?.replace("GMT", "") || "+00:00";
  return `UTC${offset}`;
}

// Building 400+ formatters is slow; offsets only change at DST switches, so an hour-old list is fine.
let zoneCache: { hour: number; list: Array<{ Description: string; Value: string }> } | undefined;
function timezoneList() {
  const hour = Math.floor(Date.now() / 3_600_000);
  if (zoneCache?.hour !== hour) {
    const now = new Date();
    zoneCache = {
      hour,
      list: timezoneNames().map((zone) => ({ Description: `${zone} (${utcOffset(zone, now)})`, Value: zone })),
    };
  }
  return zoneCache.list;
}

export const configMethods: Registry = {
  "ConfigAPI.GetGlobalSettings": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => {
      serviceOnly(ctx);
      return getGlobal(ctx);
    },
  }),

  "ConfigAPI.SetGlobalSettings": method({
    params: setGlobalParams,
    permission: "ManageGlobalSettings",
    handler: (p, ctx) => {
      serviceOnly(ctx);
      return setGlobal(p.Config, ctx);
    },
  }),

  "ConfigAPI.GetVersionInformation": method({
    params: z.object({}),
    permission: null,
    handler: async (_p, ctx) => {
      const engine = await engineVersion(ctx.db);
      return {
        VersionInformation: [
          { Name: loggerName(ctx.controller), ...LOGGER_VERSION },
          { Name: "Database schema", Major: await schemaVersion(ctx.db), Minor: 0, Build: 0, BuildDateTime: await schemaAppliedAt(ctx.db) },
          { Name: "Node.js", ...versionParts(process.versions.node), BuildDateTime: "" },
          { Name: engine.Name, ...versionParts(engine.Version), BuildDateTime: "" },
        ],
      };
    },
  }),

  "ConfigAPI.ListTimezones": method({
    // The console sends a "representation of UTC"; every representation gets the same list.
    params: z.object({ Representation: z.unknown().optional() }),
    permission: "public",
    handler: () => ({ Timezones: { List: timezoneList() } }),
  }),
};
