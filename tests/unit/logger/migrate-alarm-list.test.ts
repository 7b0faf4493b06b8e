import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { dashboardContent } from "../../../logger/api/dashboards.ts";
import { openDb } from "../../../logger/store/db.ts";
import { migrate } from "../../../logger/store/migrations.ts";
import { ADMIN_PASSWORD, login, rpc, start, tempDir } from "./helpers.ts";

// Issue 15 §4 for existing installs: migration 7 adds the alarm list to the default dashboard
// that an older logger seeded, once, and only while that dashboard is still as it was seeded.

/** The "Test cell dashboard" as loggers before the alarm list seeded it (variables do not matter here). */
const OLD_TEST_CELL = dashboardContent.parse({
  Columns: 12,
  RowHeight: 80,
  Range: "1h",
  Refresh: "10s",
  Widgets: [
    { ID: "notes", Type: "text", X: 0, Y: 0, W: 12, H: 1, Options: { Text: "**Engine test cell**" } },
    { ID: "temperatures", Type: "chart", Title: "Temperatures", X: 0, Y: 1, W: 8, H: 4, Variables: ["a", "b"] },
    { ID: "speed", Type: "value", X: 8, Y: 1, W: 4, H: 2, Variables: ["c"] },
    { ID: "oil-pressure", Type: "gauge", X: 8, Y: 3, W: 2, H: 2, Variables: ["d"] },
    { ID: "pump", Type: "lamp", X: 10, Y: 3, W: 2, H: 1, Variables: ["e"] },
    { ID: "door", Type: "lamp", X: 10, Y: 4, W: 2, H: 1, Variables: ["f"] },
    { ID: "pressures", Type: "chart", Title: "Pressures", X: 0, Y: 5, W: 6, H: 3, Variables: ["d"] },
    { ID: "hydraulics", Type: "bar", X: 6, Y: 5, W: 3, H: 3, Variables: ["g"] },
    { ID: "strain", Type: "table", Title: "Strain gauges", X: 9, Y: 5, W: 3, H: 3, Variables: ["h"] },
  ],
});
const now = new Date().toISOString();

/** A data folder as a logger at schema 6 left it: the given dashboards, no users yet (seeded at start). */
async function oldDataFolder(dashboards: Array<{ ID: string; Name: string; IsDefault: boolean; Version: number; Content: unknown }>): Promise<string> {
  const dir = tempDir();
  const db = openDb(dir);
  await migrate(db, 6);
  for (const d of dashboards) {
    await db.run("INSERT INTO dashboards (ID, Name, IsDefault, Content, Version, Updated) VALUES (?, ?, ?, ?, ?, ?)", d.ID, d.Name, d.IsDefault ? 1 : 0, JSON.stringify(d.Content), d.Version, now);
  }
  await db.close();
  return dir;
}

type Stored = { Name: string; Version: number; Content: { Widgets: Array<{ ID: string; Type: string; X: number; Y: number; W: number; H: number; Options: Record<string, unknown> }> } };

/** Starts a logger on the folder and reads the given dashboards. */
async function readAfterStart(dir: string, ids: string[]): Promise<Stored[]> {
  const lg = await start({ adminPassword: ADMIN_PASSWORD, dataDir: dir });
  try {
    const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    return await Promise.all(ids.map(async (ID) => (await rpc(lg.url, "WebUIAPI.GetDashboard", { ID }, admin)).body.Dashboard as Stored));
  } finally {
    await lg.close();
  }
}

const alarmLists = (d: Stored) => d.Content.Widgets.filter((w) => w.Type === "alarms");
const SEEDED = "11111111-1111-4111-8111-111111111111";
const MINE = "22222222-2222-4222-8222-222222222222";

describe("migration 7: the alarm list on an existing install's default dashboard", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is added once to the untouched seeded default dashboard, and a second start adds no other", async () => {
    const mine = { ...OLD_TEST_CELL, Widgets: OLD_TEST_CELL.Widgets.slice(0, 2) };
    dir = await oldDataFolder([
      { ID: SEEDED, Name: "Test cell dashboard", IsDefault: true, Version: 1, Content: OLD_TEST_CELL },
      { ID: MINE, Name: "My dashboard", IsDefault: false, Version: 1, Content: mine },
    ]);
    const [seeded, own] = await readAfterStart(dir, [SEEDED, MINE]);
    expect(alarmLists(seeded!)).toEqual([{ ID: "alarms", Type: "alarms", Title: "", X: 0, Y: 8, W: 12, H: 3, Variables: [], Options: { OnlyUnacknowledged: false, MaxRows: 10 } }]);
    // The rest is as it was; the save is a new Version, so an editor opened before does not overwrite it.
    expect(seeded!.Content.Widgets.slice(0, -1)).toEqual(OLD_TEST_CELL.Widgets);
    expect(seeded!.Version).toBe(2);
    // A dashboard the user made is not touched.
    expect(own).toMatchObject({ Version: 1, Content: mine });

    const [again] = await readAfterStart(dir, [SEEDED]);
    expect(alarmLists(again!)).toHaveLength(1);
    expect(again!.Version).toBe(2);
  });

  it("leaves a seeded dashboard alone once the user saved it (e.g. removed its alarm list) or made another the default", async () => {
    const other = "33333333-3333-4333-8333-333333333333";
    dir = await oldDataFolder([
      { ID: SEEDED, Name: "Test cell dashboard", IsDefault: true, Version: 3, Content: OLD_TEST_CELL },
      { ID: other, Name: "Test cell dashboard", IsDefault: false, Version: 1, Content: OLD_TEST_CELL },
    ]);
    const [edited, notDefault] = await readAfterStart(dir, [SEEDED, other]);
    expect(alarmLists(edited!)).toEqual([]);
    expect(edited!.Version).toBe(3);
    expect(alarmLists(notDefault!)).toEqual([]);
    expect(notDefault!.Version).toBe(1);
  });
});
