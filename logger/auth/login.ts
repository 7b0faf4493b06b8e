import type { LoggerContext } from "../api/registry.ts";
import type { Db } from "../store/db.ts";
import { postMessage } from "../store/messages.ts";
import { findUserByName } from "../store/users.ts";
import type { UserRow } from "../store/users.ts";
import { MAX_PASSWORD_LENGTH, burnPasswordCheck, verifyPassword } from "./passwords.ts";
import type { ThrottleEvent } from "./throttle.ts";

export async function checkCredentials(db: Db, username: string, password: string): Promise<UserRow | null> {
  // Longer than any password the policy allows: wrong, and not worth a hash.
  if (password.length > MAX_PASSWORD_LENGTH) return null;
  const user = await findUserByName(db, username.normalize("NFC"));
  if (!user) return burnPasswordCheck(password).then(() => null);
  return (await verifyPassword(password, user.PasswordHash, user.PasswordSalt)) ? user : null;
}

export type SignInOutcome =
  | {
      ok: true;
      user: UserRow;
      /** A new device token for the client to keep (sign-ins only, not ChangePassword). */
      deviceToken: string | null;
    }
  | { ok: false; reason: "wrong" }
  | { ok: false; reason: "throttled"; retryAfterSec: number };

/**
 * Every password check of a caller goes through here: the throttle first (a refused attempt is
 * never hashed), then the check, whose outcome the throttle counts. `address` is the client
 * address (null for ChangePassword, which can only guess the caller's own password).
 * `deviceToken`: what the client kept from an earlier sign-in; when it is this user's and valid,
 * the attempt is throttled by that token alone (throttle.ts).
 */
export async function attemptSignIn(
  ctx: LoggerContext,
  username: string,
  password: string,
  address: string | null,
  via: "POST /token" | "AdminAPI.Login" | "ChangePassword",
  deviceToken: string | null = null,
): Promise<SignInOutcome> {
  const device = deviceToken ? await deviceOf(ctx, username, deviceToken) : null;
  const attempt = await ctx.throttle.begin(username, address, via, device);
  if (!attempt.ok) return { ok: false, reason: "throttled", retryAfterSec: attempt.retryAfterSec };
  let user: UserRow | null;
  try {
    user = await checkCredentials(ctx.db, username, password);
  } catch (err) {
    await attempt.settle(null); // not checked (too many hashes at once): counts as nothing
    throw err;
  }
  await attempt.settle(user !== null);
  if (!user) return { ok: false, reason: "wrong" };
  return { ok: true, user, deviceToken: via === "ChangePassword" ? null : ctx.deviceTokens.issue(user.ID) };
}

/** The id of a device token that is valid for the user of this name (a token of anyone else counts as none). */
async function deviceOf(ctx: LoggerContext, username: string, token: string): Promise<string | null> {
  if (username.length > 256) return null;
  const user = await findUserByName(ctx.db, username.normalize("NFC"));
  return user ? ctx.deviceTokens.verify(token, user.ID) : null;
}

// Attempted names are whatever a client sent: shown without control characters and cut short.
const shown = (name: string) => {
  const clean = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "").normalize("NFC");
  return clean.length > 64 ? `${clean.slice(0, 64)}…` : clean;
};

/** Failed checks and new blocks become audit messages (Topic Audit, Type Warning, Sender Logger). */
export async function auditThrottleEvent(db: Db, event: ThrottleEvent): Promise<void> {
  // Sender is the logger itself: a made-up username must not pose as a real one (or as Maintainer).
  const post = (Text: string, Args: string[]) => postMessage(db, { Sender: "Logger", Topic: "Audit", Type: "Warning", Text, Args });
  if (event.kind === "failed") {
    const from = `${event.address ? ` from ${event.address}` : ""}${event.device ? " on a device it signed in from before" : ""}`;
    const text = event.via === "ChangePassword" ? `Wrong current password for ${shown(event.account)} (ChangePassword)` : `Failed sign-in as ${shown(event.account)}${from} (${event.via})`;
    await post(text, [shown(event.account), event.address, event.via]);
  } else {
    const account = `account ${shown(event.value)}`;
    const what = {
      pair: event.address ? `${account} from ${event.address}` : account,
      account: `${account} from devices it has not signed in from`,
      device: `${account} on one device it signed in from before`,
      address: `address ${event.value}`,
    }[event.key];
    await post(`Sign-ins for ${what} paused for ${event.seconds} s after ${event.failures} failed attempts`, [event.key, shown(event.value), String(event.seconds), event.address]);
  }
}
