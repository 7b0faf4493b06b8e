import type { Caller } from "../api/registry.ts";
import type { Db } from "../store/db.ts";
import type { Authentication } from "./caller.ts";
import { hashToken } from "./tokens.ts";

// A sign-in outlives each of its access tokens: a long-lived connection (the live WebSocket)
// holds on to the sign-in its token came from, not to the token. The family's own clients never
// send a new token on an open socket, so an expired access token is no reason to close while
// the sign-in goes on; a sign-out (revoke), a refresh token's reuse, the sign-in's end
// (REFRESH_TOKEN_TTL), a removed user or a changed password end it.

/** The sign-in an access token belongs to: its token family, its user and that user's password (salt) then. */
export type SignIn = { familyId: string; userId: number; salt: string };

export async function signInOf(db: Db, token: string): Promise<SignIn | null> {
  const row = await db.get<{ FamilyID: string; UserID: number; PasswordSalt: string }>(
    `SELECT tokens.FamilyID, tokens.UserID, users.PasswordSalt FROM tokens JOIN users ON users.ID = tokens.UserID
     WHERE tokens.Hash = ? AND tokens.Kind = 'access'`,
    hashToken(token),
  );
  return row ? { familyId: row.FamilyID, userId: row.UserID, salt: row.PasswordSalt } : null;
}

/**
 * The caller of a sign-in as of now, or "invalid" once it has ended: its family must still hold
 * a refresh token that has not expired (rotation keeps the family's end; revoke and reuse delete
 * the family), its user must exist with the same password and need not change it.
 */
export async function signInCaller(db: Db, s: SignIn, now = Date.now()): Promise<Authentication> {
  const row = await db.get<{ Username: string; PasswordSalt: string; MustChangePassword: number; Permissions: string | null }>(
    `SELECT users.Username, users.PasswordSalt, users.MustChangePassword, roles.Permissions
     FROM users LEFT JOIN roles ON roles.ID = users.Role
     WHERE users.ID = ? AND EXISTS (SELECT 1 FROM tokens WHERE tokens.FamilyID = ? AND tokens.Kind = 'refresh' AND tokens.ExpiresAt > ?)`,
    s.userId,
    s.familyId,
    now,
  );
  if (!row || row.PasswordSalt !== s.salt || row.MustChangePassword === 1) return { state: "invalid", caller: null };
  const caller: Caller = { userId: s.userId, username: row.Username, permissions: new Set(row.Permissions ? (JSON.parse(row.Permissions) as string[]) : []) };
  return { state: "ok", caller };
}
