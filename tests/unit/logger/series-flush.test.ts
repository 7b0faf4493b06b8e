import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { tempDir } from "./helpers.ts";

// The logger's 500 ms flush on the embedded engine (issue 16): written in slices with turns for
// other events between them, and never letting an older slice overwrite a newer row.

const VARS = 300;
const value = (g: number, i: number) => Math.fround(Math.sin(g / 37) + i);

function fill(store: SeriesStore, from: number, n: number): void {
  for (let i = 0; i < VARS; i++) {
    const data = new Float32Array(n);
    for (let k = 0; k < n; k++) data[k] = value(from + k, i);
    store.append(`v${i}`, from, data);
  }
}

describe("paced flush of the embedded series store", () => {
  it("gives other events turns while it writes, and keeps the newest version of every row", async () => {
    const dir = tempDir();
    try {
      const store = new SeriesStore(dir);
      store.defineSource({ Id: "s", Name: "S", PeriodUs: 1000 });
      for (let i = 0; i < VARS; i++) store.defineVariable({ Id: `v${i}`, SourceId: "s", Name: `V${i}`, Unit: "" });
      // Every variable has a partial block (and partial rollup chunks): ~1200 rows to write.
      fill(store, 0, 3000);
      let turns = 0;
      const ticker = setInterval(() => turns++, 0);
      const paced = store.flushPaced();
      // While the paced flush is between slices: more samples, and a synchronous flush of them.
      await new Promise<void>((done) => setImmediate(done));
      fill(store, 3000, 500);
      void store.flush();
      await paced;
      clearInterval(ticker);
      expect(turns).toBeGreaterThan(0);
      // A second paced flush with nothing new writes nothing and returns.
      await store.flushPaced();
      await store.close();

      const again = new SeriesStore(dir);
      try {
        const rows = again.reader();
        for (let i = 0; i < VARS; i += 37) {
          const vs = again.seriesOf(again.variable(`v${i}`)!);
          expect(vs.end).toBe(3500);
          const block = rows.block(vs, 0)!;
          expect(block[3499]).toBe(value(3499, i));
          expect(block[0]).toBe(value(0, i));
        }
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
