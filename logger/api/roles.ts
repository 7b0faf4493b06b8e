import { z } from "zod";
import { requireAccountsCaller } from "../auth/caller.ts";
import { PERMISSIONS, PERMISSION_NAMES, isPermission } from "../auth/permissions.ts";
import { conflict, notFound, refused } from "../http/errors.ts";
import type { Db } from "../store/db.ts";
import { findRole, findRoleByName, listRoles } from "../store/roles.ts";
import type { Role } from "../store/roles.ts";
import { usersWithRole } from "../store/users.ts";
import { method } from "./registry.ts";
import type { Registry } from "./registry.ts";
import { id, nameField } from "./schemas.ts";

const API = "GI.system/UserManagementAPI";

const roleName = nameField(64, { empty: "Role name must not be empty" });
const roleDescription = z.string().max(500);
const permissionList = z.array(z.string()).superRefine((names, ctx) => {
  names.forEach((name, i) => {
    if (!isPermission(name)) ctx.addIssue({ code: "custom", path: [i], message: `Unknown permission ${name}` });
  });
});

const unique = (names: string[]) => [...new Set(names)];

async function requireRole(db: Db, roleId: number): Promise<Role> {
  const role = await findRole(db, roleId);
  if (!role) throw notFound(`Role ${roleId} not found`);
  return role;
}

async function checkNameFree(db: Db, name: string, exceptId?: number): Promise<void> {
  const other = await findRoleByName(db, name);
  if (other && other.ID !== exceptId) throw refused(`A role named ${other.Name} already exists`).coded("roleNameTaken", { name: other.Name });
}

export const roleMethods: Registry = {
  [`${API}.GetRoles`]: method({
    params: z.object({}),
    // User management needs the role list to fill its role picker.
    permission: ["ManageUsers", "ManageRoles"],
    handler: async (_p, ctx) => ({ Roles: await listRoles(ctx.db) }),
  }),

  [`${API}.GetPermissions`]: method({
    params: z.object({}),
    permission: null,
    handler: () => ({ Permissions: PERMISSION_NAMES.map((name) => ({ Name: name, Description: PERMISSIONS[name] })) }),
  }),

  [`${API}.AddRole`]: method({
    params: z.object({
      Role: z.object({ Name: roleName, Description: roleDescription.default(""), Permissions: permissionList.default([]) }),
    }),
    permission: "ManageRoles",
    handler: (p, ctx) => {
      requireAccountsCaller(ctx.me);
      return ctx.db.tx(async (q) => {
        await checkNameFree(q, p.Role.Name);
        const inserted = await q.get<{ ID: number }>(
          "INSERT INTO roles (Name, Description, Permissions) VALUES (?, ?, ?) RETURNING ID",
          p.Role.Name,
          p.Role.Description,
          JSON.stringify(unique(p.Role.Permissions)),
        );
        await ctx.audit(`Added role ${p.Role.Name}`, q);
        return { ID: inserted!.ID };
      });
    },
  }),

  [`${API}.SetRole`]: method({
    params: z.object({
      Role: z.object({
        ID: id,
        Version: z.number().int().optional(),
        Name: roleName.optional(),
        Description: roleDescription.optional(),
        Permissions: permissionList.optional(),
      }),
    }),
    permission: "ManageRoles",
    handler: (p, ctx) => {
      requireAccountsCaller(ctx.me);
      return ctx.db.tx(async (q) => {
        const role = await requireRole(q, p.Role.ID);
        if (p.Role.Version !== undefined && p.Role.Version !== role.Version) {
          throw conflict("This role was changed by someone else meanwhile; reload and try again").coded("stale");
        }
        const name = p.Role.Name ?? role.Name;
        const description = p.Role.Description ?? role.Description;
        const permissions = p.Role.Permissions ? unique(p.Role.Permissions) : role.Permissions;
        if (role.BuiltIn) {
          if (name !== role.Name) throw refused(`The built-in ${role.Name} role cannot be renamed`).coded("builtInRename", { name: role.Name });
          const missing = PERMISSION_NAMES.filter((perm) => !permissions.includes(perm));
          if (missing.length) throw refused(`The built-in ${role.Name} role must keep every permission (missing: ${missing.join(", ")})`).coded("builtInPermissions", { name: role.Name, missing: missing.join(", ") });
        }
        if (name !== role.Name) await checkNameFree(q, name, role.ID);
        const changes: string[] = [];
        if (name !== role.Name) changes.push("Name");
        if (description !== role.Description) changes.push("Description");
        const samePermissions =
          permissions.length === role.Permissions.length && permissions.every((perm) => role.Permissions.includes(perm));
        if (!samePermissions) changes.push("Permissions");
        if (!changes.length) return {};
        await q.run(
          "UPDATE roles SET Name = ?, Description = ?, Permissions = ?, Version = Version + 1 WHERE ID = ?",
          name,
          description,
          JSON.stringify(permissions),
          role.ID,
        );
        const renamed = name !== role.Name ? ` (now ${name})` : "";
        await ctx.audit(`Changed role ${role.Name}${renamed}: ${changes.join(", ")}`, q);
        return {};
      });
    },
  }),

  [`${API}.RemoveRole`]: method({
    params: z.object({ ID: id }),
    permission: "ManageRoles",
    handler: (p, ctx) => {
      requireAccountsCaller(ctx.me);
      return ctx.db.tx(async (q) => {
        const role = await requireRole(q, p.ID);
        if (role.BuiltIn) throw refused(`The built-in ${role.Name} role cannot be removed`).coded("builtInRemove", { name: role.Name });
        const holders = await usersWithRole(q, role.ID);
        if (holders.length) throw refused(`Role ${role.Name} is still held by: ${holders.map((u) => u.Username).join(", ")}`).coded("roleHeld", { name: role.Name, users: holders.map((u) => u.Username).join(", ") });
        await q.run("DELETE FROM roles WHERE ID = ?", role.ID);
        await ctx.audit(`Removed role ${role.Name}`, q);
        return {};
      });
    },
  }),
};
