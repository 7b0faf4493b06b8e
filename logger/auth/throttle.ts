import { isIP } from "node:net";

// Sign-in throttling (issues 14 and 24): every check of a password — POST /token's password
// grant, AdminAPI.Login, UserManagementAPI.ChangePassword — first asks these tables:
//
// * the account from one client address: exponential back-off after a few failures, so that
//   one address gets at most ~20 guesses at an account in the first hour and ~4 an hour after.
//   It blocks that address only: the account's owner elsewhere is not made to wait (issue 24 —
//   one guess each time the block ended used to keep the owner out for good).
// * the account's budget, over all addresses: failures from clients without a device token are
//   also counted per account, and past BUDGET_POLICY.free every further one blocks them all for a
//   while — at most 30 checked guesses per account in any hour however many addresses an attacker
//   has. One address never fills it (its own back-off stops it well below), so only an attack
//   from several addresses makes unknown devices wait.
// * the device token (device-tokens.ts): a client that proves an earlier sign-in of this user is
//   throttled by its token alone (its own back-off), exempt from the account's budget and the
//   address's count — the owner signs in while a botnet has used up the budget (OWASP's device
//   cookies). A token is only ever given for the right password, so attackers have none.
// * the client address (any account): a larger allowance that drains quickly (one failure a
//   minute). It stops one address from spraying guesses over many accounts, and it is sized so
//   that the attack on ONE account (at most what the per-address key lets through) never fills
//   it: other people behind the same address can still sign in.
//
// Nothing is ever locked for good: a block lasts at most 15 minutes, and the counts drain by
// themselves (the cool-down). Refused attempts are not counted and never reach the password hash.

export type BackoffPolicy = {
  /** Failures allowed before the first block. */
  free: number;
  /** The first block; every further failure doubles it. */
  baseMs: number;
  /** Longest block. */
  maxMs: number;
  /** One failure is forgotten per this much time without failures (leaky bucket). */
  leakMs: number;
};

/** One account from one address (and ChangePassword's checks of one account). */
export const PAIR_POLICY: BackoffPolicy = { free: 5, baseMs: 1000, maxMs: 15 * 60_000, leakMs: 15 * 60_000 };
/**
 * One account from every client without a device token: 20 failures, then one per 6 minutes
 * (each further failure blocks for 6 minutes, one failure drains per 6 minutes): at most
 * 20 + 9 = 29 in the first hour, 10 an hour after.
 */
export const BUDGET_POLICY: BackoffPolicy = { free: 20, baseMs: 6 * 60_000, maxMs: 6 * 60_000, leakMs: 6 * 60_000 };
/** One device token: as one address. */
export const DEVICE_POLICY: BackoffPolicy = PAIR_POLICY;
export const ADDRESS_POLICY: BackoffPolicy = { free: 30, baseMs: 1000, maxMs: 15 * 60_000, leakMs: 60_000 };

/** Entries per table; beyond it idle entries go first, then the least suspicious ones. */
export const MAX_ENTRIES = 10_000;
/**
 * Attempts of one account from one client (address or device token) waiting for the one being
 * checked; more are refused at once. Per client: a flood from one address must not fill the
 * queue the owner's attempt joins. All clients together are bounded too.
 */
const MAX_WAITING_PER_CLIENT = 16;
const MAX_WAITING_PER_ACCOUNT = 1024;
/** How long a refused attempt waits for its answer, and how many may wait at once. */
export const REFUSAL_DELAY_MS = 1000;
const MAX_HELD_REFUSALS = 512;

type Entry = { count: number; at: number; blockedUntil: number };

/** One table of failure counts (accounts or addresses) with exponential back-off. */
export class BackoffTable {
  private readonly entries = new Map<string, Entry>();
  readonly policy: BackoffPolicy;
  private readonly now: () => number;
  private readonly maxEntries: number;
  constructor(policy: BackoffPolicy, now: () => number, maxEntries = MAX_ENTRIES) {
    this.policy = policy;
    this.now = now;
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.entries.size;
  }

  private drained(entry: Entry, now: number): number {
    return Math.max(0, entry.count - (now - entry.at) / this.policy.leakMs);
  }

  /** Milliseconds until the key may try again (0: now). */
  waitMs(key: string): number {
    const entry = this.entries.get(key);
    return entry ? Math.max(0, entry.blockedUntil - this.now()) : 0;
  }

