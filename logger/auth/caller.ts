import type { IncomingMessage } from "node:http";
import type { Caller } from "../api/registry.ts";
import { loginRequired } from "../store/global-settings.ts";
import type { Db } from "../store/db.ts";
import { permissionsOfUser } from "../store/roles.ts";
import { findUser } from "../store/users.ts";
import { bearerToken } from "./clients.ts";
import { PERMISSION_NAMES } from "./permissions.ts";
import { checkAccessToken } from "./tokens.ts";

export type Authentication =
  | { state: "ok"; caller: Caller }
  | { state: "missing" | "invalid" | "expired"; caller: null };

/** Authentication of a caller that may also be told "change your password first". */
export type TokenAuthentication = Authentication | { state: "password-change"; caller: null };

/** The Description of the 403 a user who must change the password gets for anything else. */
export const PASSWORD_CHANGE_REQUIRED =
  "Password change required: this account must choose a new password (UserManagementAPI.ChangePassword) before it can do anything else";

const ANONYMOUS: Caller = { userId: null, username: "anonymous", permissions: new Set(PERMISSION_NAMES) };

/**
 * The token's caller. The token of a user who must change the password is good only for
 * changing it: unless `passwordChange` says the caller is that change (or /verify), it answers
 * "password-change".
 */
export function resolveToken(db: Db, token: string | null, opts: { passwordChange?: boolean } = {}): TokenAuthentication {
  if (!token) return { state: "missing", caller: null };
  const check = checkAccessToken(db, token);
  if (check.state !== "ok") return { state: check.state, caller: null };
  const user = findUser(db, check.userId);
  if (!user) return { state: "invalid", caller: null };
  if (user.MustChangePassword === 1 && !opts.passwordChange) return { state: "password-change", caller: null };
  return {
    state: "ok",
    caller: { userId: user.ID, username: user.Username, permissions: new Set(permissionsOfUser(db, user.ID)) },
  };
}

/**
 * For callers that only know ok / missing / invalid / expired (the live WebSocket): the token of
 * a user who must change the password counts as invalid there.
 */
export function authenticateToken(db: Db, token: string | null): Authentication {
  const auth = resolveToken(db, token);
  return auth.state === "password-change" ? { state: "invalid", caller: null } : auth;
}

// Without login the console gates features itself, so the logger lets everyone do everything
// and ignores whatever token a client still sends (real clients send "Bearer None").
export function authenticateRpc(db: Db, req: IncomingMessage, opts: { passwordChange?: boolean } = {}): TokenAuthentication {
  if (!loginRequired(db)) return { state: "ok", caller: ANONYMOUS };
  return resolveToken(db, bearerToken(req.headers.authorization), opts);
}
