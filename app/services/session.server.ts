import { createCookie, createSession, type Session, type SessionData as RawSessionData, type SessionStorage } from "react-router";
import { countEntries } from "./diagnostics.server";
import { env } from "./env.server";
import { sealer } from "./sealedCookie.server";

export interface SessionData {
  accessToken: string;
  refreshToken: string;
  userId: number;
  username: string;
  mustChangePassword: boolean;
  /** Remembered redirect target (spec §2): a same-origin path. */
  redirectTo: string;
  lng: string;
  /** When this cookie session began and when it ends (ms since 1970), checked on every request. */
  issuedAt: number;
  expiresAt: number;
  /** A random id of the sign-in: only its own requests share a token refresh (logger/client.server). */
  sid: string;
}
export interface FlashData {
  toast: { type: "success" | "error"; text: string; id: string };
}
export type AppSession = Session<SessionData, FlashData>;

/**
 * Whether a session's own dates let it be used now. A cookie's Max-Age is only the browser's
 * promise to forget it; a copy of the cookie (or a browser that ignores Max-Age) would otherwise
 * be accepted for ever. So the signed cookie carries its issue time and absolute end, and a
 * session without them, past its end, or older than SESSION_MAX_AGE allows today is refused.
 */
export function sessionIsCurrent(data: Partial<SessionData> | RawSessionData, now = Date.now(), maxAgeSec = env.sessionMaxAge): boolean {
  const { issuedAt, expiresAt } = data as Partial<SessionData>;
  if (typeof issuedAt !== "number" || typeof expiresAt !== "number") return false;
  return issuedAt <= now + CLOCK_SKEW_MS && now < expiresAt && now < issuedAt + maxAgeSec * 1000;
}
const CLOCK_SKEW_MS = 60_000;

/** A new lifetime (and id) for a session: on sign-in, and for any session written without one. */
export function beginSession(session: AppSession, now = Date.now()): void {
  session.set("issuedAt", now);
  session.set("expiresAt", now + env.sessionMaxAge * 1000);
  session.set("sid", crypto.randomUUID());
}

const box = sealer(env.sessionSecrets);

/**
 * Sessions kept whole in one cookie, sealed (sealedCookie.server.ts): nothing of it, the tokens
 * least of all, can be read or changed without the session secrets. A cookie in any other form
 * (a signed one of an earlier version, a tampered or foreign one) opens as no session.
 */
function storage(secure: boolean): SessionStorage<SessionData, FlashData> {
  const cookie = createCookie("loggia_session", { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: env.sessionMaxAge });
  return {
    async getSession(cookieHeader) {
      const sealed = cookieHeader ? await cookie.parse(cookieHeader) : null;
      const data = typeof sealed === "string" ? await box.open(sealed) : null;
      const current = data !== null && typeof data === "object" && !Array.isArray(data) && sessionIsCurrent(data as RawSessionData);
      return current ? createSession<SessionData, FlashData>(data as SessionData) : createSession<SessionData, FlashData>();
    },
    // The cookie lives exactly as long as the session: its Max-Age is what is left, not a new
    // SESSION_MAX_AGE on every write (which kept an active session alive for ever).
    async commitSession(session, options) {
      if (!sessionIsCurrent(session.data)) beginSession(session);
      const left = Math.max(0, Math.floor((session.get("expiresAt")! - Date.now()) / 1000));
      return cookie.serialize(await box.seal(session.data), { maxAge: left, ...options });
    },
    destroySession: (_session, options) => cookie.serialize("", { ...options, maxAge: undefined, expires: new Date(0) }),
  };
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

/** Session data of cookie headers that opened, by the exact header text. */
const verified = new Map<string, string>();
const VERIFIED_MAX = 1000;
countEntries("verifiedSessions", () => verified.size);

/**
 * The request's session. A browser sends the same cookie until its session changes, and opening
 * it (Web Crypto: AES-GCM per request; a signature check alone was a tenth of a small page's
 * server time) is not repeated for a header already opened. Only headers that opened are
 * remembered, by their full text (authentication tag included): a changed cookie is opened anew.
 */
export async function openSession(storage: SessionStorage<SessionData, FlashData>, cookieHeader: string | null): Promise<AppSession> {
  if (!cookieHeader) return storage.getSession(null);
  const known = verified.get(cookieHeader);
  if (known !== undefined) {
    const data = JSON.parse(known) as SessionData;
    // Remembered while it was current; its end may have come since.
    if (sessionIsCurrent(data)) return createSession<SessionData, FlashData>(data);
    verified.delete(cookieHeader);
    return storage.getSession(null);
  }
  const session = await storage.getSession(cookieHeader);
  if (!sessionIsCurrent(session.data)) return session; // none, refused or expired: nothing worth remembering
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
