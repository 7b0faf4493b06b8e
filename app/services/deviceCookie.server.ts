import { createCookie } from "react-router";
import { z } from "zod";
import { env } from "./env.server";
import { isHttps } from "./session.server";

// The browser's device tokens (issue 24; OWASP "device cookies"). After a sign-in the logger
// hands out a token that proves "this device signed in as this user before"; the console keeps it
// in this long-lived cookie, one per browser, for the last few users who signed in on it, and
// sends it with that user's next sign-in. The logger then throttles the attempt by the token
// alone: attackers elsewhere who use up the account's budget cannot keep the owner out.
// The cookie outlives sign-out on purpose (it proves the device, not a session); it is signed
// like the session cookie, and the token inside is signed by the logger.

/** The logger's tokens last 180 days (logger/auth/device-tokens.ts); each sign-in renews its user's. */
const MAX_AGE_SEC = 180 * 86400;
/** Users whose tokens one browser keeps (a shared control-room PC); the oldest sign-in drops out. */
export const MAX_DEVICE_USERS = 5;

const entries = z.array(z.object({ u: z.string().max(256), t: z.string().max(256) })).max(MAX_DEVICE_USERS);
type Entries = z.infer<typeof entries>;

function deviceCookie(secure: boolean) {
  return createCookie("loggia_device", { httpOnly: true, sameSite: "lax", path: "/", secure, secrets: env.sessionSecrets, maxAge: MAX_AGE_SEC });
}
const plain = deviceCookie(false);
const secure = deviceCookie(true);
const cookieFor = (request: Request) => (isHttps(request) ? secure : plain);

/** Usernames are case-insensitive at the logger: one entry per user however it was typed. */
const userKey = (username: string) => username.trim().normalize("NFC").toLowerCase();

async function read(request: Request): Promise<Entries> {
  const value: unknown = await cookieFor(request).parse(request.headers.get("Cookie"));
  const parsed = entries.safeParse(value);
  return parsed.success ? parsed.data : [];
}

/** The device token this browser keeps for `username`, or null. */
export async function deviceTokenFor(request: Request, username: string): Promise<string | null> {
  const key = userKey(username);
  return (await read(request)).find((e) => e.u === key)?.t ?? null;
}

/** The Set-Cookie header that keeps `token` as this browser's for `username` (most recent first). */
export async function keepDeviceToken(request: Request, username: string, token: string): Promise<string> {
  const key = userKey(username);
  const kept = [{ u: key, t: token }, ...(await read(request)).filter((e) => e.u !== key)].slice(0, MAX_DEVICE_USERS);
  return cookieFor(request).serialize(kept);
}
