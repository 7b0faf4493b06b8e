import { PERMISSION_NAMES } from "../auth/permissions.ts";
import type { PermissionName } from "../auth/permissions.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { Db } from "./db.ts";
import { get, run, tx } from "./db.ts";
import { DEFAULT_CONFIG, writeConfig } from "./global-settings.ts";
import { audit } from "./messages.ts";

const OPERATOR: PermissionName[] = [
  "ViewStructure",
  "ViewCockpit",
  "ViewDashboards",
  "ManageDashboards",
  "ViewAnalytics",
  "UseExport",
  "ViewDevices",
  "UseFilebrowser",
  "UseRulesNotifications",
  "UseMetaData",
  "UseMonitor",
  "ViewLogs",
  "ManageProject",
];
const VIEWER: PermissionName[] = ["ViewStructure", "ViewCockpit", "ViewDashboards", "ViewAnalytics", "ViewDevices"];

// Runs only on an empty database: an existing installation keeps whatever its admins changed.
export async function seed(db: Db, adminPassword?: string): Promise<boolean> {
  if (get(db, "SELECT 1 FROM roles LIMIT 1")) return false;
  // Hashing is async, so it happens before the transaction that writes everything at once.
  const pw = await hashPassword(adminPassword ?? "admin");
  return tx(db, () => {
    if (get(db, "SELECT 1 FROM roles LIMIT 1")) return false;
    const addRole = (name: string, description: string, perms: PermissionName[], builtIn: boolean) =>
      run(
        db,
        "INSERT INTO roles (Name, Description, Permissions, BuiltIn) VALUES (?, ?, ?, ?)",
        name,
        description,
        JSON.stringify(perms),
        builtIn ? 1 : 0,
      );
    const adminId = addRole("Administrator", "Full access, including users, roles and global settings", PERMISSION_NAMES, true);
    addRole("Operator", "Runs the plant: dashboards, analytics, export, devices, rules and the project", OPERATOR, false);
    addRole("Viewer", "Looks at structure, map, dashboards, analytics and devices", VIEWER, false);
    run(
      db,
      "INSERT INTO users (Username, EMail, Role, MustChangePassword, PasswordHash, PasswordSalt) VALUES (?, ?, ?, ?, ?, ?)",
      "admin",
      "",
      adminId,
      adminPassword ? 0 : 1,
      pw.hash,
      pw.salt,
    );
    writeConfig(db, DEFAULT_CONFIG);
    audit(db, "Logger", "Created the database with roles Administrator, Operator, Viewer and user admin");
    return true;
  });
}
