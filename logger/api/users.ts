import { z } from "zod";
import { requireAccountsCaller } from "../auth/caller.ts";
import { attemptSignIn } from "../auth/login.ts";
import { hashPassword, passwordPolicyError } from "../auth/passwords.ts";
import { conflict, forbidden, notFound, passwordError, refused, throttled } from "../http/errors.ts";
import type { Db } from "../store/db.ts";
import { adminRole, findRole } from "../store/roles.ts";
import { findUser, findUserByName, listUsers, toUser, usersWithRole } from "../store/users.ts";
import type { User, UserRow } from "../store/users.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";
import { email, id, isTimezone } from "./schemas.ts";

const API = "GI.system/UserManagementAPI";

const fields = {
  Username: z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/, {
    message: "Username must be 1 to 64 characters: letters, digits and . _ @ -",
  }),
  EMail: email,
  Role: id,
  Timezone: z.string().refine((s) => s === "" || isTimezone(s), {
    message: "Unknown time zone; use an IANA name such as Europe/Rome, or empty",
  }),
  TimezoneDiffSec: z.number().int().min(-14 * 3600).max(14 * 3600),
  TimezoneUseDST: z.boolean(),
  Language: z.enum(["", "en", "it"]),
  Theme: z.enum(["light", "dark", "semi-dark"]),
  MustChangePassword: z.boolean(),
};

type EditableField = keyof typeof fields;
const EDITABLE = Object.keys(fields) as EditableField[];
// What a user may change on their own account without ManageUsers.
const SELF_SERVICE = new Set<EditableField>(["EMail", "Timezone", "TimezoneDiffSec", "TimezoneUseDST", "Language", "Theme"]);

const columnValue = (value: unknown): string | number =>
  typeof value === "boolean" ? (value ? 1 : 0) : (value as string | number);

const STALE_USER = "This user was changed by someone else meanwhile; reload and try again";

async function requireUser(db: Db, userId: number): Promise<UserRow> {
  const row = await findUser(db, userId);
  if (!row) throw notFound(`User ${userId} not found`);
  return row;
}

// Keeps at least one account able to manage everything.
// A check before a write: call it inside the write's tx.
async function guardLastAdmin(db: Db, user: UserRow, action: "removed" | "moved"): Promise<void> {
  const admin = await adminRole(db);
  if (user.Role === admin.ID && (await usersWithRole(db, admin.ID)).length === 1) {
    const words = action === "moved" ? "moved to another role" : "removed";
    throw refused(`${user.Username} is the last user with the ${admin.Name} role and cannot be ${words}; give another user that role first`).coded("lastAdmin", { user: user.Username, role: admin.Name, action });
  }
}

function checkPolicy(password: string, username: string): void {
  const problem = passwordPolicyError(password, username);
  if (problem) throw passwordError(problem);
}

function changedFields(current: User, patch: Partial<Record<EditableField, unknown>>): EditableField[] {
  return EDITABLE.filter((f) => patch[f] !== undefined && patch[f] !== current[f]);
}

async function setUser(
  p: { User: Partial<Record<EditableField, unknown>> & { ID: number; Version?: number }; Password?: string },
  ctx: CallContext,
): Promise<object> {
  requireAccountsCaller(ctx.me);
  const password = p.Password || undefined; // forms send "" for "unchanged"
  const manager = ctx.me.permissions.has("ManageUsers");
  const before = toUser(await requireUser(ctx.db, p.User.ID));
  if (!manager) {
    const denied: string[] = changedFields(before, p.User).filter((f) => !SELF_SERVICE.has(f));
    if (password) denied.push("Password");
    if (denied.length) throw forbidden(`Permission denied: ManageUsers required to change ${denied.join(", ")}`);
  }
  if (password) checkPolicy(password, (p.User.Username as string | undefined) ?? before.Username);
  const hashed = password ? await hashPassword(password) : undefined;

  return ctx.db.tx(async (q) => {
    const row = await requireUser(q, p.User.ID);
    const current = toUser(row);
    if (p.User.Version !== undefined && p.User.Version !== current.Version) throw conflict(STALE_USER).coded("stale");
    const changes = changedFields(current, p.User);
    if (changes.includes("Username")) {
      const other = await findUserByName(q, p.User.Username as string);
      if (other && other.ID !== current.ID) throw refused(`The username ${p.User.Username} is already taken`).coded("usernameTaken", { name: p.User.Username as string });
    }
    if (changes.includes("Role")) {
      if (!(await findRole(q, p.User.Role as number))) throw refused(`Role ${p.User.Role} does not exist`).coded("roleMissing", { id: p.User.Role as number });
      await guardLastAdmin(q, row, "moved");
    }
    if (!changes.length && !hashed) return {};

    const sets = changes.map((f) => `${f} = ?`);
    const values = changes.map((f) => columnValue(p.User[f]));
    if (hashed) {
      // A password chosen by someone else is a temporary one.
      const temporary = ctx.me.userId !== current.ID;
      sets.push("PasswordHash = ?", "PasswordSalt = ?");
      values.push(hashed.hash, hashed.salt);
      if (!changes.includes("MustChangePassword") || temporary) {
        sets.push("MustChangePassword = ?");
        values.push(temporary ? 1 : 0);
      }
    }
    await q.run(`UPDATE users SET ${sets.join(", ")}, Version = Version + 1 WHERE ID = ?`, ...values, current.ID);
    const renamed = changes.includes("Username") ? ` (now ${p.User.Username})` : "";
    await ctx.audit(`Changed user ${current.Username}${renamed}: ${[...changes, ...(hashed ? ["Password"] : [])].join(", ")}`, q);
    return {};
  });
}

