import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Device tokens (issue 24), after OWASP's "Slow down online guessing attacks with device
// cookies": a successful password sign-in gets a signed token that names the user and carries
// an expiry. The client keeps it (the console: in a long-lived cookie of that browser) and sends
// it with the next password sign-in of that user. A valid one proves "this device signed in as
// this user before": its attempts are throttled by the token alone (throttle.ts), so attackers
// elsewhere, who never had one, cannot make the owner wait by using up the account's budget.
//
// Format: `d1.<userId>.<expires, epoch s>.<nonce>.<HMAC-SHA256 of the rest>`, all ASCII. The key
// is DATA_DIR/.device-token-key (made on first use, readable by its owner only). A logger with
// another key (a standby on another machine, a new DATA_DIR) finds the tokens invalid: their
// holders are then throttled as any other client until they have signed in once more.

export const DEVICE_TOKEN_TTL_SEC = 180 * 86400;
const MAX_TOKEN_LENGTH = 256;
const FORMAT = /^d1\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export class DeviceTokens {
  private readonly key: Buffer;
  private readonly now: () => number;
  readonly ttlSec: number;

  constructor(key: Buffer, opts: { now?: () => number; ttlSec?: number } = {}) {
    this.key = key;
    this.now = opts.now ?? Date.now;
    this.ttlSec = opts.ttlSec ?? DEVICE_TOKEN_TTL_SEC;
  }

  /** The key in `dataDir` (created there on the first start). */
  static inDataDir(dataDir: string, opts: { now?: () => number; ttlSec?: number } = {}): DeviceTokens {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, ".device-token-key");
    try {
      writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const key = Buffer.from(readFileSync(file, "utf8").trim(), "hex");
    if (key.length < 32) throw new Error(`${file} holds no device-token key (64 hex digits); remove it to make a new one`);
    return new DeviceTokens(key, opts);
  }

  issue(userId: number): string {
    const expires = Math.floor(this.now() / 1000) + this.ttlSec;
    const body = `d1.${userId}.${expires}.${randomBytes(16).toString("base64url")}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The token's id (its nonce) when it is genuine, unexpired and the given user's; else null. */
  verify(token: string, userId: number): string | null {
    if (token.length > MAX_TOKEN_LENGTH) return null;
    const m = FORMAT.exec(token);
    if (!m || Number(m[1]) !== userId || Number(m[2]) * 1000 <= this.now()) return null;
    const body = token.slice(0, token.lastIndexOf("."));
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(m[4]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? m[3]! : null;
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