  /** Counts a failure; returns the block it started (0 while still within the free allowance) and the count. */
  fail(key: string): { blockMs: number; failures: number } {
    const now = this.now();
    const entry = this.entries.get(key);
    const count = (entry ? this.drained(entry, now) : 0) + 1;
    const p = this.policy;
    // Counts drain continuously, so "five failures in a row" is 4.9997 a moment later: rounded.
    const blockMs = Math.round(count) >= p.free ? Math.min(p.maxMs, p.baseMs * 2 ** Math.max(0, count - p.free)) : 0;
    const next = { count, at: now, blockedUntil: Math.max(entry?.blockedUntil ?? 0, now + blockMs) };
    this.entries.delete(key); // re-inserted last: the Map's order is then least recently failed first
    this.entries.set(key, next);
    if (this.entries.size > this.maxEntries) this.evict(now);
    return { blockMs, failures: Math.round(count) };
  }

  /** Takes back one counted attempt (it turned out right). */
  refund(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const now = this.now();
    entry.count = Math.max(0, this.drained(entry, now) - 1);
    entry.at = now;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  // An attacker may fill the table with made-up names to push a victim's entry out. Idle entries
  // go first; if that is not enough, the ones with the fewest failures — a key under attack has
  // many and stays.
  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.blockedUntil <= now && this.drained(entry, now) < 1) this.entries.delete(key);
    }
    if (this.entries.size <= this.maxEntries) return;
    const byCount = [...this.entries].sort((a, b) => this.drained(a[1], now) - this.drained(b[1], now));
    const excess = this.entries.size - Math.floor(this.maxEntries * 0.9);
    for (const [key] of byCount.slice(0, excess)) this.entries.delete(key);
  }
}

export type Attempt =
  | {
      ok: true;
      /**
       * Call with the outcome of the password check; null when it could not be made (busy).
       * Resolves once what the attempt told the audit log is written, so that the answer to a
       * caller never precedes its own audit entry (an administrator reading the log right after
       * a refusal finds it).
       */
      settle(right: boolean | null): Promise<void>;
    }
  | { ok: false; retryAfterSec: number };

/** What a failed attempt or a new block tells the audit log. */
export type ThrottleEvent =
  | { kind: "failed"; account: string; address: string; via: string; device: boolean }
  | {
      kind: "blocked";
      /** pair: the account from one address ("" for ChangePassword); account: its budget; device: one device token. */
      key: "pair" | "account" | "device" | "address";
      /** The account, or the address for key "address". */
      value: string;
      address: string;
      seconds: number;
      failures: number;
    };

type Slot = { tail: Promise<void>; waiting: number; byClient: Map<string, number> };

export class SignInThrottle {
  readonly pairs: BackoffTable;
  readonly accounts: BackoffTable;
  readonly devices: BackoffTable;
  readonly addresses: BackoffTable;
  // One password check per account at a time: parallel guesses cannot slip past the count that
  // the first of them is about to raise.
  private readonly busy = new Map<string, Slot>();

  private readonly refusalDelayMs: number;
  private held = 0;
  /** Told about every failed check and every block that starts (the audit log); may return when it is written. */
  onEvent: (e: ThrottleEvent) => void | Promise<void>;

  constructor(
    opts: {
      pair?: BackoffPolicy;
      account?: BackoffPolicy;
      device?: BackoffPolicy;
      address?: BackoffPolicy;
      now?: () => number;
      maxEntries?: number;
      refusalDelayMs?: number;
      onEvent?: (e: ThrottleEvent) => void | Promise<void>;
    } = {},
  ) {
    const now = opts.now ?? Date.now;
    this.pairs = new BackoffTable(opts.pair ?? PAIR_POLICY, now, opts.maxEntries);
    this.accounts = new BackoffTable(opts.account ?? BUDGET_POLICY, now, opts.maxEntries);
    this.devices = new BackoffTable(opts.device ?? DEVICE_POLICY, now, opts.maxEntries);
    this.addresses = new BackoffTable(opts.address ?? ADDRESS_POLICY, now, opts.maxEntries);
    this.refusalDelayMs = opts.refusalDelayMs ?? REFUSAL_DELAY_MS;
    this.onEvent = opts.onEvent ?? (() => {});
  }

