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
export async function insertDashboard(db: Db, name: string, content: unknown, author: string): Promise<Dashboard> {
  const id = randomUUID();
  const isDefault = (await db.get("SELECT 1 FROM dashboards WHERE IsDefault = 1")) ? 0 : 1;
  const now = new Date().toISOString();
  await db.run("INSERT INTO dashboards (ID, Name, IsDefault, Content, Version, Updated) VALUES (?, ?, ?, ?, 1, ?)", id, name, isDefault, JSON.stringify(content), now);
  await keepVersion(db, { DashboardID: id, Version: 1, Name: name, Content: JSON.stringify(content), Author: author, Updated: now });
  return (await findDashboard(db, id))!;
}

/** A new Version with this name and content, kept in the history. A check and a write: call it inside a tx. */
export async function updateDashboard(db: Db, id: string, name: string, content: unknown, author: string): Promise<number> {
  const now = new Date().toISOString();
  await db.run("UPDATE dashboards SET Name = ?, Content = ?, Version = Version + 1, Updated = ? WHERE ID = ?", name, JSON.stringify(content), now, id);
  const version = (await findDashboard(db, id))!.Version;
  await keepVersion(db, { DashboardID: id, Version: version, Name: name, Content: JSON.stringify(content), Author: author, Updated: now });
  return version;
}

export async function removeDashboard(db: Db, id: string): Promise<void> {
  await db.run("DELETE FROM dashboard_versions WHERE DashboardID = ?", id);
  await db.run("DELETE FROM dashboards WHERE ID = ?", id);
}

// ---- History (WebUIAPI.ListDashboardVersions, GetDashboard {Version}, RestoreDashboardVersion) ----

/** Versions kept per dashboard: the newest ones; older ones are dropped as new ones are saved. */
export const KEPT_VERSIONS = 100;

type VersionRow = { DashboardID: string; Version: number; Name: string; Content: string; Author: string; Updated: string };

export type DashboardVersion = { Version: number; Name: string; Author: string; Updated: string; Content: unknown };

async function keepVersion(db: Db, v: VersionRow): Promise<void> {
  await db.run(
    "INSERT INTO dashboard_versions (DashboardID, Version, Name, Content, Author, Updated) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (DashboardID, Version) DO NOTHING",
    v.DashboardID,
    v.Version,
    v.Name,
    v.Content,
    v.Author,
    v.Updated,
  );
  await db.run("DELETE FROM dashboard_versions WHERE DashboardID = ? AND Version <= ?", v.DashboardID, v.Version - KEPT_VERSIONS);
}

/** The kept versions of a dashboard, newest first (without their content). */
export async function listVersions(db: Db, id: string): Promise<Omit<DashboardVersion, "Content">[]> {
  const rows = await db.all<Omit<VersionRow, "Content" | "DashboardID">>("SELECT Version, Name, Author, Updated FROM dashboard_versions WHERE DashboardID = ? ORDER BY Version DESC", id.toLowerCase());
  return rows.map((r) => ({ ...r, Version: Number(r.Version) }));
}

export async function findVersion(db: Db, id: string, version: number): Promise<DashboardVersion | undefined> {
  const row = await db.get<VersionRow>("SELECT * FROM dashboard_versions WHERE DashboardID = ? AND Version = ?", id.toLowerCase(), version);
  return row && { Version: Number(row.Version), Name: row.Name, Author: row.Author, Updated: row.Updated, Content: JSON.parse(row.Content) as unknown };
}

export async function setDefaultDashboard(db: Db, id: string): Promise<void> {
  await db.run("UPDATE dashboards SET IsDefault = CASE WHEN ID = ? THEN 1 ELSE 0 END", id);
}
