import { z } from "zod";
import { conflict, invalidParam, refused } from "../http/errors.ts";
import type { DataContext } from "../model/context.ts";
import type { Simulator } from "../sim/simulator.ts";
import type { Db } from "../store/db.ts";
import { projectState } from "../store/measurements.ts";
import { loadProjectConfig, saveProjectConfig, setProjectName } from "../store/project-config.ts";
import type { ChannelConfig, StoredProjectConfig } from "../store/project-config.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { nameField } from "./schemas.ts";
import { storageFigures } from "./storage-figures.ts";

// ConfigAPI.GetProjectConfig / SetProjectConfig: the Simple Config screen. Project name, the
// bench controller's sample rate and its analog channels; applied to the running simulator at
// once, one audit message per change, persisted so a restart keeps it.

/** Rates the simulator sustains with room to spare (28 bench variables × 1 kHz is 28k samples/s). */
export const SAMPLE_RATES = [1, 10, 50, 100, 200, 500, 1000] as const;
export const NAME_MAX = 64;
export const UNIT_MAX = 32;
export const PROJECT_NAME_MAX = 100;

const finite = z.number().refine(Number.isFinite, { message: "Must be a finite number" });

const Channel = z
  .object({
    VariableId: z.string().min(1).max(100),
    Enabled: z.boolean(),
    Name: nameField(NAME_MAX, { empty: "Must not be empty", tooLong: `At most ${NAME_MAX} characters` }),
    Unit: z.string().trim().max(UNIT_MAX, `At most ${UNIT_MAX} characters`),
    RangeMin: finite,
    RangeMax: finite,
    Precision: z.number().int().min(0).max(6),
  })
  .refine((c) => c.RangeMin < c.RangeMax, { message: "RangeMin must be less than RangeMax", path: ["RangeMax"] });

const SetParams = z.object({
  Config: z.object({
    ProjectName: nameField(PROJECT_NAME_MAX, { empty: "Must not be empty", tooLong: `At most ${PROJECT_NAME_MAX} characters` }),
    SampleRateHz: z.number().refine((r) => (SAMPLE_RATES as readonly number[]).includes(r), { message: `Must be one of ${SAMPLE_RATES.join(", ")} Hz` }),
    Channels: z
      .array(Channel)
      .max(256)
      .superRefine((channels, ctx) => {
        const seen = new Map<string, number>();
        channels.forEach((c, i) => {
          const key = c.Name.trim().toLowerCase();
          if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "Name"], message: `Channel name ${c.Name} is used twice; names must be unique` });
          else seen.set(key, i);
        });
      }),
  }),
  /** The revision the edit is based on; a newer stored one answers 409. Absent = overwrite. */
  Revision: z.number().int().min(0).optional(),
});

type Channel = z.output<typeof Channel>;

function benchOf(data: DataContext) {
  const sim = data.sim;
  if (!sim) return null;
  const device = data.model.devices.find((d) => d.ID === sim.rig.bench.deviceId)!;
  return { sim, device };
}

async function describe(db: Db, data: DataContext) {
  const { revision } = await loadProjectConfig(db);
  const bench = benchOf(data);
  const channels = bench
    ? bench.sim.rig.bench.channels.map((id) => {
        const v = data.model.variables.find((x) => x.Id === id)!;
        return { VariableId: v.Id, Index: v.Index, Enabled: bench.sim.isEnabled(v.Id), Name: v.Name, Unit: v.Unit, RangeMin: v.RangeMin, RangeMax: v.RangeMax, Precision: v.Precision };
      })
    : [];
  return {
    Config: {
      ProjectName: (await projectState(db, data.now())).ProjectName,
      DeviceName: bench?.device.Name ?? null,
      SampleRateHz: bench?.device.SampleRateHz ?? null,
      Channels: channels,
    },
    SampleRates: [...SAMPLE_RATES],
    Revision: revision,
  };
}

/** Puts one channel's settings into the model, the store's names and the acquisition. */
export function applyChannel(data: Pick<DataContext, "model" | "store">, sim: Simulator, id: string, c: ChannelConfig): void {
  const v = data.model.variables.find((x) => x.Id === id);
  if (!v) return;
  Object.assign(v, { Name: c.Name, Unit: c.Unit, RangeMin: c.RangeMin, RangeMax: c.RangeMax, Precision: c.Precision });
  data.store.defineVariable({ Id: v.Id, SourceId: v.SourceId, Name: c.Name, Unit: c.Unit });
  sim.setEnabled(id, c.Enabled);
}

/** At start-up, before acquisition: the stored channel settings (the rate went into SimOptions). */
export async function applyStoredChannels(db: Db, data: Pick<DataContext, "model" | "store">, sim: Simulator): Promise<void> {
  const { config } = await loadProjectConfig(db);
  for (const id of sim.rig.bench.channels) {
    const c = config.Channels[id];
    if (c) applyChannel(data, sim, id, c);
  }
}

