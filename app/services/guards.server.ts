import { data, redirect, type RouterContextProvider } from "react-router";
import { featureByKey } from "~/features";
import { getAuth, type AuthState } from "./auth-state.server";
import { loadConstants } from "./constants.server";
import { stateOf } from "./context.server";
import { gateFeature, type GateInput } from "./gating";
import { isRememberable, safePath, startPagePath, withReturnPath } from "./redirects";

interface GuardArgs {
  url: URL;
  context: Readonly<RouterContextProvider>;
}

/** What the feature gate of spec §6 needs to know about this caller and system. */
export function gateInputOf(auth: AuthState): GateInput {
  return {
    urls: loadConstants().urls,
    loginRequired: auth.loginRequired,
    permissions: auth.permissions,
    features: auth.settings?.Features ?? [],
    controller: auth.controller,
  };
}

/** Remembered paths up to this long are also kept in the session, for a later visit of plain /signin. */
const REMEMBER_IN_SESSION = 512;

/**
 * Signed in (or no login required), with no pending forced password change. Otherwise the
 * path is remembered (spec §2) and the caller goes to the sign-in page: the path travels in
 * that page's redirect_uri (any length up to MAX_TARGET_LENGTH), and a short one is kept in the
 * session as well, so that /signin typed later still leads back to it.
 */
export async function requireSession({ url, context }: GuardArgs, opts: { allowPasswordChange?: boolean } = {}): Promise<AuthState> {
  const auth = await getAuth(context);
  const away = (page: string) => {
    const target = url.pathname + url.search;
    if (isRememberable(url.pathname) && target.length <= REMEMBER_IN_SESSION) stateOf(context).session.set("redirectTo", target);
    return redirect(withReturnPath(page, target));
  };
  if (auth.loginRequired && !auth.signedIn) throw away("/signin");
  if (auth.mustChangePassword && !opts.allowPasswordChange) throw away("/changePassword");
  return auth;
}

/** requireSession plus the feature gate of spec §6: 404 when the feature is off, 403 when not permitted. */
export async function requireFeature(args: GuardArgs, key: string): Promise<AuthState> {
  const auth = await requireSession(args);
  const gate = gateFeature(featureByKey(key), gateInputOf(auth));
  if (gate === "absent") throw data({ reason: "not-found" }, { status: 404 });
  if (gate === "forbidden") throw data({ reason: "forbidden" }, { status: 403 });
  return auth;
}

/**
 * Where a fresh sign-in (or password change) continues: the given target, else the remembered
 * path, else the start page — resolved here, because a toast flashed now is read by the very
 * next page, and a detour through "/" would consume it.
 */
export async function landingPath(context: Readonly<RouterContextProvider>, target: string | null): Promise<string> {
  // Both go through the one redirect decision, whoever decided on the target before.
  const chosen = safePath(target) ?? safePath(stateOf(context).session.get("redirectTo"));
  if (chosen) return chosen;
  const auth = await getAuth(context);
  return startPagePath(auth.settings?.DefaultStartPage, auth);
}

/** A permission beyond the screen's own (e.g. ManageProject for writes); no login = allowed. */
export function requirePermission(auth: AuthState, permission: string) {
  if (auth.loginRequired && !auth.permissions.includes(permission)) throw data({ reason: "forbidden" }, { status: 403 });
}

export function holds(auth: AuthState, permission: string) {
  return !auth.loginRequired || auth.permissions.includes(permission);
}

/** For shared endpoints (the live relay): any one of the features will do. */
export async function requireAnyFeature(args: GuardArgs, keys: string[]): Promise<AuthState> {
  const auth = await requireSession(args);
  const input = gateInputOf(auth);
  if (!keys.some((k) => gateFeature(featureByKey(k), input) === "ok")) throw data({ reason: "forbidden" }, { status: 403 });
  return auth;
}

export type Toast = { type: "success" | "error"; text: string };

/** A one-time toast read by the root loader, so it also shows without JavaScript. */
export function flashToast(context: Readonly<RouterContextProvider>, toast: Toast) {
  stateOf(context).session.flash("toast", { ...toast, id: crypto.randomUUID() });
}

export function redirectWithToast(context: Readonly<RouterContextProvider>, to: string, toast: Toast) {
  flashToast(context, toast);
  return redirect(to);
}
