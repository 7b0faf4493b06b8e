import type { Db } from "./db.ts";

type RoleRow = { ID: number; Name: string; Description: string; Permissions: string; BuiltIn: number; Version: number };

export type Role = { ID: number; Name: string; Description: string; Permissions: string[]; BuiltIn: boolean; Version: number };

const toRole = (row: RoleRow): Role => ({
  ID: row.ID,
  Name: row.Name,
  Description: row.Description,
  Permissions: JSON.parse(row.Permissions) as string[],
  BuiltIn: row.BuiltIn === 1,
  Version: row.Version,
});

export async function findRole(db: Db, id: number): Promise<Role | undefined> {
  const row = await db.get<RoleRow>("SELECT * FROM roles WHERE ID = ?", id);
  return row && toRole(row);
}

// Compared here rather than in SQL: SQLite's lower() folds only ASCII, and names stored before
// they were NFC-normalised must still clash with their normalised twin. Roles are few.
export async function findRoleByName(db: Db, name: string): Promise<Role | undefined> {
  const wanted = name.normalize("NFC").toLowerCase();
  return (await listRoles(db)).find((role) => role.Name.normalize("NFC").toLowerCase() === wanted);
}

export const listRoles = async (db: Db) => (await db.all<RoleRow>("SELECT * FROM roles ORDER BY ID")).map(toRole);

// Only the Administrator role is built in; it is the one the "last administrator" rule protects.
export async function adminRole(db: Db): Promise<Role> {
  const row = await db.get<RoleRow>("SELECT * FROM roles WHERE BuiltIn = 1 ORDER BY ID LIMIT 1");
  if (!row) throw new Error("Built-in Administrator role missing");
  return toRole(row);
}

export async function permissionsOfUser(db: Db, userId: number): Promise<string[]> {
  const row = await db.get<{ Permissions: string }>(
    "SELECT roles.Permissions FROM users JOIN roles ON roles.ID = users.Role WHERE users.ID = ?",
    userId,
  );
  return row ? (JSON.parse(row.Permissions) as string[]) : [];
}
