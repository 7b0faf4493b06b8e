import { statfs } from "node:fs/promises";
import type { CallContext } from "./registry.ts";

// ConfigAPI.GetStorage: the disk figures the Simple Config screen turns into "at this rate this
// disk holds ~N days" (docs/logger-api.md, docs/storage.md).

export type StorageFigures = {
  /** "embedded": series.db in DATA_DIR, on this machine's disk; "postgres": the database server's. */
  Engine: "embedded" | "postgres";
  /** Bytes the series store takes now. */
  StoreBytes: number;
  /** Free bytes of DATA_DIR's file system for the logger's user; null on PostgreSQL (not this disk). */
  FreeBytes: number | null;
  /** Bytes per sample of rows written now, raw and rollups (SeriesStore.bytesPerSample). */
  BytesPerSample: number;
  /** False while no block is complete yet: the plain size is assumed. */
  Measured: boolean;
  /** Samples a day at the configured rates: every acquired variable of every source. */
  SamplesPerDay: number;
  /** Retention of the bench controller's source, seconds; null = kept forever (or no bench). */
  RetentionSec: number | null;
};

export async function storageFigures(ctx: CallContext): Promise<StorageFigures> {
  const { store, model, sim } = ctx.data;
  let samplesPerDay = 0;
  for (const s of model.sources) {
    const periodUs = store.source(s.Id)?.PeriodUs ?? s.PeriodUs;
    // A bench channel switched off acquires nothing.
    const acquired = s.Variables.filter((id) => !sim || sim.isEnabled(id)).length;
    samplesPerDay += (acquired * 86_400e6) / periodUs;
  }
  const bench = sim ? model.devices.find((d) => d.ID === sim.rig.bench.deviceId) : undefined;
  const { value, measured } = await store.bytesPerSample();
  return {
    Engine: store.engine === "sqlite" ? "embedded" : "postgres",
    StoreBytes: await store.size(),
    FreeBytes: store.engine === "sqlite" ? await freeBytes(ctx.dataDir) : null,
    BytesPerSample: Math.round(value * 1000) / 1000,
    Measured: measured,
    SamplesPerDay: Math.round(samplesPerDay),
    RetentionSec: bench ? (store.source(bench.SourceId)?.RetentionSec ?? null) : null,
  };
}

async function freeBytes(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}
