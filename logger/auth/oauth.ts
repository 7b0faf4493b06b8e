import type { IncomingMessage, ServerResponse } from "node:http";
import type { LoggerContext } from "../api/registry.ts";
import { readBody } from "../http/body.ts";
import { sendJson } from "../http/respond.ts";
import { authenticateToken } from "./caller.ts";
import { bearerToken, checkClient, parseBasicAuth } from "./clients.ts";
import { checkCredentials } from "./login.ts";
import { issuePair, revokeFamily, rotateRefreshToken } from "./tokens.ts";

// RFC 6749 error answers; always 400 except a failed client authentication (401).
function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = status === 401 ? { "WWW-Authenticate": 'Basic realm="loggia-logger"' } : {};
  sendJson(res, status, { error, error_description: description }, headers);
}

async function readClientForm(req: IncomingMessage, ctx: LoggerContext): Promise<{ form: URLSearchParams; clientId: string | null }> {
  const form = new URLSearchParams((await readBody(req)).toString("utf8"));
  const basic = parseBasicAuth(req.headers.authorization);
  const clientId = basic?.id ?? form.get("client_id");
  const clientSecret = basic?.secret ?? form.get("client_secret") ?? "";
  return { form, clientId: clientId && checkClient(ctx.clients, clientId, clientSecret) ? clientId : null };
}

export async function handleToken(req: IncomingMessage, res: ServerResponse, ctx: LoggerContext): Promise<void> {
  const { form, clientId } = await readClientForm(req, ctx);
  if (!clientId) return oauthError(res, 401, "invalid_client", "Unknown client or wrong client secret");

  const grant = form.get("grant_type");
  if (!grant) return oauthError(res, 400, "invalid_request", "grant_type is missing");

  if (grant === "password") {
    const username = form.get("username");
    const password = form.get("password");
    if (!username || password === null) return oauthError(res, 400, "invalid_request", "username and password are required");
    const user = await checkCredentials(ctx.db, username, password);
    if (!user) return oauthError(res, 400, "invalid_grant", "Wrong username or password");
    return sendJson(res, 200, { ...issuePair(ctx.db, user.ID, clientId, ctx.ttl), token_type: "Bearer" });
  }

  if (grant === "refresh_token") {
    const token = form.get("refresh_token");
    if (!token) return oauthError(res, 400, "invalid_request", "refresh_token is required");
    const result = rotateRefreshToken(ctx.db, token, clientId, ctx.ttl);
    if (!result.ok) {
      const why = { invalid: "Refresh token invalid", expired: "Refresh token expired", reused: "Refresh token already used" };
      return oauthError(res, 400, "invalid_grant", why[result.reason]);
    }
    return sendJson(res, 200, { ...result.pair, token_type: "Bearer" });
  }

  return oauthError(res, 400, "unsupported_grant_type", `Grant type ${grant} is not supported`);
}

// Always needs a token, even when login is not required: it answers "who is this token".
export async function handleVerify(req: IncomingMessage, res: ServerResponse, ctx: LoggerContext): Promise<void> {
  await readBody(req);
  const auth = authenticateToken(ctx.db, bearerToken(req.headers.authorization));
  if (auth.state !== "ok") {
    const description = auth.state === "expired" ? "Token expired" : "Token missing or invalid";
    return sendJson(res, 401, { error: "invalid_token", error_description: description }, {
      "WWW-Authenticate": `Bearer error="invalid_token"`,
    });
  }
  const { caller } = auth;
  const row = ctx.db.prepare("SELECT MustChangePassword FROM users WHERE ID = ?").get(caller.userId) as
    | { MustChangePassword: number }
    | undefined;
  sendJson(res, 200, {
    user_id: caller.userId,
    username: caller.username,
    permissions: [...caller.permissions],
    must_change_password: row?.MustChangePassword === 1,
  });
}

// RFC 7009: sign-out revokes the whole sign-in (every token of the family), so a copy of an old
// cookie is worthless afterwards. Unknown tokens answer 200 too, as the RFC asks.
export async function handleRevoke(req: IncomingMessage, res: ServerResponse, ctx: LoggerContext): Promise<void> {
  const { form, clientId } = await readClientForm(req, ctx);
  if (!clientId) return oauthError(res, 401, "invalid_client", "Unknown client or wrong client secret");
  const token = form.get("token");
  if (!token) return oauthError(res, 400, "invalid_request", "token is required");
  revokeFamily(ctx.db, token, clientId);
  sendJson(res, 200, {});
}
