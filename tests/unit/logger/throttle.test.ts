import { describe, expect, it } from "vitest";
import { hashPassword } from "../../../logger/auth/passwords.ts";
import { BUDGET_POLICY, BackoffTable, PAIR_POLICY, SignInThrottle, accountKey, addressKey } from "../../../logger/auth/throttle.ts";
import type { ThrottleEvent } from "../../../logger/auth/throttle.ts";

// The throttle with a hand-driven clock: what an attacker who retries the moment Retry-After
// allows can get through, and what everybody else keeps.

function clock(start = 1_000_000) {
  const c = { t: start, start, now: () => c.t };
  return c;
}

/** One guess: true when it was checked (and failed), false when it was refused. */
async function guess(throttle: SignInThrottle, user: string, address: string | null, right = false, device: string | null = null): Promise<{ checked: boolean; retryAfterSec: number }> {
  const attempt = await throttle.begin(user, address, "", device);
  if (!attempt.ok) return { checked: false, retryAfterSec: attempt.retryAfterSec };
  attempt.settle(right);
  return { checked: true, retryAfterSec: 0 };
}

/** Guesses from a fresh address each time, again exactly when told it may, for `seconds`: the times of the checked ones. */
async function botnetAttack(throttle: SignInThrottle, c: { t: number }, user: string, seconds: number): Promise<number[]> {
  const end = c.t + seconds * 1000;
  const checked: number[] = [];
  for (let n = 0; c.t < end; n++) {
    const r = await guess(throttle, user, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
    if (r.checked) checked.push(c.t);
    else c.t += r.retryAfterSec * 1000;
  }
  return checked;
}

/** The most checked guesses within any one hour. */
function busiestHour(times: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= 3600_000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

/** An attacker that guesses again exactly when told it may, for `seconds`. */
async function attack(throttle: SignInThrottle, c: { t: number }, user: string, address: string, seconds: number, watch?: () => void) {
  const end = c.t + seconds * 1000;
  let accepted = 0;
  while (c.t < end) {
    const r = await guess(throttle, user, address);
    watch?.();
    if (r.checked) accepted++;
    else c.t += r.retryAfterSec * 1000;
  }
  return accepted;
}

describe("SignInThrottle", () => {
  it("lets a few failures through, then backs off exponentially", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    for (let i = 0; i < PAIR_POLICY.free; i++) expect((await guess(t, "alice", "10.0.0.1")).checked).toBe(true);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = await guess(t, "alice", "10.0.0.1");
      expect(refused.checked).toBe(false);
      waits.push(refused.retryAfterSec);
      c.t += refused.retryAfterSec * 1000;
      expect((await guess(t, "alice", "10.0.0.1")).checked).toBe(true);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32]);
  });

  it("accepts at most 30 guesses per account in the first hour from one address or many, ~4 an hour after from one, 10 from many", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    const firstHour = await attack(t, c, "alice", "10.0.0.1", 3600);
    expect(firstHour).toBeLessThanOrEqual(30);
    expect(firstHour).toBeGreaterThanOrEqual(10);
    expect(await attack(t, c, "alice", "10.0.0.1", 3600)).toBeLessThanOrEqual(5);

    // A botnet: every guess from a fresh address gets no more than the account's budget.
    const c2 = clock();
    const t2 = new SignInThrottle({ now: c2.now, refusalDelayMs: 0 });
    const botnet = await botnetAttack(t2, c2, "bob", 2 * 3600);
    expect(botnet.filter((at) => at < c2.start + 3600_000).length).toBeLessThanOrEqual(30);
    expect(botnet.filter((at) => at >= c2.start + 3600_000).length).toBeLessThanOrEqual(BUDGET_POLICY.free / 2);
  });

  it("never locks an account for good: once a botnet used up its budget, the right password works after the wait", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    await botnetAttack(t, c, "alice", 7200);
    while ((await guess(t, "alice", `10.9.${c.t % 250}.1`)).checked); // the attackers' latest guess started a block
    const refused = await guess(t, "alice", "10.0.0.2", true);
    expect(refused.checked).toBe(false);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(BUDGET_POLICY.maxMs / 1000);
    c.t += refused.retryAfterSec * 1000;
    expect((await guess(t, "alice", "10.0.0.2", true)).checked).toBe(true);
    // A right password resets this client's count: a typo right after is not punished.
    expect((await guess(t, "alice", "10.0.0.2")).checked).toBe(true);
  });

  it("does not lock other accounts out of an address that attacks one account", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    let addressBlocked = false;
    await attack(t, c, "alice", "10.0.0.1", 3 * 3600, () => {
      addressBlocked ||= t.addresses.waitMs("10.0.0.1") > 0;
    });
    expect(addressBlocked).toBe(false);
    expect((await guess(t, "carol", "10.0.0.1", true)).checked).toBe(true);
  });

  it("stops one address from spraying guesses over many accounts", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    let checked = 0;
    for (let i = 0; i < 100; i++) if ((await guess(t, `user${i}`, "10.0.0.9")).checked) checked++;
    expect(checked).toBe(30);
    // Another address is not affected.
    expect((await guess(t, "user0", "10.0.0.10")).checked).toBe(true);
    // An authenticated ChangePassword (no address) is throttled by its account only.
    expect((await guess(t, "user99", null)).checked).toBe(true);
  });

  it("counts parallel guesses of one account one after the other", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    const slowCheck = async () => {
      const attempt = await t.begin("alice", "10.0.0.1");
      if (!attempt.ok) return false;
      await new Promise((r) => setTimeout(r, 5));
      attempt.settle(false);
      return true;
    };
    const results = await Promise.all(Array.from({ length: 16 }, slowCheck));
    expect(results.filter(Boolean)).toHaveLength(PAIR_POLICY.free);
  });

  it("tells the audit log about failures and blocks", async () => {
    const c = clock();
    const events: ThrottleEvent[] = [];
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0, onEvent: (e) => void events.push(e) });
    for (let i = 0; i < 5; i++) await guess(t, "Alice", "10.0.0.1");
    expect(events.filter((e) => e.kind === "failed")).toHaveLength(5);
    expect(events[0]).toEqual({ kind: "failed", account: "alice", address: "10.0.0.1", via: "", device: false });
    expect(events.at(-1)).toEqual({ kind: "blocked", key: "pair", value: "alice", address: "10.0.0.1", seconds: 1, failures: 5 });
  });

  it("settles an attempt only once its audit entries are written (the answer never precedes them)", async () => {
    const c = clock();
    const written: string[] = [];
    // An audit log as slow as a busy database: each entry lands a few milliseconds later.
    const slowLog = (e: ThrottleEvent) => new Promise<void>((done) => setTimeout(() => (written.push(e.kind), done()), 5));
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0, onEvent: slowLog });
    for (let i = 0; i < 5; i++) {
      const attempt = await t.begin("alice", null, "ChangePassword");
      if (!attempt.ok) throw new Error("refused too early");
      await attempt.settle(false);
      expect(written).toHaveLength(i === 4 ? 6 : i + 1); // the fifth failure also starts a block
    }
    expect(written.at(-1)).toBe("blocked");
  });

  it("answers a refusal only after a pause, so that a flood of guesses waits instead of hammering", async () => {
    const t = new SignInThrottle({ refusalDelayMs: 150 });
    for (let i = 0; i < 5; i++) await guess(t, "alice", "10.0.0.1");
    const started = performance.now();
    expect((await guess(t, "alice", "10.0.0.1")).checked).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});

