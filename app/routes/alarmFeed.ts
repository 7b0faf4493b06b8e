import { getAuth } from "~/services/auth-state.server";
import { stateOf } from "~/services/context.server";
import { alarmSummary, featureOpen } from "~/services/header.server";
import type { Route } from "./+types/alarmFeed";

// The alarm banner's and the bell's state for pages with JavaScript (issue 26 §4): polled by
// app/ui/alarms/useAlarmFeed.ts, the same answer the root loader gives a page load. Never an old
// answer: "unknown" while the logger does not answer. Not a page: a caller without a session gets
// 401 (no sign-in redirect, which would remember this address as the place to return to).
export async function loader({ context }: Route.LoaderArgs) {
  const headers = { "Cache-Control": "private, no-store" };
  let auth;
  try {
    auth = await getAuth(context);
  } catch {
    // The logger away and nothing known of this sign-in: the state is unknown.
    return Response.json({ alarms: "unknown", at: Date.now() }, { headers });
  }
  if ((auth.loginRequired && !auth.signedIn) || auth.mustChangePassword) return Response.json({ alarms: null }, { status: 401, headers });
  const alarms = featureOpen(auth, "alarming") ? await alarmSummary(stateOf(context).logger) : null;
  return Response.json({ alarms, at: Date.now() }, { headers });
}
