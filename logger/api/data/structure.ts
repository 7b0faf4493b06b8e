import { z } from "zod";
import { notFound, refused } from "../../http/errors.ts";
import { sendData } from "../../http/rest.ts";
import { writeDataList } from "../../http/answer-stream.ts";
import type { RestRoute } from "../../http/rest.ts";
import { deleteMeasurement, devicesMatching, getMeasurement, listMeasurements, searchMeasurements, setMetaData } from "../../store/measurements.ts";
import type { Measurement, MeasurementFilter } from "../../store/measurements.ts";
import type { DataContext } from "../../model/context.ts";
import { continuousMeasurement, describeMeasurement, describeSource, onlineVariables, sourceFacts, sourceVariables } from "./describe.ts";
import { epochMs } from "./common.ts";
import type { Area } from "./common.ts";
import type { MeasurementKind } from "./describe.ts";

// The structure half of the data contract (LOGGER-API.md, "Data"): what clients list before
// they build selectors. Loggia's extras (metadata search, MatchedOn, End) ride beside it.

// Every time of the data API, from a query's text too (PostgreSQL compares them as bigint).
const time = z.coerce.number().pipe(epochMs);
const MetaTerm = z.object({ Key: z.string().trim().max(64).default(""), Value: z.string().max(1000).default("") });
const MeasurementQuery = z.object({
  Start: time.optional(),
  End: time.optional(),
  // Existing clients send "ASC"/"DESC" as well as lower case.
  Order: z
    .string()
    .default("desc")
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(["asc", "desc"])),
  Limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  Measurements: z.array(z.union([z.string(), z.number()]).transform(String)).max(10_000).optional(),
  AddVarMapping: z.boolean().default(false),
  AddMeasMetaData: z.boolean().default(false),
  /**
   * Metadata search: the measurement's own, a variable's or its device's metadata has this key and
   * a value containing this text. One object, or a list of them (the family's client sends
   * `[{Key, Value}]`): a measurement matching any of them is listed.
   */
  MeasMetaDataFilter: z
    .union([MetaTerm, z.array(MetaTerm).max(50)])
    .optional()
    .transform((f) => (f === undefined ? [] : Array.isArray(f) ? f : [f]).filter((t) => t.Key || t.Value)),
});
type MeasurementQuery = z.output<typeof MeasurementQuery>;

const MetaData = z.object({
  MetaData: z.array(z.object({ Key: z.string().min(1).max(200), Value: z.string().max(10_000) })).min(1).max(200),
});

function sourceOr404(data: DataContext, sid: string) {
  const src = data.store.source(sid);
  if (!src) throw notFound(`Unknown source ${sid}`);
  return src;
}

async function measurementsOf(data: DataContext, db: Parameters<typeof listMeasurements>[0], sid: string, q: MeasurementQuery) {
  if (q.Start !== undefined && q.End !== undefined && q.End < q.Start) throw refused("End is before Start");
  const f: MeasurementFilter = { Start: q.Start, End: q.End, Order: q.Order, Limit: q.Limit, SourceId: sid, Ids: q.Measurements };
  if (q.MeasMetaDataFilter.length === 0) return withContinuous(data, db, f, await listMeasurements(db, f, data.now()));
  const { sources, variables } = data.model;
  const terms = await Promise.all(
    q.MeasMetaDataFilter.map(async ({ Key, Value }) => {
      const devices = new Set(await devicesMatching(db, Key, Value));
      return {
        Key,
        Value,
        DeviceSources: sources.filter((s) => devices.has(s.DeviceId)).map((s) => s.Id),
        DeviceVariables: variables.filter((v) => devices.has(v.DeviceId)).map((v) => v.Id),
      };
    }),
  );
  return searchMeasurements(db, f, data.now(), terms);
}

