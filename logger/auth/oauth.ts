import type { IncomingMessage, ServerResponse } from "node:http";
import type { LoggerContext } from "../api/registry.ts";
import { readBody } from "../http/body.ts";
import { bodyTypeProblem } from "../http/content-type.ts";
import { RpcError } from "../http/errors.ts";
import { sendJson } from "../http/respond.ts";
import { resolveToken } from "./caller.ts";
import { bearerToken, checkClient, isConfidentialClient, parseBasicAuth } from "./clients.ts";
import { attemptSignIn } from "./login.ts";
import { addressKey } from "./throttle.ts";
import { issuePair, revokeFamily, rotateRefreshToken } from "./tokens.ts";

// RFC 6749 error answers; always 400 except a failed client authentication (401).
function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = status === 401 ? { "WWW-Authenticate": 'Basic realm="loggia-logger"' } : {};
  sendJson(res, status, { error, error_description: description }, headers);
}

async function readClientForm(req: IncomingMessage, ctx: LoggerContext): Promise<{ form: URLSearchParams; clientId: string | null }> {
  // RFC 6749: the endpoints take a form. Anything else is refused before it is read.
  const problem = bodyTypeProblem(req, "form");
  if (problem) throw new RpcError(415, -6, problem, {}, { error: "invalid_request", error_description: problem });
  const form = new URLSearchParams((await readBody(req)).toString("utf8"));
  const basic = parseBasicAuth(req.headers.authorization);
  const clientId = basic?.id ?? form.get("client_id");
  const clientSecret = basic?.secret ?? form.get("client_secret") ?? "";
  return { form, clientId: clientId && checkClient(ctx.clients, clientId, clientSecret) ? clientId : null };
}

/**
 * The client address a password grant is throttled by. The console signs its users in from its
 * own address, so it says whose browser it acts for in X-Forwarded-For; that header is believed
 * only from a client that proved its secret — anyone else could name a fresh address per guess.
 */
export function grantAddress(req: IncomingMessage, ctx: LoggerContext, clientId: string): string {
  if (isConfidentialClient(ctx.clients, clientId)) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").pop()?.trim();
    const key = addressKey(last);
    if (key !== "unknown") return key;
  }
  return addressKey(req.socket.remoteAddress);
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
    // A device token from an earlier sign-in of this user on this device (our extension; the
    // console keeps it in a cookie of the browser): its attempts are throttled by it alone.
    const device = form.get("device_token");
    const outcome = await attemptSignIn(ctx, username, password, grantAddress(req, ctx, clientId), "POST /token", device).catch((err: unknown) => {
      if (err instanceof RpcError && err.status === 503) return null; // too many password checks at once
      throw err;
    });
    if (!outcome) return oauthError(res, 503, "temporarily_unavailable", "Too many sign-ins at once; try again in a moment");
    if (!outcome.ok && outcome.reason === "throttled") {
      // RFC 6749 has no error for this; slow_down is RFC 8628's word for "poll less often".
      const wait = outcome.retryAfterSec;
      return sendJson(res, 429, { error: "slow_down", error_description: `Too many failed sign-ins; try again in ${wait} s`, retry_after: wait }, {
        "Retry-After": String(wait),
      });
    }
    if (!outcome.ok) return oauthError(res, 400, "invalid_grant", "Wrong username or password");
    const pair = await issuePair(ctx.db, outcome.user.ID, clientId, ctx.ttl);
    return sendJson(res, 200, { ...pair, token_type: "Bearer", ...(outcome.deviceToken ? { device_token: outcome.deviceToken } : {}) });
  }

  if (grant === "refresh_token") {
    const token = form.get("refresh_token");
    if (!token) return oauthError(res, 400, "invalid_request", "refresh_token is required");
    // A client with several processes (console replicas) names the session it refreshes for, so
    // that a racing second refresh of that session gets the same pair instead of ending it.
    const binding = form.get("session_binding") ?? undefined;
    if (binding !== undefined && (binding.length < 16 || binding.length > 128)) return oauthError(res, 400, "invalid_request", "session_binding must be 16 to 128 characters");
    const result = await rotateRefreshToken(ctx.db, token, clientId, ctx.ttl, binding);
    if (!result.ok) {
      const why = { invalid: "Refresh token invalid", expired: "Refresh token expired", reused: "Refresh token already used" };
      return oauthError(res, 400, "invalid_grant", why[result.reason]);
    }
    return sendJson(res, 200, { ...result.pair, token_type: "Bearer" });
  }

  return oauthError(res, 400, "unsupported_grant_type", `Grant type ${grant} is not supported`);
}

// Always needs a token, even when login is not required: it answers "who is this token" — also
// for a user who must change the password first (must_change_password tells the client so).
export async function handleVerify(req: IncomingMessage, res: ServerResponse, ctx: LoggerContext): Promise<void> {
  await readBody(req);
  const auth = await resolveToken(ctx.db, bearerToken(req.headers.authorization), { passwordChange: true });
  if (auth.state !== "ok") {
    const description = auth.state === "expired" ? "Token expired" : "Token missing or invalid";
    return sendJson(res, 401, { error: "invalid_token", error_description: description }, {
      "WWW-Authenticate": `Bearer error="invalid_token"`,
    });
  }
  const { caller } = auth;
  const row = await ctx.db.get<{ MustChangePassword: number }>("SELECT MustChangePassword FROM users WHERE ID = ?", caller.userId);
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
  await revokeFamily(ctx.db, token, clientId);
  sendJson(res, 200, {});
}