// Issue 24: one guess from one address each time its block ended kept the owner, signing in from
// another address with the right password, at 429 on 37 of 39 tries over 20 minutes.
describe("no lock-out of the owner", () => {
  /**
   * The attacker at `attackers()`'s addresses guesses the moment it may; the owner tries the right
   * password every `everyMin` minutes (from 10.0.0.2, with `device` when given). Returns the
   * owner's results and the times of the attackers' checked guesses.
   */
  async function underAttack(opts: { hours: number; everyMin: number; attackers: () => string; device?: string }) {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    const end = c.t + opts.hours * 3600_000;
    let attackerAt = c.t;
    let ownerAt = c.t + 60_000;
    const owner: boolean[] = [];
    const guesses: number[] = [];
    while (Math.min(attackerAt, ownerAt) < end) {
      if (attackerAt <= ownerAt) {
        c.t = attackerAt;
        const r = await guess(t, "alice", opts.attackers());
        if (r.checked) guesses.push(c.t);
        else attackerAt = c.t + r.retryAfterSec * 1000;
      } else {
        c.t = ownerAt;
        owner.push((await guess(t, "alice", "10.0.0.2", true, opts.device ?? null)).checked);
        ownerAt = c.t + opts.everyMin * 60_000;
      }
    }
    return { owner, guesses, throttle: t };
  }
  const rate = (xs: boolean[]) => xs.filter(Boolean).length / xs.length;

  it("lets the owner in from another address every time while one address guesses each time its block ends", async () => {
    const { owner, guesses } = await underAttack({ hours: 3, everyMin: 7, attackers: () => "203.0.113.66" });
    expect(owner.length).toBeGreaterThan(20);
    expect(rate(owner)).toBe(1);
    // And the attacker still gets no more than before.
    expect(busiestHour(guesses)).toBeLessThanOrEqual(30);
    expect(guesses.filter((at) => at >= guesses[0]! + 2 * 3600_000).length).toBeLessThanOrEqual(5);
  });

  it("lets the owner's device in every time while a botnet uses up the account's budget; at most 30 guesses in any hour", async () => {
    let n = 0;
    const botnet = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`;
    const withDevice = await underAttack({ hours: 3, everyMin: 5, attackers: botnet, device: "owner-device" });
    expect(rate(withDevice.owner)).toBe(1);
    expect(busiestHour(withDevice.guesses)).toBeLessThanOrEqual(30);
    // Without the device token the owner is one more unknown client: the budget keeps it waiting too.
    const without = await underAttack({ hours: 3, everyMin: 5, attackers: botnet });
    expect(rate(without.owner)).toBeLessThan(0.5);
    expect(busiestHour(without.guesses)).toBeLessThanOrEqual(30);
  });

  it("counts failures with a device token against that token only, and backs it off", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    for (let i = 0; i < PAIR_POLICY.free; i++) expect((await guess(t, "alice", "10.0.0.2", false, "dev-1")).checked).toBe(true);
    const refused = await guess(t, "alice", "10.0.0.2", true, "dev-1");
    expect(refused).toEqual({ checked: false, retryAfterSec: 1 });
    // The account, the address and another device are untouched.
    expect(t.accounts.waitMs("alice")).toBe(0);
    expect(t.addresses.waitMs("10.0.0.2")).toBe(0);
    expect((await guess(t, "alice", "10.0.0.2", true)).checked).toBe(true);
    expect((await guess(t, "alice", "10.0.0.2", true, "dev-2")).checked).toBe(true);
    // The right password with the token, after its wait, clears it.
    c.t += 1000;
    expect((await guess(t, "alice", "10.0.0.2", true, "dev-1")).checked).toBe(true);
    expect((await guess(t, "alice", "10.0.0.2", false, "dev-1")).checked).toBe(true);
  });

  it("keeps a flood of parallel guesses from one address from filling the queue the owner joins", async () => {
    const t = new SignInThrottle({ refusalDelayMs: 0 });
    const slow = async (address: string, device: string | null = null) => {
      const attempt = await t.begin("alice", address, "", device);
      if (!attempt.ok) return false;
      await new Promise((r) => setTimeout(r, 2));
      await attempt.settle(address === "10.0.0.2");
      return true;
    };
    const flood = Array.from({ length: 40 }, () => slow("203.0.113.66"));
    const owner = slow("10.0.0.2");
    expect(await owner).toBe(true);
    expect((await Promise.all(flood)).filter(Boolean).length).toBe(PAIR_POLICY.free);
  });
});

describe("password hashing", () => {
  it("queues at most 64 hashes behind the two that run and refuses the rest as busy (503)", async () => {
    const results = await Promise.allSettled(Array.from({ length: 80 }, () => hashPassword("some-password")));
    const refused = results.filter((r) => r.status === "rejected");
    expect(results.length - refused.length).toBe(2 + 64);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ status: 503, value: -12 });
  });

  it("counts a check that could not be made (busy) neither for nor against anyone", async () => {
    const c = clock();
    const t = new SignInThrottle({ now: c.now, refusalDelayMs: 0 });
    for (let i = 0; i < 40; i++) {
      const attempt = await t.begin("alice", "10.0.0.1");
      expect(attempt.ok).toBe(true);
      if (attempt.ok) attempt.settle(null);
    }
    expect(t.addresses.waitMs("10.0.0.1")).toBe(0);
    expect(t.accounts.waitMs("alice")).toBe(0);
  });
});

describe("BackoffTable memory", () => {
  it("stays bounded and keeps the entries of keys under attack", () => {
    const c = clock();
    const table = new BackoffTable(PAIR_POLICY, c.now, 1000);
    for (let i = 0; i < 20; i++) table.fail("victim");
    for (let i = 0; i < 50_000; i++) table.fail(`made-up-${i}`);
    expect(table.size).toBeLessThanOrEqual(1000);
    expect(table.waitMs("victim")).toBeGreaterThan(0);
  });

  it("forgets counts over time (the cool-down)", () => {
    const c = clock();
    const table = new BackoffTable(PAIR_POLICY, c.now);
    for (let i = 0; i < 6; i++) table.fail("alice");
    c.t += 24 * 3600_000;
    // Drained: the next failure is within the free allowance again.
    expect(table.fail("alice").blockMs).toBe(0);
  });
});

describe("keys", () => {
  it("folds case and Unicode form of account names", () => {
    expect(accountKey(" Émile ")).toBe(accountKey("e\u0301mile"));
  });

  it("normalises addresses: IPv4-mapped, brackets and zones, IPv6 by /64", () => {
    expect(addressKey("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe(addressKey("[2001:db8:1:2::99]"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("not an address")).toBe("unknown");
    expect(addressKey(undefined)).toBe("unknown");
  });
});
