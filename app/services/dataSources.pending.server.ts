// Passwords typed into the data-source form, kept on the server across a round trip that is not
// a save (a row added or removed without JavaScript, the server browsed before saving, a refused
// save), so the user does not type them again — and the password never travels back into the
// page's HTML: the form carries only an opaque token, good for this browser session only, for
// TTL_MS. (Decision 0010, "Passwords typed before saving".)

const TTL_MS = 30 * 60_000;
const MAX_KEPT = 1000;

type Kept = { owner: string; secret: string; expires: number };
const kept = new Map<string, Kept>();

function sweep(now: number): void {
  for (const [token, k] of kept) if (k.expires <= now) kept.delete(token);
  // Map order is insertion order: beyond the cap, the oldest go first.
  for (const token of kept.keys()) {
    if (kept.size <= MAX_KEPT) break;
    kept.delete(token);
  }
}

/** Keeps `secret` for the session `owner`; the token to put in the form. */
export function keepSecret(owner: string, secret: string, now = Date.now()): string {
  sweep(now);
  const token = crypto.randomUUID();
  kept.set(token, { owner, secret, expires: now + TTL_MS });
  return token;
}

/** The secret kept under `token` for `owner` (another session's token, or an expired one, gives nothing). */
export function keptSecret(owner: string, token: string | null | undefined, now = Date.now()): string | undefined {
  if (!token) return undefined;
  const k = kept.get(token);
  if (!k || k.owner !== owner || k.expires <= now) return undefined;
  k.expires = now + TTL_MS;
  return k.secret;
}

/** Forgets a kept secret (after the save that used it). */
export function dropSecret(token: string | null | undefined): void {
  if (token) kept.delete(token);
}
