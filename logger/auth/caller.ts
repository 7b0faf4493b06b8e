import type { IncomingMessage } from "node:http";
import type { Caller } from "../api/registry.ts";
import { loginRequired } from "../store/global-settings.ts";
import type { Db } from "../store/db.ts";
import { RpcError, RS } from "../http/errors.ts";
import { bearerToken } from "./clients.ts";
import { PERMISSION_NAMES } from "./permissions.ts";
import { accessTokenUser } from "./tokens.ts";

export type Authentication =
  | { state: "ok"; caller: Caller }
  | { state: "missing" | "invalid" | "expired"; caller: null };

/** Authentication of a caller that may also be told "change your password first". */
export type TokenAuthentication = Authentication | { state: "password-change"; caller: null };

/** The Description of the 403 a user who must change the password gets for anything else. */
export const PASSWORD_CHANGE_REQUIRED =
  "Password change required: this account must choose a new password (UserManagementAPI.ChangePassword) before it can do anything else";

/** The Description of the 403 for a user or role change while login is not required (issue 24). */
export const ACCOUNTS_NEED_LOGIN =
  "Users and roles cannot be added or changed while login is not required: every caller is anonymous then, and an account made now would let its maker in once login is on again. Switch login on (global setting LoginRequired), then sign in as a user who may manage users and roles";

/**
 * Refuses a user or role change by the anonymous caller of a logger without login. Any web page
 * or script that reaches the logger is that caller; whatever it plants must not outlive the mode.
 */
export function requireAccountsCaller(caller: Caller): void {
  if (caller.userId === null) throw new RpcError(403, RS.InvalidOperation, ACCOUNTS_NEED_LOGIN);
}

const ANONYMOUS: Caller = { userId: null, username: "anonymous", permissions: new Set(PERMISSION_NAMES) };

/**
 * The token's caller. The token of a user who must change the password is good only for
 * changing it: unless `passwordChange` says the caller is that change (or /verify), it answers
 * "password-change".
 */
export async function resolveToken(db: Db, token: string | null, opts: { passwordChange?: boolean } = {}): Promise<TokenAuthentication> {
  if (!token) return { state: "missing", caller: null };
  // Token, user and role in one statement: this runs on every request.
  const row = await accessTokenUser(db, token);
  if (!row) return { state: "invalid", caller: null };
  if (row.ExpiresAt <= Date.now()) return { state: "expired", caller: null };
  if (row.Username === null) return { state: "invalid", caller: null };
  if (row.MustChangePassword === 1 && !opts.passwordChange) return { state: "password-change", caller: null };
  return {
    state: "ok",
    caller: { userId: row.UserID, username: row.Username, permissions: new Set(row.Permissions ? (JSON.parse(row.Permissions) as string[]) : []) },
  };
}

/**
 * For callers that only know ok / missing / invalid / expired (the live WebSocket): the token of
 * a user who must change the password counts as invalid there.
 */
export async function authenticateToken(db: Db, token: string | null): Promise<Authentication> {
  const auth = await resolveToken(db, token);
  return auth.state === "password-change" ? { state: "invalid", caller: null } : auth;
}

// Without login the console gates features itself, so the logger lets everyone do everything
// and ignores whatever token a client still sends (real clients send "Bearer None").
export async function authenticateRpc(db: Db, req: IncomingMessage, opts: { passwordChange?: boolean } = {}): Promise<TokenAuthentication> {
  if (!(await loginRequired(db))) return { state: "ok", caller: ANONYMOUS };
  return resolveToken(db, bearerToken(req.headers.authorization), opts);
}