/** The audit lines of one channel's change, in words a person reads on the Log screen. */
function changes(before: Channel, after: Channel): string[] {
  const out: string[] = [];
  const name = before.Name;
  if (before.Name !== after.Name) out.push(`Renamed channel ${before.Name} to ${after.Name}`);
  if (before.Unit !== after.Unit) out.push(`Changed the unit of channel ${after.Name} from "${before.Unit}" to "${after.Unit}"`);
  if (before.RangeMin !== after.RangeMin || before.RangeMax !== after.RangeMax) {
    out.push(`Changed the range of channel ${after.Name} from ${before.RangeMin} … ${before.RangeMax} to ${after.RangeMin} … ${after.RangeMax}`);
  }
  if (before.Precision !== after.Precision) out.push(`Changed the precision of channel ${after.Name} from ${before.Precision} to ${after.Precision}`);
  if (before.Enabled !== after.Enabled) out.push(`${after.Enabled ? "Enabled" : "Disabled"} channel ${after.Name}${name !== after.Name ? ` (was ${name})` : ""}`);
  return out;
}

async function setProjectConfig(p: z.output<typeof SetParams>, ctx: CallContext) {
  const { db, data } = ctx;
  const current = await describe(db, data);
  if (p.Revision !== undefined && p.Revision !== current.Revision) {
    throw conflict("The project config was changed by someone else meanwhile; reload and try again").coded("stale");
  }
  const bench = benchOf(data);
  const next = p.Config;
  if (!bench) {
    if (next.Channels.length > 0) throw refused("No acquisition is configured (the simulator is off): there are no channels to configure");
  } else {
    const ids = bench.sim.rig.bench.channels;
    const given = new Set(next.Channels.map((c) => c.VariableId));
    const stray = next.Channels.find((c) => !ids.includes(c.VariableId));
    if (stray) throw invalidParam(`Invalid parameter Config.Channels: ${stray.VariableId} is not an analog input of ${bench.device.Name}`);
    if (given.size !== next.Channels.length || ids.some((id) => !given.has(id))) {
      throw invalidParam(`Invalid parameter Config.Channels: give every analog input of ${bench.device.Name} exactly once`);
    }
    // Names must stay unique on the device, also against its digital I/O.
    const others = data.model.variables.filter((v) => v.DeviceId === bench.device.ID && !ids.includes(v.Id));
    for (const c of next.Channels) {
      const clash = others.find((v) => v.Name.toLowerCase() === c.Name.toLowerCase());
      if (clash) throw invalidParam(`Invalid parameter Config.Channels.${next.Channels.indexOf(c)}.Name: ${c.Name} is already the name of another variable of ${bench.device.Name}`);
    }
  }

  const audit: string[] = [];
  if (current.Config.ProjectName !== next.ProjectName) audit.push(`Renamed the project from ${current.Config.ProjectName} to ${next.ProjectName}`);
  const rateChanged = bench !== null && current.Config.SampleRateHz !== next.SampleRateHz;
  if (rateChanged) audit.push(`Changed the sample rate of ${bench.device.Name} from ${current.Config.SampleRateHz} Hz to ${next.SampleRateHz} Hz`);
  const before = new Map(current.Config.Channels.map((c) => [c.VariableId, c]));
  for (const c of next.Channels) audit.push(...changes(before.get(c.VariableId)!, c));

  if (audit.length === 0) return current;
  const stored: StoredProjectConfig = bench
    ? {
        SampleRateHz: next.SampleRateHz,
        Channels: Object.fromEntries(next.Channels.map(({ VariableId, ...c }) => [VariableId, c])),
      }
    : (await loadProjectConfig(db)).config;
  await db.tx(async (q) => {
    // The revision checked above is checked again where it is written: another save in between loses.
    if ((await loadProjectConfig(q)).revision !== current.Revision) {
      throw conflict("The project config was changed by someone else meanwhile; reload and try again").coded("stale");
    }
    await projectState(q, data.now());
    await setProjectName(q, next.ProjectName);
    await saveProjectConfig(q, stored, current.Revision + 1);
  });
  // Applied after the config is stored: a restart comes back to what is acquired now.
  if (bench) {
    for (const c of next.Channels) {
      const { VariableId, ...rest } = c;
      applyChannel(data, bench.sim, VariableId, rest);
    }
    if (rateChanged) bench.sim.setRate(bench.device.ID, next.SampleRateHz);
  }
  for (const line of audit) await ctx.audit(line);
  return describe(db, data);
}

export const projectConfigMethods: Registry = {
  "ConfigAPI.GetProjectConfig": method({
    params: z.object({}),
    permission: "ManageProject",
    handler: (_p, ctx) => describe(ctx.db, ctx.data),
  }),

  "ConfigAPI.SetProjectConfig": method({
    params: SetParams,
    permission: "ManageProject",
    handler: (p, ctx) => setProjectConfig(p, ctx),
  }),

  // The disk figures behind the screen's "at this rate this disk holds ~N days" (issue 29).
  "ConfigAPI.GetStorage": method({
    params: z.object({}),
    permission: "ManageProject",
    handler: async (_p, ctx) => ({ Storage: await storageFigures(ctx) }),
  }),
};
