import { z } from "zod";
import { notFound, refused } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import type { RestRoute } from "../../http/rest.ts";
import { deleteMeasurement, devicesMatching, getMeasurement, listMeasurements, searchMeasurements, setMetaData } from "../../store/measurements.ts";
import { describeSource } from "./common.ts";
import type { Area } from "./common.ts";

// GET sends the filter as query parameters (strings), POST as a JSON body.
const time = z.coerce.number().refine(Number.isFinite, { message: "Must be epoch milliseconds" });
const MeasurementFilter = z.object({
  Start: time.optional(),
  End: time.optional(),
  Order: z.enum(["asc", "desc"]).default("desc"),
  Limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** Metadata search: measurements whose own, a variable's or their device's metadata has this key… */
  MetaKey: z.string().trim().max(64).optional(),
  /** …and a value containing this (both case-insensitive); each answer then says MatchedOn. */
  MetaValue: z.string().max(1000).optional(),
});

const MetaData = z.object({
  MetaData: z.array(z.object({ Key: z.string().min(1).max(200), Value: z.string().max(10_000) })).min(1).max(200),
});

export const structureRoutes: RestRoute[] = [
  {
    method: "GET",
    pattern: /^\/online\/structure\/variables$/,
    handler: ({ res, ctx }) => sendData(res, ctx.data.model.variables),
  },
  {
    method: "GET",
    pattern: /^\/(buffer|history)\/structure\/sources$/,
    handler: ({ res, ctx, args }) =>
      sendData(res, ctx.data.store.allSources().map((s) => describeSource(ctx.data, s, args[0] as Area))),
  },
  ...["GET", "POST"].map(
    (method): RestRoute => ({
      method,
      pattern: /^\/history\/structure\/measurements$/,
      handler: async (r) => {
        const f = await r.input(MeasurementFilter);
        if (f.Start !== undefined && f.End !== undefined && f.End < f.Start) throw refused("End is before Start");
        const key = f.MetaKey ?? "";
        const value = f.MetaValue ?? "";
        if (!key && !value) return sendData(r.res, listMeasurements(r.ctx.db, f, r.ctx.data.now()));
        const devices = new Set(devicesMatching(r.ctx.db, key, value));
        const { sources, variables } = r.ctx.data.model;
        sendData(
          r.res,
          searchMeasurements(r.ctx.db, f, r.ctx.data.now(), {
            Key: key,
            Value: value,
            DeviceSources: sources.filter((s) => devices.has(s.DeviceId)).map((s) => s.Id),
            DeviceVariables: variables.filter((v) => devices.has(v.DeviceId)).map((v) => v.Id),
          }),
        );
      },
    }),
  ),
  {
    method: "DELETE",
    pattern: /^\/history\/structure\/measurements\/([^/]+)$/,
    handler: (r) => {
      r.require("ManageProject");
      const m = getMeasurement(r.ctx.db, r.args[0]!);
      if (!m) throw notFound(`Measurement ${r.args[0]} not found`);
      if (m.End === null) throw refused(`Measurement ${m.Name} is still running; stop it first`);
      deleteMeasurement(r.ctx.db, m.ID);
      r.audit(`Deleted measurement ${m.Name}`);
      sendData(r.res, { ID: m.ID });
    },
  },
  {
    method: "POST",
    pattern: /^\/history\/structure\/measurements\/([^/]+)\/metadata$/,
    handler: async (r) => {
      r.require("ManageProject");
      const p = await r.input(MetaData);
      const m = setMetaData(r.ctx.db, r.args[0]!, p.MetaData);
      if (!m) throw notFound(`Measurement ${r.args[0]} not found`);
      r.audit(`Changed metadata of measurement ${m.Name}: ${p.MetaData.map((e) => e.Key).join(", ")}`);
      sendData(r.res, m);
    },
  },
];
