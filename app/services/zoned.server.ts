import type { RouterContextProvider } from "react-router";
import type { AuthState } from "./auth-state.server";
import { stateOf } from "./context.server";
import { userAnswer } from "./logger/schemas";
import { readPrefs } from "./prefs.server";
import { effectiveZone } from "./timezone";

/** The zone the user reads times in (the root loader's rule), for reading typed date-times back. */
export async function userZone(context: Readonly<RouterContextProvider>, request: Request, auth: AuthState): Promise<string> {
  const prefs = await readPrefs(request);
  const user = auth.userId !== null ? (await stateOf(context).logger.rpc("GI.system/UserManagementAPI.GetUser", { ID: auth.userId }, userAnswer)).User : null;
  return effectiveZone(user, prefs.browserZone, auth.settings?.DefaultTimezone || "UTC");
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A datetime-local value ("2026-11-03T09:30") in `zone` as epoch ms; null when it is not one. */
export function zonedToEpoch(local: string, zone: string): number | null {
  const m = LOCAL.exec(local);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s || 0);
  if (Number.isNaN(wall)) return null;
  // The zone's offset at that instant; a second pass settles times near a DST change.
  let guess = wall - offsetAt(zone, wall);
  guess = wall - offsetAt(zone, guess);
  return guess;
}

function offsetAt(zone: string, epoch: number): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(epoch);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - Math.floor(epoch / 1000) * 1000;
}
