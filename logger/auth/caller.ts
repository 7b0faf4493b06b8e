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

const ANONYMOUS: Caller = { userId: null, username: "anonymous", permissions: new Set(PERMISSION_NAMES) };

export function authenticateToken(db: Db, token: string | null): Authentication {
  if (!token) return { state: "missing", caller: null };
  const check = checkAccessToken(db, token);
  if (check.state !== "ok") return { state: check.state, caller: null };
  const user = findUser(db, check.userId);
  if (!user) return { state: "invalid", caller: null };
  return {
    state: "ok",
    caller: { userId: user.ID, username: user.Username, permissions: new Set(permissionsOfUser(db, user.ID)) },
  };
}

// Without login the console gates features itself, so the logger lets everyone do everything
// and ignores whatever token a client still sends (real clients send "Bearer None").
export function authenticateRpc(db: Db, req: IncomingMessage): Authentication {
  if (!loginRequired(db)) return { state: "ok", caller: ANONYMOUS };
  return authenticateToken(db, bearerToken(req.headers.authorization));
}
