import { randomUUID } from "node:crypto";
import type { Db } from "./db.ts";

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

export async function listDashboards(db: Db): Promise<Array<{ ID: string; Name: string; IsDefault: boolean }>> {
  return (await db.all<{ ID: string; Name: string; IsDefault: number }>("SELECT ID, Name, IsDefault FROM dashboards ORDER BY Name COLLATE NOCASE, ID")).map((d) => ({
    ID: d.ID,
    Name: d.Name,
    IsDefault: d.IsDefault === 1,
  }));
}

// UUIDs arrive in any case from URLs; they are stored lower case.
export async function findDashboard(db: Db, id: string): Promise<Dashboard | undefined> {
  const row = await db.get<DashboardRow>("SELECT * FROM dashboards WHERE ID = ?", id.toLowerCase());
  return row && toDashboard(row);
}

/**
 * The first dashboard of a logger becomes its default, so "the default dashboard" always exists.
 * A check and a write: call it inside a tx.
 */
export async function insertDashboard(db: Db, name: string, content: unknown): Promise<Dashboard> {
  const id = randomUUID();
  const isDefault = (await db.get("SELECT 1 FROM dashboards WHERE IsDefault = 1")) ? 0 : 1;
  await db.run("INSERT INTO dashboards (ID, Name, IsDefault, Content, Version, Updated) VALUES (?, ?, ?, ?, 1, ?)", id, name, isDefault, JSON.stringify(content), new Date().toISOString());
  return (await findDashboard(db, id))!;
}

export async function updateDashboard(db: Db, id: string, name: string, content: unknown): Promise<number> {
  await db.run("UPDATE dashboards SET Name = ?, Content = ?, Version = Version + 1, Updated = ? WHERE ID = ?", name, JSON.stringify(content), new Date().toISOString(), id);
  return (await findDashboard(db, id))!.Version;
}

export async function removeDashboard(db: Db, id: string): Promise<void> {
  await db.run("DELETE FROM dashboards WHERE ID = ?", id);
}

export async function setDefaultDashboard(db: Db, id: string): Promise<void> {
  await db.run("UPDATE dashboards SET IsDefault = CASE WHEN ID = ? THEN 1 ELSE 0 END", id);
}
