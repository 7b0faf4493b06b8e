import type { RouterContextProvider } from "react-router";
import { stateOf } from "./context.server";
import { isLoggerAway, type LoggerClient } from "./logger/client.server";
import { globalSettingsAnswer, loginRequiredAnswer, versionInfoAnswer, type GlobalConfig } from "./logger/schemas";

export interface AuthState {
  loginRequired: boolean;
  /** A controller (version name without the service marker) hides Help and reads AdminAPI settings. */
  controller: boolean;
  versionName: string;
  signedIn: boolean;
  userId: number | null;
  username: string | null;
  permissions: string[];
  mustChangePassword: boolean;
  /** Global settings, once the caller may read them (signed in, or no login required). */
  settings: GlobalConfig | null;
}

const SERVICE_MARKER = "Service";
const VERSION_TTL_MS = 60_000;
let versionCache: { at: number; name: string } | null = null;

async function versionName(logger: LoggerClient): Promise<string> {
  if (versionCache && Date.now() - versionCache.at < VERSION_TTL_MS) return versionCache.name;
  try {
    const answer = await logger.rpc("system.getVersionInfo", {}, versionInfoAnswer);
    versionCache = { at: Date.now(), name: answer.Value.Name };
    return answer.Value.Name;
  } catch (error) {
    // The logger away: it is still the system it was (issue 26 §2, pages render what is known).
    if (versionCache && isLoggerAway(error)) return versionCache.name;
    throw error;
  }
}

export function globalSettingsMethod(controller: boolean) {
  return controller ? "AdminAPI.GetGlobalSettings" : "ConfigAPI.GetGlobalSettings";
}

async function resolve(context: Readonly<RouterContextProvider>): Promise<AuthState> {
  const { logger, session } = stateOf(context);
  const [{ LoginRequired: loginRequired }, name] = await Promise.all([
    logger.readRpc("AdminAPI.LoginRequired", {}, loginRequiredAnswer),
    versionName(logger),
  ]);
  const controller = !name.includes(SERVICE_MARKER);
  const verified = loginRequired ? await logger.verify() : null;
  if (loginRequired && !verified) {
    // Tokens that no longer verify are dropped so the next request starts clean.
    if (session.has("accessToken")) {
      for (const key of ["accessToken", "refreshToken", "userId", "username", "mustChangePassword"] as const) session.unset(key);
    }
  } else if (verified) {
    session.set("userId", verified.user_id);
    if (verified.username) session.set("username", verified.username);
    session.set("mustChangePassword", verified.must_change_password);
  }
  // A user who must change the password may do nothing else at the logger (not even read settings).
  const mayRead = !loginRequired || (verified !== null && !verified.must_change_password);
  const settings = mayRead ? (await logger.readRpc(globalSettingsMethod(controller), {}, globalSettingsAnswer)).Config : null;
  return {
    loginRequired,
    controller,
    versionName: name,
    signedIn: verified !== null,
    userId: verified?.user_id ?? null,
    username: verified?.username ?? session.get("username") ?? null,
    permissions: verified?.permissions ?? [],
    mustChangePassword: verified?.must_change_password ?? false,
    settings,
  };
}

/** The caller's auth state, resolved once per request. */
export function getAuth(context: Readonly<RouterContextProvider>): Promise<AuthState> {
  const state = stateOf(context);
  state.auth ??= resolve(context);
  return state.auth;
}

/** Called after sign-in, sign-out or a settings change within the same request. */
export function forgetAuth(context: Readonly<RouterContextProvider>) {
  stateOf(context).auth = undefined;
}