export const userMethods: Registry = {
  [`${API}.GetUsers`]: method({
    params: z.object({}),
    permission: "ManageUsers",
    handler: async (_p, ctx) => ({ Users: (await listUsers(ctx.db)).map(toUser) }),
  }),

  [`${API}.GetUser`]: method({
    params: z.object({ ID: id }),
    permission: (p, caller) => (caller?.userId === p.ID ? null : "ManageUsers"),
    handler: async (p, ctx) => ({ User: toUser(await requireUser(ctx.db, p.ID)) }),
  }),

  [`${API}.AddUser`]: method({
    params: z.object({
      User: z.object({
        Username: fields.Username,
        Role: fields.Role,
        EMail: fields.EMail.default(""),
        Timezone: fields.Timezone.default(""),
        TimezoneDiffSec: fields.TimezoneDiffSec.default(0),
        TimezoneUseDST: fields.TimezoneUseDST.default(true),
        Language: fields.Language.default(""),
        Theme: fields.Theme.default("light"),
        // The admin picked the first password, so by default the user replaces it.
        MustChangePassword: fields.MustChangePassword.default(true),
      }),
      Password: z.string(),
    }),
    permission: "ManageUsers",
    handler: async (p, ctx) => {
      requireAccountsCaller(ctx.me);
      const u = p.User;
      checkPolicy(p.Password, u.Username);
      const pw = await hashPassword(p.Password);
      return ctx.db.tx(async (q) => {
        if (await findUserByName(q, u.Username)) throw refused(`The username ${u.Username} is already taken`).coded("usernameTaken", { name: u.Username });
        const role = await findRole(q, u.Role);
        if (!role) throw refused(`Role ${u.Role} does not exist`).coded("roleMissing", { id: u.Role });
        const inserted = await q.get<{ ID: number }>(
          `INSERT INTO users (Username, EMail, Role, Timezone, TimezoneDiffSec, TimezoneUseDST, Language, Theme,
             MustChangePassword, PasswordHash, PasswordSalt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ID`,
          u.Username,
          u.EMail,
          u.Role,
          u.Timezone,
          u.TimezoneDiffSec,
          u.TimezoneUseDST ? 1 : 0,
          u.Language,
          u.Theme,
          u.MustChangePassword ? 1 : 0,
          pw.hash,
          pw.salt,
        );
        await ctx.audit(`Added user ${u.Username} (role ${role.Name})`, q);
        return { ID: inserted!.ID };
      });
    },
  }),

  [`${API}.SetUser`]: method({
    params: z.object({
      User: z.object({ ID: id, Version: z.number().int().optional(), ...z.object(fields).partial().shape }),
      Password: z.string().optional(),
    }),
    // Anyone may call it on their own account; the handler limits what they may change.
    permission: (p, caller) => (caller?.userId === p.User.ID ? null : "ManageUsers"),
    handler: setUser,
  }),

  [`${API}.RemoveUser`]: method({
    params: z.object({ ID: id }),
    permission: "ManageUsers",
    handler: (p, ctx) => {
      requireAccountsCaller(ctx.me);
      return ctx.db.tx(async (q) => {
        const row = await requireUser(q, p.ID);
        if (row.ID === ctx.me.userId) throw refused("You cannot remove your own account").coded("ownAccount");
        await guardLastAdmin(q, row, "removed");
        await q.run("DELETE FROM users WHERE ID = ?", row.ID);
        await ctx.audit(`Removed user ${row.Username}`, q);
        return {};
      });
    },
  }),

  // Our extension: the signed-in user replaces their own password (MustChangePassword flow).
  [`${API}.ChangePassword`]: method({
    params: z.object({ OldPassword: z.string(), NewPassword: z.string() }),
    permission: null,
    // The one call the token of a user who must change the password is good for.
    duringPasswordChange: true,
    handler: async (p, ctx) => {
      const userId = ctx.me.userId;
      if (userId === null) throw refused("ChangePassword needs a signed-in user, but this logger does not require login").coded("noSignedInUser");
      const row = await requireUser(ctx.db, userId);
      // A stolen token must not become a way around the sign-in throttle: same account budget.
      const outcome = await attemptSignIn(ctx, row.Username, p.OldPassword, null, "ChangePassword");
      if (!outcome.ok && outcome.reason === "throttled") throw throttled(outcome.retryAfterSec);
      if (!outcome.ok) throw passwordError("Current password is wrong");
      if (p.NewPassword === p.OldPassword) throw passwordError("The new password must differ from the current one");
      checkPolicy(p.NewPassword, row.Username);
      const pw = await hashPassword(p.NewPassword);
      return ctx.db.tx(async (q) => {
        await q.run(
          "UPDATE users SET PasswordHash = ?, PasswordSalt = ?, MustChangePassword = 0, Version = Version + 1 WHERE ID = ?",
          pw.hash,
          pw.salt,
          userId,
        );
        await ctx.audit(`Changed password of ${row.Username}`, q);
        return {};
      });
    },
  }),
};
