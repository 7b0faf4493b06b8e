import type { RouterContextProvider } from "react-router";
import { getAuth } from "./auth-state.server";
import { stateOf } from "./context.server";
import { userAnswer } from "./logger/schemas";
import { readPrefs } from "./prefs.server";
import { effectiveZone } from "./timezone";

/** The zone the user reads times in — the root loader's rule — for typed date-times and file names. */
export async function userTimeZone({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }): Promise<string> {
  const [auth, prefs] = await Promise.all([getAuth(context), readPrefs(request)]);
  const user = auth.userId !== null ? (await stateOf(context).logger.readRpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer)).User : null;
  return effectiveZone(user, prefs.browserZone, auth.settings?.DefaultTimezone || "UTC");
}
