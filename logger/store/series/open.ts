import { PgSeries } from "./pg.ts";
import { SeriesStore } from "./store.ts";

export type SeriesOptions = {
  dataDir: string;
  /** postgres://… puts the series in PostgreSQL; unset keeps series.db in dataDir. Default: STORE_URL. */
  storeUrl?: string;
  /** The schema the series live in on PostgreSQL (the relational store's own, loggia_<LOGGER_ID>). */
  schema?: string;
  log?: (line: string) => void;
};

/** The logger's series store on the engine STORE_URL names (SQLite when unset); says which at start. */
export async function openSeriesStore(o: SeriesOptions): Promise<SeriesStore> {
  const url = o.storeUrl ?? process.env.STORE_URL ?? "";
  if (!url) return new SeriesStore(o.dataDir);
  const schema = o.schema ?? `loggia_${process.env.LOGGER_ID || "default"}`;
  const backend = await PgSeries.connect(url, schema);
  const store = await SeriesStore.open(backend);
  o.log?.(`logger: series in ${backend.describe}`);
  return store;
}
