import { randomUUID } from "node:crypto";
import type { Db } from "./db.ts";
import { all, get, run } from "./db.ts";

type DashboardRow = { ID: string; Name: string; IsDefault: number; Content: string; Version: number; Updated: string };

export type Dashboard = { ID: string; Name: string; IsDefault: boolean; Version: number; Updated: string; Content: unknown };

const toDashboard = (row: DashboardRow): Dashboard => ({
  ID: row.ID,
  Name: row.Name,
  IsDefault: row.IsDefault === 1,
  Version: row.Version,
  Updated: row.Updated,
  Content: JSON.parse(row.Content) as unknown,
});

export function listDashboards(db: Db): Array<{ ID: string; Name: string; IsDefault: boolean }> {
  return all<{ ID: string; Name: string; IsDefault: number }>(db, "SELECT ID, Name, IsDefault FROM dashboards ORDER BY Name COLLATE NOCASE, ID").map((d) => ({
    ID: d.ID,
    Name: d.Name,
    IsDefault: d.IsDefault === 1,
  }));
}

// UUIDs arrive in any case from URLs; they are stored lower case.
export function findDashboard(db: Db, id: string): Dashboard | undefined {
  const row = get<DashboardRow>(db, "SELECT * FROM dashboards WHERE ID = ?", id.toLowerCase());
  return row && toDashboard(row);
}

/** The first dashboard of a logger becomes its default, so "the default dashboard" always exists. */
export function insertDashboard(db: Db, name: string, content: unknown): Dashboard {
  const id = randomUUID();
  const isDefault = get(db, "SELECT 1 FROM dashboards WHERE IsDefault = 1") ? 0 : 1;
  run(db, "INSERT INTO dashboards (ID, Name, IsDefault, Content, Version, Updated) VALUES (?, ?, ?, ?, 1, ?)", id, name, isDefault, JSON.stringify(content), new Date().toISOString());
  return findDashboard(db, id)!;
}

export function updateDashboard(db: Db, id: string, name: string, content: unknown): number {
  run(db, "UPDATE dashboards SET Name = ?, Content = ?, Version = Version + 1, Updated = ? WHERE ID = ?", name, JSON.stringify(content), new Date().toISOString(), id);
  return findDashboard(db, id)!.Version;
}

export function removeDashboard(db: Db, id: string): void {
  run(db, "DELETE FROM dashboards WHERE ID = ?", id);
}

export function setDefaultDashboard(db: Db, id: string): void {
  run(db, "UPDATE dashboards SET IsDefault = CASE WHEN ID = ? THEN 1 ELSE 0 END", id);
}