/** The source's continuous recording among its measurements, where the filter lets it in (it has no metadata). */
async function withContinuous(data: DataContext, db: Parameters<typeof listMeasurements>[0], f: MeasurementFilter, list: Measurement[]): Promise<(Measurement & { Kind?: MeasurementKind })[]> {
  const c = await continuousMeasurement(data, db, data.store.source(f.SourceId!));
  const end = c?.End ?? data.now();
  if (!c || (f.Ids && !f.Ids.includes(c.ID)) || (f.End !== undefined && c.Start > f.End) || (f.Start !== undefined && end < f.Start)) return list;
  const all = [...list, c].sort((a, b) => (f.Order === "asc" ? a.Start - b.Start : b.Start - a.Start));
  return all.slice(0, f.Limit);
}

export const structureRoutes: RestRoute[] = [
  {
    method: "GET",
    pattern: /^\/online\/structure\/variables$/,
    handler: ({ res, ctx }) => sendData(res, onlineVariables(ctx.data.model.variables)),
  },
  {
    method: "GET",
    pattern: /^\/(buffer|history)\/structure\/sources$/,
    handler: ({ res, ctx, args }) =>
      sendData(res, ctx.data.store.allSources().map((s, i) => describeSource(ctx.data, s, args[0] as Area, i))),
  },
  {
    method: "GET",
    pattern: /^\/(buffer|history)\/structure\/sources\/([^/]+)\/variables$/,
    handler: ({ res, ctx, args }) => sendData(res, sourceVariables(ctx.data, sourceOr404(ctx.data, args[1]!))),
  },
  ...["GET", "POST"].map(
    (method): RestRoute => ({
      method,
      pattern: /^\/(buffer|history)\/structure\/sources\/([^/]+)\/measurements$/,
      handler: async (r) => {
        const area = r.args[0] as Area;
        const src = sourceOr404(r.ctx.data, r.args[1]!);
        // GET carries the query as strings: the flags and the id list come as text.
        const q = await r.input(
          r.req.method === "GET"
            ? MeasurementQuery.extend({
                AddVarMapping: z.stringbool().default(false),
                AddMeasMetaData: z.stringbool().default(false),
                Measurements: z.string().transform((s) => s.split(",").filter(Boolean)).optional(),
                MeasMetaDataFilter: z.undefined().optional().transform((): { Key: string; Value: string }[] => []),
              })
            : MeasurementQuery,
        );
        const found = await measurementsOf(r.ctx.data, r.ctx.db, src.Id, q);
        const facts = sourceFacts(r.ctx.data, src.Id, q.AddVarMapping);
        // Up to 10,000 measurements, each with its variables: written one at a time, not as one string.
        await writeDataList<(typeof found)[number]>(r.res, found, (m, i) => describeMeasurement(r.ctx.data, m, area, i, { vars: q.AddVarMapping, meta: q.AddMeasMetaData }, facts));
      },
    }),
  ),
  {
    method: "DELETE",
    pattern: /^\/history\/structure\/measurements\/([^/]+)$/,
    handler: async (r) => {
      r.require("ManageProject");
      // The running check and the delete in one tx: a measurement cannot be restarted, but the
      // check must see the row the delete removes.
      const m = await r.ctx.db.tx(async (q) => {
        const m = await getMeasurement(q, r.args[0]!);
        if (!m) throw notFound(`Measurement ${r.args[0]} not found`);
        if (m.End === null) throw refused(`Measurement ${m.Name} is still running; stop it first`).coded("measurementStillRunning", { name: m.Name });
        await deleteMeasurement(q, m.ID);
        return m;
      });
      await r.audit(`Deleted measurement ${m.Name}`);
      sendData(r.res, { Id: m.ID });
    },
  },
  {
    method: "POST",
    pattern: /^\/history\/structure\/measurements\/([^/]+)\/metadata$/,
    handler: async (r) => {
      r.require("ManageProject");
      const p = await r.input(MetaData);
      const m = await setMetaData(r.ctx.db, r.args[0]!, p.MetaData);
      if (!m) throw notFound(`Measurement ${r.args[0]} not found`);
      await r.audit(`Changed metadata of measurement ${m.Name}: ${p.MetaData.map((e) => e.Key).join(", ")}`);
      sendData(r.res, describeMeasurement(r.ctx.data, m, "history", 0, { vars: false, meta: true }));
    },
  },
];
