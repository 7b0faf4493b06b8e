import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSim } from "../../../logger/sim/options.ts";
import { buildRig } from "../../../logger/sim/rig.ts";
import { postgresMissing, startPostgres } from "../../support/postgres.ts";
import type { Postgres } from "../../support/postgres.ts";
import { ADMIN_PASSWORD, login, sleep, start, tempDir } from "./helpers.ts";

// The whole logger with STORE_URL: the simulator's samples go to the series store in PostgreSQL,
// history and statistics are answered from there, and again after a restart.

const missing = postgresMissing();
let server: Postgres;
const SIM = { seed: 9, benchRateHz: 1000, benchChannels: 4 };

describe.skipIf(missing)("the logger's series on PostgreSQL", () => {
  beforeAll(async () => {
    server = await startPostgres({ port: 55457 });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers history and statistics from PostgreSQL, also after a restart", async () => {
    const dataDir = tempDir();
    const oil = buildRig(resolveSim(SIM)).model.variables.find((v) => v.Name === "Oil temperature")!;
    const ask = async (url: string, path: string, body: object) => {
      const token = (await login(url, "admin", ADMIN_PASSWORD)).access;
      const res = await fetch(`${url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return (await res.json()) as { Data: any };
    };
    try {
      const opts = { dataDir, adminPassword: ADMIN_PASSWORD, storeUrl: server.url, loggerId: "seriesweb", simulator: SIM };
      let lg = await start(opts);
      expect(lg.lines.join("\n")).toMatch(/series in PostgreSQL, schema loggia_seriesweb, weekly partitions/);
      await sleep(2500);
      const end = Date.now() - 200;
      const first = await ask(lg.url, "/history/data", { Start: end - 1500, End: end, Variables: [{ SID: oil.SourceId, VID: oil.Id }], Points: 100 });
      const ts = first.Data[0].TimeSeries;
      expect(ts.Size).toBeGreaterThan(50);
      expect(ts.Values[0].filter((v: number | null) => v !== null).length).toBeGreaterThan(50);
      const st = await ask(lg.url, "/history/statistics", { Start: end - 1500, End: end, Variables: [{ SID: oil.SourceId, VID: oil.Id }] });
      expect(st.Data.Statistics[0].Count).toBeGreaterThan(1000);
      await lg.close();

      // Restarted on the same schema: the same answer for the same range.
      lg = await start(opts);
      const again = await ask(lg.url, "/history/data", { Start: end - 1500, End: end, Variables: [{ SID: oil.SourceId, VID: oil.Id }], Points: 100 });
      expect(again.Data[0].TimeSeries.Values).toEqual(ts.Values);
      await lg.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
