// The store series-compaction.test.ts packs: written the way the store wrote before issue 29
// (every row plain), with gaps, NaNs and a rate change. Run as a child process with a data
// folder (and a PostgreSQL URL and schema), it packs that store's plain rows, printing the rows
// packed after every step, until it is done or killed.
import { uniform } from "../../../logger/sim/prng.ts";
import { openSeriesStore } from "../../../logger/store/series/open.ts";
import type { SeriesStore } from "../../../logger/store/series/store.ts";

export const VARS = 6;
/** Sample index at 1 kHz (= ms) of the first sample. */
export const START = 1_700_000_000_000;
export const LENGTH = 1_200_000;
/** Then the rate doubles (a new segment: the first one becomes a closed part). */
export const AFTER = 200_000;

/** Sample g of variable i: quantised noise on a slow wave, with a gap of 300 samples now and then. */
export function value(g: number, i: number): number {
  if ((g + i * 7919) % 50_000 < 300) return Number.NaN;
  return Math.fround(20 + i + 5 * Math.sin(g / 5000) + Math.round(uniform(3, i, g) * 200 - 100) * 2 ** -14);
}

export async function buildLegacy(store: SeriesStore): Promise<void> {
  store.codec.pack = false;
  store.defineSource({ Id: "s", Name: "Source", PeriodUs: 1000 });
  for (let i = 0; i < VARS; i++) store.defineVariable({ Id: `v${i}`, SourceId: "s", Name: `V${i}`, Unit: "" });
  const batch = new Float32Array(10_000);
  for (let off = 0; off < LENGTH; off += batch.length) {
    for (let i = 0; i < VARS; i++) {
      for (let k = 0; k < batch.length; k++) batch[k] = value(START + off + k, i);
      store.append(`v${i}`, START + off, batch);
    }
    if (off % 100_000 === 0) await store.flush();
  }
  const seg = store.changePeriod("s", 500, (START + LENGTH) * 1000);
  const g0 = seg.StartUs / 500;
  for (let off = 0; off < AFTER; off += batch.length) {
    for (let i = 0; i < VARS; i++) {
      for (let k = 0; k < batch.length; k++) batch[k] = value(g0 + off + k, i);
      store.append(`v${i}`, g0 + off, batch);
    }
  }
  await store.settled();
}

if (process.argv[2]) {
  const [dataDir, storeUrl, schema] = process.argv.slice(2);
  const store = await openSeriesStore({ dataDir: dataDir!, storeUrl: storeUrl ?? "", schema });
  process.stdout.write("compacting\n");
  await store.compactAll((packed) => process.stdout.write(`packed ${packed}\n`));
  process.stdout.write("done\n");
  await store.close();
}
