import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgSeries } from "../../../logger/store/series/pg.ts";
import { summarize } from "../../../logger/store/series/ranges.ts";
import { emptySummary } from "../../../logger/store/series/rollups.ts";
import { SeriesStore } from "../../../logger/store/series/store.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";
import { VARS, value } from "./series-pg-ingest.ts";
import { pgBackendPids, sleep, waitedForCore } from "./helpers.ts";

const CHILD = fileURLToPath(new URL("./series-pg-ingest.ts", import.meta.url));
const missing = postgresMissing();
let server: Postgres;

describe.skipIf(missing)("series store on PostgreSQL: crash safety", () => {
  beforeAll(async () => {
    server = await startPostgres({ port: 55453 });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("loses at most the last second when the writer is killed with SIGKILL during ingest", async () => {
    const child = spawn(process.execPath, [CHILD, server.url, "loggia_crash"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 20_000;
    while (!out.includes("ingesting") && Date.now() < deadline) await sleep(25);
    expect(out).toContain("ingesting");
    await sleep(2300);
    // Time the writer and the server processes committing its rows waited for a core in the last
    // second (a loaded machine) is added to the bound.
    const backends = await pgBackendPids(server.url, "loggia-series:loggia_crash");
    const starved = await waitedForCore([child.pid!, ...backends], 1000);
    const killedAt = Date.now();
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const store = await SeriesStore.open(await PgSeries.connect(server.url, "loggia_crash"));
    try {
      for (let i = 0; i < VARS; i++) {
        const vs = store.seriesOf(store.variable(`v${i}`)!);
        // Sample g is at g ms: the newest stored one is under a second old at the kill.
        expect(killedAt - (vs.end - 1), `waited for a core: ${starved} ms`).toBeLessThan(1000 + starved);
        expect(vs.end - vs.first).toBeGreaterThan(2000);
        const { got, rollups, raw } = await store.read((rows) => {
          const got: number[] = [];
          for (let g = vs.end - 2000; g < vs.end; g++) got.push(rows.block(vs, Math.floor(g / 4080))![g % 4080]!);
          const rollups = emptySummary();
          const raw = emptySummary();
          summarize(rows, vs, vs.first, vs.end, 3, rollups);
          summarize(rows, vs, vs.first, vs.end, 0, raw);
          return { got, rollups, raw };
        });
        expect(got).toEqual(Array.from({ length: 2000 }, (_, k) => value(vs.end - 2000 + k, i)));
        expect([rollups.count, rollups.min, rollups.max]).toEqual([raw.count, raw.min, raw.max]);
      }
    } finally {
      await store.close();
    }
  }, 60_000);
});
