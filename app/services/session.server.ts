import { createCookie, createCookieSessionStorage, createSession, type Session, type SessionStorage } from "react-router";
import { env } from "./env.server";

export interface SessionData {
  accessToken: string;
  refreshToken: string;
  userId: number;
  username: string;
  mustChangePassword: boolean;
  /** Remembered redirect target (spec §2): a same-origin path. */
  redirectTo: string;
  lng: string;
}
export interface FlashData {
  toast: { type: "success" | "error"; text: string; id: string };
}
export type AppSession = Session<SessionData, FlashData>;

function storage(secure: boolean) {
  return createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      name: "loggia_session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: env.sessionSecrets,
      maxAge: env.sessionMaxAge,
    },
  });
}
const plain = storage(false);
const secure = storage(true);

/** Secure cookies when the console is reached over https (directly or behind a proxy). */
export function isHttps(request: Request) {
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return proto ? proto === "https" : new URL(request.url).protocol === "https:";
}

export function sessionStorageFor(request: Request) {
  return isHttps(request) ? secure : plain;
}

/** Session data of cookie headers whose signature was checked, by the exact header text. */
const verified = new Map<string, string>();
const VERIFIED_MAX = 1000;

/**
 * The request's session. A browser sends the same cookie until its session changes, and checking
 * the signature (Web Crypto: a key import and an HMAC per request) was a tenth of a small page's
 * server time — so a header already verified is not checked again. Only headers that passed the
 * check are remembered, by their full text (signature included): a changed cookie is checked anew.
 */
export async function openSession(storage: SessionStorage<SessionData, FlashData>, cookieHeader: string | null): Promise<AppSession> {
  if (!cookieHeader) return storage.getSession(null);
  const known = verified.get(cookieHeader);
  if (known !== undefined) return createSession<SessionData, FlashData>(JSON.parse(known));
  const session = await storage.getSession(cookieHeader);
  if (verified.size >= VERIFIED_MAX) verified.clear();
  verified.set(cookieHeader, JSON.stringify(session.data));
  return session;
}

/** The locale chosen without signing in (no-login mode, sign-in page). */
export const localeCookie = createCookie("loggia_lng", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60 * 60 * 24 * 365,
});

/** Maintenance banner dismissals (spec §3: Count, Text); outlives sign-out on purpose. */
export const maintenanceCookie = createCookie("loggia_maintenance", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60 * 60 * 24 * 30,
  secrets: env.sessionSecrets,
});

/** Display preferences used when nobody is signed in (no-login mode). */
export const prefsCookie = createCookie("loggia_prefs", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60 * 60 * 24 * 365,
});
