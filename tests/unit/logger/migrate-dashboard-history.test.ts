import { describe, expect, it } from "vitest";
import { openDb } from "../../../logger/store/db.ts";
import { migrate } from "../../../logger/store/migrations.ts";
import { ADMIN_PASSWORD, login, rpc, start, tempDir } from "./helpers.ts";

// Migration 9 (issue 28) on SQLite's upgrade path: an existing dashboard's history starts at the
// version it has (postgres-migrations.test.ts applies the migration on PostgreSQL).

const content = (title: string) => ({ Columns: 12, RowHeight: 80, Range: "1h", Refresh: "30s", Widgets: [{ ID: "c1", Type: "chart", Title: title, X: 0, Y: 0, W: 6, H: 3, Variables: [], Options: {} }] });

describe("migration 9 on a data folder from before", () => {
  it("starts each dashboard's history at the version it has", async () => {
    const dir = tempDir();
    const db = openDb(dir);
    await migrate(db, 8);
    const id = "33333333-3333-4333-8333-333333333333";
    await db.run("INSERT INTO dashboards (ID, Name, IsDefault, Content, Version, Updated) VALUES (?, ?, 1, ?, 7, ?)", id, "Old one", JSON.stringify(content("old")), "2026-01-02T03:04:05.000Z");
    await db.close();
    const lg = await start({ adminPassword: ADMIN_PASSWORD, dataDir: dir });
    try {
      const admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
      const got = await rpc(lg.url, "WebUIAPI.ListDashboardVersions", { ID: id }, admin);
      expect(got.body.Versions).toEqual([{ Version: 7, Name: "Old one", Author: "", Updated: "2026-01-02T03:04:05.000Z" }]);
      await rpc(lg.url, "WebUIAPI.SaveDashboard", { Dashboard: { ID: id, Name: "Old one", Content: content("new") } }, admin);
      const restored = await rpc(lg.url, "WebUIAPI.RestoreDashboardVersion", { ID: id, Version: 7 }, admin);
      expect(restored.body.Version).toBe(9);
      expect((await rpc(lg.url, "WebUIAPI.GetDashboard", { ID: id }, admin)).body.Dashboard.Content.Widgets[0].Title).toBe("old");
    } finally {
      await lg.stop();
    }
  });
});

