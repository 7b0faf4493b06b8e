import { z } from "zod";
import { invalidParam, notFound } from "../http/errors.ts";
import { coordinateError } from "../store/device-locations.ts";
import { getMeasurement, listMeasurements, setMetaData } from "../store/measurements.ts";
import { listMetaData, setMetaEntries } from "../store/metadata.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { nameField } from "./schemas.ts";

// Key/value metadata of measurements, variables and devices in one API. Measurements keep
// theirs in their own row (also reachable over REST); variables and devices in `metadata`.

const Type = z.enum(["measurement", "variable", "device"]);
const Entry = z.object({ Key: nameField(64), Value: z.string().max(1000) });

/** The target's display name, or 404 when it does not exist. */
async function targetName(ctx: CallContext, type: z.infer<typeof Type>, id: string): Promise<string> {
  const name =
    type === "measurement"
      ? (await getMeasurement(ctx.db, id))?.Name
      : type === "variable"
        ? (ctx.data.model.variables.find((v) => v.Id === id)?.Name ?? ctx.data.store.variable(id)?.Name)
        : ctx.data.model.devices.find((d) => d.ID === id)?.Name;
  if (name === undefined) throw notFound(`Unknown ${type} ${id}`);
  return name;
}

async function allEntries(ctx: CallContext, type?: z.infer<typeof Type>, id?: string) {
  const rows: { Type: string; ID: string; Key: string; Value: string }[] = [];
  if (!type || type === "measurement") {
    const ms = id ? [await getMeasurement(ctx.db, id)].filter((m) => m !== null) : await listMeasurements(ctx.db, { Order: "asc", Limit: 1_000_000 }, ctx.data.now());
    for (const m of ms) for (const e of m.MetaData) rows.push({ Type: "measurement", ID: m.ID, ...e });
  }
  if (type !== "measurement") rows.push(...(await listMetaData(ctx.db, type, id)));
  return rows;
}

export const metadataMethods: Registry = {
  "MetaDataAPI.GetMetaData": method({
    params: z.object({ Type: Type.optional(), ID: z.string().min(1).max(64).optional() }),
    permission: null,
    handler: async (p, ctx) => ({ MetaData: await allEntries(ctx, p.Type, p.ID) }),
  }),

  "MetaDataAPI.SetMetaData": method({
    params: z.object({ Type, ID: z.string().min(1).max(64), MetaData: z.array(Entry).min(1).max(200) }),
    permission: "ManageProject",
    handler: async (p, ctx) => {
      const name = await targetName(ctx, p.Type, p.ID);
      if (p.Type === "device") {
        const problem = p.MetaData.map((e) => coordinateError(e.Key, e.Value)).find((m) => m !== null);
        if (problem) throw invalidParam(problem);
      }
      const meta = p.Type === "measurement" ? (await setMetaData(ctx.db, p.ID, p.MetaData))?.MetaData : await setMetaEntries(ctx.db, p.Type, p.ID, p.MetaData);
      // Removed between the check above and the write.
      if (meta === undefined) throw notFound(`Unknown ${p.Type} ${p.ID}`);
      await ctx.audit(`Changed metadata of ${p.Type} ${name}: ${p.MetaData.map((e) => e.Key).join(", ")}`);
      return { MetaData: meta };
    },
  }),

  "MetaDataAPI.GetKeys": method({
    params: z.object({}),
    permission: null,
    handler: async (_p, ctx) => ({ Keys: [...new Set((await allEntries(ctx)).map((e) => e.Key))].sort() }),
  }),
};