  /**
   * Waits for the account's previous check, then either refuses (Retry-After in seconds) or lets
   * one password check happen; its outcome must be given to settle(). `address` null: an
   * authenticated call (ChangePassword) that can only guess its own account's password. `via`
   * names the door for the audit log. `device`: the id of a valid device token of this account's
   * user (DeviceTokens.verify), or null.
   */
  async begin(username: string, address: string | null, via = "", device: string | null = null): Promise<Attempt> {
    const account = accountKey(username);
    const pair = `${account}\0${address ?? ""}`;
    const client = device === null ? `a\0${address ?? ""}` : `d\0${device}`;
    const slot = this.busy.get(account) ?? { tail: Promise.resolve(), waiting: 0, byClient: new Map<string, number>() };
    const waitMs = () =>
      device !== null
        ? this.devices.waitMs(device)
        : Math.max(this.pairs.waitMs(pair), this.accounts.waitMs(account), address === null ? 0 : this.addresses.waitMs(address));
    if (slot.waiting >= MAX_WAITING_PER_ACCOUNT || (slot.byClient.get(client) ?? 0) >= MAX_WAITING_PER_CLIENT) {
      await this.pause();
      return { ok: false, retryAfterSec: Math.max(1, secs(waitMs())) };
    }
    let release!: () => void;
    const previous = slot.tail;
    slot.tail = new Promise<void>((resolve) => (release = resolve));
    slot.waiting++;
    slot.byClient.set(client, (slot.byClient.get(client) ?? 0) + 1);
    this.busy.set(account, slot);
    await previous;
    slot.waiting--;
    const left = slot.byClient.get(client)! - 1;
    if (left) slot.byClient.set(client, left);
    else slot.byClient.delete(client);
    const done = () => {
      release();
      if (slot.waiting === 0 && this.busy.get(account) === slot) this.busy.delete(account);
    };

    if (waitMs() > 0) {
      done();
      await this.pause();
      return { ok: false, retryAfterSec: Math.max(1, secs(waitMs())) };
    }
    // The address is charged before the check (several accounts may be tried from it at once) and
    // refunded when the password was right. A device token's attempts are its own business.
    const written: (void | Promise<void>)[] = [];
    const chargesAddress = device === null && address !== null;
    if (chargesAddress) written.push(this.charge("address", this.addresses, address, address, address));
    let settled = false;
    return {
      ok: true,
      settle: async (right: boolean | null) => {
        if (settled) return;
        settled = true;
        if (right === null) {
          if (chargesAddress) this.addresses.refund(address);
        } else if (right) {
          // The right password clears this client's own count; the account's budget drains by
          // itself, or an owner who signs in now and then would hand attackers a fresh one.
          if (device !== null) this.devices.forget(device);
          else this.pairs.forget(pair);
          if (chargesAddress) this.addresses.refund(address);
        } else {
          written.push(this.onEvent({ kind: "failed", account, address: address ?? "", via, device: device !== null }));
          if (device !== null) written.push(this.charge("device", this.devices, device, account, address ?? ""));
          else {
            written.push(this.charge("pair", this.pairs, pair, account, address ?? ""));
            written.push(this.charge("account", this.accounts, account, account, address ?? ""));
          }
        }
        done();
        await Promise.all(written);
      },
    };
  }

  private charge(key: Extract<ThrottleEvent, { kind: "blocked" }>["key"], table: BackoffTable, tableKey: string, value: string, address: string): void | Promise<void> {
    const { blockMs, failures } = table.fail(tableKey);
    if (blockMs > 0) return this.onEvent({ kind: "blocked", key, value, address, seconds: secs(blockMs), failures });
  }

  // A refusal is answered after a short pause: an attacker's client waits instead of asking again
  // at once, so a flood of refused guesses costs the logger (and the console in front of it) next
  // to nothing. Pauses held at once are bounded; past that, refusals are answered straight away.
  private async pause(): Promise<void> {
    if (this.refusalDelayMs <= 0 || this.held >= MAX_HELD_REFUSALS) return;
    this.held++;
    try {
      await new Promise((resolve) => setTimeout(resolve, this.refusalDelayMs));
    } finally {
      this.held--;
    }
  }
}

const secs = (ms: number) => Math.ceil(ms / 1000);

/** Usernames are case-insensitive and compared NFC-normalised (logger/api/users.ts). */
export function accountKey(username: string): string {
  return username.trim().normalize("NFC").toLowerCase().slice(0, 256);
}

/**
 * The key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 — one host
 * usually owns a whole /64 and could otherwise pick a fresh address for every guess.
 */
export function addressKey(raw: string | undefined | null): string {
  let address = (raw ?? "").trim();
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6) return "unknown";
  return `${expandIpv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(address: string): string[] {
  let text = address;
  // A trailing dotted IPv4 part (::1.2.3.4) becomes two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16).toString(16));
}
