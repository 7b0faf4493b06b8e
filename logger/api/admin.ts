import { z } from "zod";
import { attemptSignIn } from "../auth/login.ts";
import { issuePair, rotateRefreshToken } from "../auth/tokens.ts";
import { passwordError, throttled, unauthorized } from "../http/errors.ts";
import { loginRequired } from "../store/global-settings.ts";
import { getGlobal, setGlobal, setGlobalParams } from "./global-settings.ts";
import { method } from "./registry.ts";
import type { CallContext, Registry } from "./registry.ts";

function knownClient(ctx: CallContext, clientId: string): void {
  if (!ctx.clients.has(clientId)) throw unauthorized(`Unknown client ${clientId}`);
}

const REFRESH_FAILURES = {
  invalid: "Refresh token invalid; sign in again",
  expired: "Token expired; sign in again",
  reused: "Refresh token was already used; every session of that sign-in was ended, sign in again",
} as const;

export const adminMethods: Registry = {
  "AdminAPI.LoginRequired": method({
    params: z.object({}),
    permission: "public",
    handler: async (_p, ctx) => ({ LoginRequired: await loginRequired(ctx.db) }),
  }),

  // Script-compatible twin of POST /token grant_type=password.
  "AdminAPI.Login": method({
    params: z.object({ ClientID: z.string(), Username: z.string(), Password: z.string(), DeviceToken: z.string().max(256).optional() }),
    permission: "public",
    handler: async (p, ctx) => {
      knownClient(ctx, p.ClientID);
      // No client secret here, so the TCP peer is the address, whatever headers say.
      const outcome = await attemptSignIn(ctx, p.Username, p.Password, ctx.clientAddress, "AdminAPI.Login", p.DeviceToken ?? null);
      if (!outcome.ok && outcome.reason === "throttled") throw throttled(outcome.retryAfterSec);
      if (!outcome.ok) throw passwordError("Wrong username or password", 401);
      const pair = await issuePair(ctx.db, outcome.user.ID, p.ClientID, ctx.ttl);
      return { AccessToken: pair.access_token, RefreshToken: pair.refresh_token, ExpiresIn: pair.expires_in, DeviceToken: outcome.deviceToken };
    },
  }),

  "AdminAPI.RefreshToken": method({
    params: z.object({ ClientID: z.string(), RefreshToken: z.string() }),
    permission: "public",
    handler: async (p, ctx) => {
      knownClient(ctx, p.ClientID);
      const result = await rotateRefreshToken(ctx.db, p.RefreshToken, p.ClientID, ctx.ttl);
      if (!result.ok) throw unauthorized(REFRESH_FAILURES[result.reason]);
      const pair = result.pair;
      return { AccessToken: pair.access_token, RefreshToken: pair.refresh_token, ExpiresIn: pair.expires_in };
    },
  }),

  "AdminAPI.GetGlobalSettings": method({
    params: z.object({}),
    permission: null,
    handler: (_p, ctx) => getGlobal(ctx),
  }),

  "AdminAPI.SetGlobalSettings": method({
    params: setGlobalParams,
    permission: "ManageGlobalSettings",
    handler: (p, ctx) => setGlobal(p.Config, ctx),
  }),
};
