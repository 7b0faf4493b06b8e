// Child process of series-pg-crash.test.ts: acquires like the logger (appends every 10 ms,
// the logger's paced flush every 500 ms) into the series store on PostgreSQL until killed.
// Sample g of variable i is at g ms and holds value(g, i).
import { PgSeries } from "../../../logger/store/series/pg.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";

export const VARS = 8;
export const value = (g: number, i: number) => Math.fround(Math.sin(g / 997) * 10 + i);

if (process.argv[2]) {
  const [url, schema] = process.argv.slice(2);
  const store = await SeriesStore.open(await PgSeries.connect(url!, schema!));
  store.defineSource({ Id: "s", Name: "Source", PeriodUs: 1000 });
  for (let i = 0; i < VARS; i++) store.defineVariable({ Id: `v${i}`, SourceId: "s", Name: `V${i}`, Unit: "" });
  let next = Date.now();
  setInterval(() => {
    const end = Date.now();
    if (end <= next) return;
    for (let i = 0; i < VARS; i++) {
      const data = new Float32Array(end - next);
      for (let k = 0; k < data.length; k++) data[k] = value(next + k, i);
      store.append(`v${i}`, next, data);
    }
    next = end;
  }, 10);
  setInterval(() => void store.flushPaced(), 500);
  await store.flush();
  process.stdout.write("ingesting\n");
}
