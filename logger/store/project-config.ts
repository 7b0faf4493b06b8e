import type { Db } from "./db.ts";

// The project config the Simple Config screen edits: settings that override the simulator's
// defaults on every start. The project name lives in project_state (ProjectAPI.GetState).

export type ChannelConfig = { Enabled: boolean; Name: string; Unit: string; RangeMin: number; RangeMax: number; Precision: number };
export type StoredProjectConfig = {
  /** Bench sample rate; absent = the simulator's default (SIM_BENCH_RATE_HZ). */
  SampleRateHz?: number;
  /** Per analog channel (variable ID); absent = the rig's defaults. */
  Channels: Record<string, ChannelConfig>;
};

export async function loadProjectConfig(db: Db): Promise<{ config: StoredProjectConfig; revision: number }> {
  const r = await db.get<{ Config: string; Revision: number }>("SELECT Config, Revision FROM project_config WHERE ID = 1");
  if (!r) return { config: { Channels: {} }, revision: 0 };
  const parsed = JSON.parse(r.Config) as Partial<StoredProjectConfig>;
  return { config: { SampleRateHz: parsed.SampleRateHz, Channels: parsed.Channels ?? {} }, revision: r.Revision };
}

export async function saveProjectConfig(db: Db, config: StoredProjectConfig, revision: number): Promise<void> {
  await db.run(
    "INSERT INTO project_config (ID, Config, Revision) VALUES (1, ?, ?) ON CONFLICT (ID) DO UPDATE SET Config = excluded.Config, Revision = excluded.Revision",
    JSON.stringify(config),
    revision,
  );
}

export async function setProjectName(db: Db, name: string): Promise<void> {
  await db.run("UPDATE project_state SET ProjectName = ? WHERE ID = 1", name);
}
