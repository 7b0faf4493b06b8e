import { ADMIN_PASSWORD, LOGGER, rpc, token, unique } from "./fixtures";

// Seeding for the history screens: short measurements recorded on the shared logger.

export async function variableIds(): Promise<Record<string, string>> {
  const res = await fetch(`${LOGGER}/online/structure/variables`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { Id: string; Name: string }[] };
  return Object.fromEntries(Data.map((v) => [v.Name, v.Id]));
}

/** Records a measurement of about `ms` on the bench; stops it even when the test fails. */
export async function recordMeasurement(prefix: string, ms = 1500, metaData: { Key: string; Value: string }[] = []): Promise<{ ID: string; Name: string; Start: number; End: number }> {
  const name = unique(prefix);
  const { State } = await rpc<{ State: { Running: boolean } }>("ProjectAPI.GetState", {});
  await rpc("ProjectAPI.Start", {});
  type Recorded = { Measurement: { ID: string; Name: string; Start: number; End: number } };
  let stopped: Recorded | undefined;
  try {
    await rpc("MeasurementAPI.Start", { Name: name, MetaData: metaData });
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      stopped = await rpc<Recorded>("MeasurementAPI.Stop", {});
    }
  } finally {
    if (!State.Running) await rpc("ProjectAPI.Stop", {});
  }
  return stopped.Measurement;
}
