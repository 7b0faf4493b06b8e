import type { RouterContextProvider } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { forgetAuth } from "./auth-state.server";
import { stateOf } from "./context.server";
import { deviceTokenFor, keepDeviceToken } from "./deviceCookie.server";
import type { LoggerClient } from "./logger/client.server";
import { userAnswer, type TokenPair } from "./logger/schemas";
import { beginSession } from "./session.server";

type SignedIn = TokenPair & { typedUsername: string };

/** remix-auth with a form strategy whose user is the logger's token pair (password grant). */
function authenticatorFor(logger: LoggerClient) {
  const authenticator = new Authenticator<SignedIn>();
  authenticator.use(
    new FormStrategy(async ({ form, request }) => {
      const username = String(form.get("username") ?? "").trim();
      // This browser's proof of an earlier sign-in of this user, if it has one (deviceCookie.server).
      const pair = await logger.passwordGrant(username, String(form.get("password") ?? ""), await deviceTokenFor(request, username));
      return { ...pair, typedUsername: username };
    }),
    "form",
  );
  return authenticator;
}

/**
 * Signs the posted credentials in and stores the tokens in the session. `headers` keep the new
 * device token in this browser's device cookie: the caller's answer carries them.
 * Throws InvalidCredentials when the logger refuses them, SignInThrottled when it says wait.
 */
export async function signIn(request: Request, context: Readonly<RouterContextProvider>) {
  const { logger, session } = stateOf(context);
  const tokens = await authenticatorFor(logger).authenticate("form", request);
  // A sign-in starts a new session lifetime and id (nothing of an earlier one carries over).
  beginSession(session);
  session.set("accessToken", tokens.access_token);
  session.set("refreshToken", tokens.refresh_token);
  forgetAuth(context);
  const verified = await logger.verify();
  if (!verified) throw new Error("The logger refused a token it just issued");
  session.set("userId", verified.user_id);
  session.set("mustChangePassword", verified.must_change_password);
  if (verified.username) session.set("username", verified.username);
  // The logger answers nothing but the password change to a user who must change it; their
  // profile (language) is read once that is done.
  if (!verified.must_change_password) await applyProfile(context, verified.user_id);
  const headers = new Headers();
  if (tokens.device_token) headers.append("Set-Cookie", await keepDeviceToken(request, verified.username ?? tokens.typedUsername, tokens.device_token));
  return { mustChangePassword: verified.must_change_password, headers };
}

/** The signed-in user's name and language into the session. */
export async function applyProfile(context: Readonly<RouterContextProvider>, userId: number) {
  const { logger, session } = stateOf(context);
  const { User } = await logger.rpc("GI.system/UserManagementAPI.GetUser", { ID: userId }, userAnswer);
  session.set("username", User.Username);
  if (User.Language === "en" || User.Language === "it") session.set("lng", User.Language);
}

/** Revokes and clears the tokens; the remembered redirect target goes with them (spec §2, §4). */
export async function signOut(context: Readonly<RouterContextProvider>) {
  const { session, logger } = stateOf(context);
  await logger.revoke();
  for (const key of ["accessToken", "refreshToken", "userId", "username", "mustChangePassword", "redirectTo", "lng"] as const) {
    session.unset(key);
  }
  forgetAuth(context);
}
