import { randomInt } from "node:crypto";
import { PERMISSION_NAMES } from "../auth/permissions.ts";
import type { PermissionName } from "../auth/permissions.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { Db } from "./db.ts";
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

// Letters and digits nobody misreads (no 0/o, 1/l/i): the first password is typed from a terminal.
const READABLE = "abcdefghjkmnpqrstuvwxyz23456789";

/** A first password for admin: three groups of four (59 bits), e.g. "k7mq-x3vd-9hat". */
function generatedPassword(): string {
  const group = () => Array.from({ length: 4 }, () => READABLE[randomInt(READABLE.length)]).join("");
  return `${group()}-${group()}-${group()}`;
}

/**
 * Runs only on an empty database: an existing installation keeps whatever its admins changed.
 * Without a password given, admin's is generated (never a published default, which whoever
 * reached a new installation first could use to take it over) and must be changed at the first
 * sign-in; `generated` is it, for the one who started the logger.
 */
export async function seed(db: Db, adminPassword?: string): Promise<{ created: boolean; generated: string | null }> {
  const none = { created: false, generated: null };
  if (await db.get("SELECT 1 FROM roles LIMIT 1")) return none;
  const generated = adminPassword === undefined ? generatedPassword() : null;
  // Hashing is slow, so it happens before the transaction that writes everything at once.
  const pw = await hashPassword(adminPassword ?? generated!);
  const created = await db.tx(async (q) => {
    if (await q.get("SELECT 1 FROM roles LIMIT 1")) return false;
    const addRole = async (name: string, description: string, perms: PermissionName[], builtIn: boolean) =>
      (await q.get<{ ID: number }>(
        "INSERT INTO roles (Name, Description, Permissions, BuiltIn) VALUES (?, ?, ?, ?) RETURNING ID",
        name,
        description,
        JSON.stringify(perms),
        builtIn ? 1 : 0,
      ))!.ID;
    const adminId = await addRole("Administrator", "Full access, including users, roles and global settings", PERMISSION_NAMES, true);
    await addRole("Operator", "Runs the plant: dashboards, analytics, export, devices, rules and the project", OPERATOR, false);
    await addRole("Viewer", "Looks at structure, map, dashboards, analytics and devices", VIEWER, false);
    await q.run(
      "INSERT INTO users (Username, EMail, Role, MustChangePassword, PasswordHash, PasswordSalt) VALUES (?, ?, ?, ?, ?, ?)",
      "admin",
      "",
      adminId,
      adminPassword ? 0 : 1,
      pw.hash,
      pw.salt,
    );
    await writeConfig(q, DEFAULT_CONFIG);
    await audit(q, "Logger", "Created the database with roles Administrator, Operator, Viewer and user admin");
    return true;
  });
  return created ? { created, generated } : none;
}
