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
  try {
    await rpc("MeasurementAPI.Start", { Name: name, MetaData: metaData });
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      await rpc("MeasurementAPI.Stop", {});
    }
  } finally {
    if (!State.Running) await rpc("ProjectAPI.Stop", {});
  }
  const res = await fetch(`${LOGGER}/history/structure/measurements?Limit=100`, { headers: { Authorization: `Bearer ${await token("admin", ADMIN_PASSWORD)}` } });
  const { Data } = (await res.json()) as { Data: { ID: string; Name: string; Start: number; End: number }[] };
  return Data.find((m) => m.Name === name)!;
}
