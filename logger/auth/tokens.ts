import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "../store/db.ts";

export type TokenTtl = { accessTtlSec: number; refreshTtlSec: number };

export type TokenPair = { access_token: string; refresh_token: string; expires_in: number };

type TokenRow = { Hash: string; Kind: string; UserID: number; FamilyID: string; ClientID: string; ExpiresAt: number; ConsumedAt: number | null };

// Long enough after expiry to still answer "expired" rather than "unknown", short enough to keep the table small.
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

// A refresh token presented again this soon after its rotation, with the same session binding,
// is a second console replica (or a second request of the same browser) that raced the first:
// it gets the same successor pair. Later, or without that binding, a reuse still means a leak
// and kills the family. As long as the console's own in-process sharing (REFRESH_SHARE_MS).
export const ROTATION_GRACE_MS = 5_000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

/**
 * The successor pair of a refresh token rotated for a session `binding` (a value the client
 * sends with the refresh, the console: a hash of its cookie session's id), derived rather than
 * random so that a racing second rotation can hand out the very same pair while the table keeps
 * no token in the clear. Three inputs are needed: the presented token (only its hash is stored),
 * the family id (stored, never sent to a client) and the binding — neither a stolen token nor a
 * copy of the database alone yields a successor, and another session's binding yields another
 * pair, which is not in the table.
 */
function successorTokens(refreshToken: string, familyId: string, binding: string): { access: string; refresh: string } {
  const derive = (kind: string) =>
    createHmac("sha256", refreshToken).update(`loggia-rotation\0${kind}\0${familyId}\0${binding}`).digest("base64url");
  return { access: derive("access"), refresh: derive("refresh") };
}

/**
 * A new token pair: of a new sign-in, or (`family`) the rotation of one. A family ends
 * REFRESH_TOKEN_TTL after its sign-in, however often it is refreshed: each new refresh token
 * inherits the end of the one it replaces, and no access token outlives it. Three statements:
 * a rotation calls it inside its tx.
 */
export async function issuePair(
  db: Db,
  userId: number,
  clientId: string,
  ttl: TokenTtl,
  family: { id: string; endsAt: number } = { id: randomUUID(), endsAt: Date.now() + ttl.refreshTtlSec * 1000 },
  tokens: { access: string; refresh: string } = { access: newToken(), refresh: newToken() },
): Promise<TokenPair> {
  const now = Date.now();
  const { access, refresh } = tokens;
  const accessEnd = Math.min(now + ttl.accessTtlSec * 1000, family.endsAt);
  const insert = "INSERT INTO tokens (Hash, Kind, UserID, FamilyID, ClientID, ExpiresAt) VALUES (?, ?, ?, ?, ?, ?)";
  await db.run(insert, hashToken(access), "access", userId, family.id, clientId, accessEnd);
  await db.run(insert, hashToken(refresh), "refresh", userId, family.id, clientId, family.endsAt);
  await db.run("DELETE FROM tokens WHERE ExpiresAt < ?", now - KEEP_EXPIRED_MS);
  return { access_token: access, refresh_token: refresh, expires_in: Math.max(1, Math.ceil((accessEnd - now) / 1000)) };
}

/** An access token's user in one statement (checked on every request): its row, its user's and role's columns. */
export type AccessTokenUser = { ExpiresAt: number; UserID: number; Username: string | null; MustChangePassword: number | null; Permissions: string | null };

export function accessTokenUser(db: Db, token: string): Promise<AccessTokenUser | undefined> {
  return db.get<AccessTokenUser>(
    `SELECT tokens.ExpiresAt, tokens.UserID, users.Username, users.MustChangePassword, roles.Permissions
     FROM tokens LEFT JOIN users ON users.ID = tokens.UserID LEFT JOIN roles ON roles.ID = users.Role
     WHERE tokens.Hash = ? AND tokens.Kind = 'access'`,
    hashToken(token),
  );
}

export type RefreshResult = { ok: true; pair: TokenPair; userId: number } | { ok: false; reason: "invalid" | "expired" | "reused" };

// Rotation: each refresh token works once. Presenting a used one means it leaked (or two
// clients share it), so the whole family — every token descended from that sign-in — dies;
// except a repeat with the same `binding` within ROTATION_GRACE_MS, while the successor is still
// unused: that gets the same successor pair again (idempotent rotation, see successorTokens).
// Without a binding (public clients, AdminAPI.RefreshToken) every reuse is one.
export function rotateRefreshToken(db: Db, token: string, clientId: string, ttl: TokenTtl, binding?: string): Promise<RefreshResult> {
  return db.tx(async (q): Promise<RefreshResult> => {
    const row = await q.get<TokenRow>("SELECT * FROM tokens WHERE Hash = ? AND Kind = 'refresh'", hashToken(token));
    if (!row || row.ClientID !== clientId) return { ok: false, reason: "invalid" };
    const successor = binding ? successorTokens(token, row.FamilyID, binding) : undefined;
    if (row.ConsumedAt !== null) {
      const again = successor && Date.now() - row.ConsumedAt <= ROTATION_GRACE_MS ? await repeatRotation(q, successor) : undefined;
      if (again) return { ok: true, pair: again, userId: row.UserID };
      await q.run("DELETE FROM tokens WHERE FamilyID = ?", row.FamilyID);
      return { ok: false, reason: "reused" };
    }
    if (row.ExpiresAt <= Date.now()) return { ok: false, reason: "expired" };
    await q.run("UPDATE tokens SET ConsumedAt = ? WHERE Hash = ?", Date.now(), row.Hash);
    const pair = await issuePair(q, row.UserID, clientId, ttl, { id: row.FamilyID, endsAt: row.ExpiresAt }, successor);
    return { ok: true, pair, userId: row.UserID };
  });
}

/** The pair a rotation already issued, while its refresh token is unused and still live. */
async function repeatRotation(db: Db, successor: { access: string; refresh: string }): Promise<TokenPair | undefined> {
  const now = Date.now();
  const refresh = await db.get<TokenRow>("SELECT * FROM tokens WHERE Hash = ? AND Kind = 'refresh'", hashToken(successor.refresh));
  const access = await db.get<TokenRow>("SELECT * FROM tokens WHERE Hash = ? AND Kind = 'access'", hashToken(successor.access));
  if (!refresh || !access || refresh.ConsumedAt !== null || refresh.ExpiresAt <= now) return undefined;
  // With a very short access lifetime the repeated access token may have run out already (0): the
  // refresh token of the pair still works.
  return { access_token: successor.access, refresh_token: successor.refresh, expires_in: Math.max(0, Math.ceil((access.ExpiresAt - now) / 1000)) };
}

/** Deletes every token of the sign-in that `token` (access or refresh) belongs to. */
export async function revokeFamily(db: Db, token: string, clientId: string): Promise<void> {
  const row = await db.get<TokenRow>("SELECT * FROM tokens WHERE Hash = ?", hashToken(token));
  if (row && row.ClientID === clientId) await db.run("DELETE FROM tokens WHERE FamilyID = ?", row.FamilyID);
}
