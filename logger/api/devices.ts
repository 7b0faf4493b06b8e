import { z } from "zod";
import { invalidParam, notFound, refused } from "../http/errors.ts";
import type { DataContext } from "../model/context.ts";
import { deviceLocations } from "../store/device-locations.ts";
import { projectState, runningMeasurement, startMeasurement, stopMeasurement } from "../store/measurements.ts";
import type { Measurement } from "../store/measurements.ts";
import type { Db } from "../store/db.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { nameField } from "./schemas.ts";

async function state(db: Db, data: DataContext) {
  const s = await projectState(db, data.now());
  // Nothing to acquire (no simulator, no data source): not running, whatever was stored.
  const configured = data.acquisition.configured();
  return {
    State: {
      ProjectName: s.ProjectName,
      Running: configured && data.acquisition.running,
      Since: configured ? data.acquisition.since : null,
      // Who stopped (or started) it: the console says why values are stale (issue 26 §3).
      ChangedBy: configured ? await changedBy(db, data) : null,
      Measurement: await runningMeasurement(db),
      // Loggia: whether the series store takes writes, how full its outage buffer is, what the last outage cost.
      Store: data.store.outageStatus(),
    },
  };
}

/** The user who last started or stopped acquisition; after a restart read once from the audit log. */
async function changedBy(db: Db, data: DataContext): Promise<string | null> {
  const acq = data.acquisition;
  if (acq.changedBy === undefined) {
    const row = await db.get<{ Sender: string; Text: string }>(
      "SELECT Sender, Text FROM messages WHERE Topic = 'Audit' AND Text IN ('Started the project', 'Stopped the project') ORDER BY ID DESC LIMIT 1",
    );
    // Only if it matches the state now (a start or stop that was not stored says nothing).
    acq.changedBy = row && (row.Text === "Stopped the project") === !acq.running ? row.Sender : null;
  }
  return acq.changedBy;
}

const NOTHING_TO_ACQUIRE = "No acquisition is configured (the simulator is off and there is no data source)";

async function endMeasurement(ctx: CallContext, q: Db, m: Measurement): Promise<Measurement> {
  const done = await stopMeasurement(q, m.ID, ctx.data.now());
  await ctx.audit(`Stopped measurement ${m.Name}`, q);
  return done;
}

export const deviceMethods: Registry = {
  "DeviceAPI.GetDevices": method({
    params: z.object({}),
    permission: null,
    handler: async (_p, ctx) => {
      const locations = await deviceLocations(ctx.db);
      const Devices = ctx.data.model.devices.map((d) => ({
        ID: d.ID,
        Name: d.Name,
        Type: d.Type,
        Serial: d.Serial,
        Firmware: d.Firmware,
        IPAddress: d.IPAddress,
        // From the device's metadata (Latitude, Longitude, Site); null when it has none.
        Location: locations.get(d.ID) ?? null,
        ...(ctx.data.sources.deviceStatus(d.ID) ?? ctx.data.sim?.deviceStatus(d.ID) ?? { Connected: false, LastHeartbeat: null }),
        SourceId: d.SourceId,
        SampleRateHz: d.SampleRateHz,
        Modules: d.Modules,
      }));
      return { Devices };
    },
  }),

  "DeviceAPI.SetRetention": method({
    params: z.object({ SourceId: z.string().min(1), RetentionSec: z.number().int().min(60).nullable() }),
    permission: "ManageProject",
    handler: async (p, ctx) => {
      const src = ctx.data.store.source(p.SourceId);
      if (!src) throw notFound(`Unknown source ${p.SourceId}`);
      ctx.data.store.setRetention(src.Id, p.RetentionSec);
      ctx.data.store.applyRetention(ctx.data.now());
      await ctx.audit(`Set retention of ${src.Name} to ${p.RetentionSec === null ? "forever" : `${p.RetentionSec} s`}`);
      return { SourceId: src.Id, RetentionSec: p.RetentionSec };
    },
  }),

  "ProjectAPI.GetState": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => state(ctx.db, ctx.data),
  }),

  "ProjectAPI.Start": method({
    params: z.object({}),
    permission: "ManageProject",
    handler: async (_p, ctx) => {
      const acq = ctx.data.acquisition;
      if (!acq.configured()) throw refused(NOTHING_TO_ACQUIRE).coded("nothingToAcquire");
      if (!acq.running) {
        await acq.setRunning(true, ctx.me.username);
        await ctx.audit("Started the project");
      }
      return state(ctx.db, ctx.data);
    },
  }),

  "ProjectAPI.Stop": method({
    params: z.object({}),
    permission: "ManageProject",
    handler: async (_p, ctx) => {
      const acq = ctx.data.acquisition;
      if (!acq.configured()) throw refused(NOTHING_TO_ACQUIRE).coded("nothingToAcquire");
      if (acq.running) {
        // A recording session cannot outlive the acquisition it records.
        await ctx.db.tx(async (q) => {
          const m = await runningMeasurement(q);
          if (m) await endMeasurement(ctx, q, m);
        });
        await acq.setRunning(false, ctx.me.username);
        await ctx.audit("Stopped the project");
      }
      return state(ctx.db, ctx.data);
    },
  }),

  "MeasurementAPI.Start": method({
    params: z.object({
      Name: nameField(200),
      SourceId: z.string().min(1).optional(),
      Variables: z.array(z.string().min(1)).min(1).max(1000).optional(),
      MetaData: z.array(z.object({ Key: z.string().min(1).max(200), Value: z.string().max(10_000) })).max(200).default([]),
    }),
    permission: "ManageProject",
    handler: async (p, ctx) => {
      const data = ctx.data;
      if (!data.acquisition.configured() || !data.acquisition.running) {
        const running = await runningMeasurement(ctx.db);
        if (running) throw refused(`Measurement ${running.Name} is running; stop it first`).coded("measurementRunning", { name: running.Name });
        throw refused("The project is not running; start it first").coded("projectNotRunning");
      }
      const sourceId = p.SourceId ?? data.model.sources[0]?.Id;
      const src = sourceId ? data.model.sources.find((s) => s.Id === sourceId) : undefined;
      if (!src) throw notFound(`Unknown source ${sourceId ?? ""}`);
      const vars = p.Variables ?? src.Variables;
      const stray = vars.find((id) => !src.Variables.includes(id));
      if (stray) throw invalidParam(`Variable ${stray} is not in source ${src.Name}`);
      // The check and the start in one tx: two starts at once must not both pass the check.
      const m = await ctx.db.tx(async (q) => {
        const running = await runningMeasurement(q);
        if (running) throw refused(`Measurement ${running.Name} is running; stop it first`).coded("measurementRunning", { name: running.Name });
        const m = await startMeasurement(q, { Name: p.Name, Start: data.now(), SourceId: src.Id, Variables: vars, MetaData: p.MetaData });
        await ctx.audit(`Started measurement ${m.Name}`, q);
        return m;
      });
      return { Measurement: m };
    },
  }),

  "MeasurementAPI.Stop": method({
    params: z.object({}),
    permission: "ManageProject",
    handler: (_p, ctx) =>
      ctx.db.tx(async (q) => {
        const m = await runningMeasurement(q);
        if (!m) throw refused("No measurement is running").coded("noMeasurementRunning");
        return { Measurement: await endMeasurement(ctx, q, m) };
      }),
  }),
};
