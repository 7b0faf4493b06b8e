import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "../store/db.ts";
import { get, run, tx } from "../store/db.ts";

export type TokenTtl = { accessTtlSec: number; refreshTtlSec: number };

export type TokenPair = { access_token: string; refresh_token: string; expires_in: number };

type TokenRow = { Hash: string; Kind: string; UserID: number; FamilyID: string; ClientID: string; ExpiresAt: number; ConsumedAt: number | null };

// Long enough after expiry to still answer "expired" rather than "unknown", short enough to keep the table small.
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

/**
 * A new token pair: of a new sign-in, or (`family`) the rotation of one. A family ends
 * REFRESH_TOKEN_TTL after its sign-in, however often it is refreshed: each new refresh token
 * inherits the end of the one it replaces, and no access token outlives it.
 */
export function issuePair(
  db: Db,
  userId: number,
  clientId: string,
  ttl: TokenTtl,
  family: { id: string; endsAt: number } = { id: randomUUID(), endsAt: Date.now() + ttl.refreshTtlSec * 1000 },
): TokenPair {
  const now = Date.now();
  const access = newToken();
  const refresh = newToken();
  const accessEnd = Math.min(now + ttl.accessTtlSec * 1000, family.endsAt);
  const insert = db.prepare(
    "INSERT INTO tokens (Hash, Kind, UserID, FamilyID, ClientID, ExpiresAt) VALUES (?, ?, ?, ?, ?, ?)",
  );
  insert.run(hashToken(access), "access", userId, family.id, clientId, accessEnd);
  insert.run(hashToken(refresh), "refresh", userId, family.id, clientId, family.endsAt);
  run(db, "DELETE FROM tokens WHERE ExpiresAt < ?", now - KEEP_EXPIRED_MS);
  return { access_token: access, refresh_token: refresh, expires_in: Math.max(1, Math.ceil((accessEnd - now) / 1000)) };
}

export type AccessCheck = { state: "ok"; userId: number } | { state: "invalid" } | { state: "expired" };

export function checkAccessToken(db: Db, token: string): AccessCheck {
  const row = get<TokenRow>(db, "SELECT * FROM tokens WHERE Hash = ? AND Kind = 'access'", hashToken(token));
  if (!row) return { state: "invalid" };
  if (row.ExpiresAt <= Date.now()) return { state: "expired" };
  return { state: "ok", userId: row.UserID };
}

export type RefreshResult = { ok: true; pair: TokenPair; userId: number } | { ok: false; reason: "invalid" | "expired" | "reused" };

// Rotation: each refresh token works once. Presenting a used one means it leaked (or two
// clients share it), so the whole family — every token descended from that sign-in — dies.
export function rotateRefreshToken(db: Db, token: string, clientId: string, ttl: TokenTtl): RefreshResult {
  return tx(db, (): RefreshResult => {
    const row = get<TokenRow>(db, "SELECT * FROM tokens WHERE Hash = ? AND Kind = 'refresh'", hashToken(token));
    if (!row || row.ClientID !== clientId) return { ok: false, reason: "invalid" };
    if (row.ConsumedAt !== null) {
      run(db, "DELETE FROM tokens WHERE FamilyID = ?", row.FamilyID);
      return { ok: false, reason: "reused" };
    }
    if (row.ExpiresAt <= Date.now()) return { ok: false, reason: "expired" };
    run(db, "UPDATE tokens SET ConsumedAt = ? WHERE Hash = ?", Date.now(), row.Hash);
    return { ok: true, pair: issuePair(db, row.UserID, clientId, ttl, { id: row.FamilyID, endsAt: row.ExpiresAt }), userId: row.UserID };
  });
}

/** Deletes every token of the sign-in that `token` (access or refresh) belongs to. */
export function revokeFamily(db: Db, token: string, clientId: string): void {
  const row = get<TokenRow>(db, "SELECT * FROM tokens WHERE Hash = ?", hashToken(token));
  if (row && row.ClientID === clientId) run(db, "DELETE FROM tokens WHERE FamilyID = ?", row.FamilyID);
}
