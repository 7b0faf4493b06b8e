import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashCount } from "../../../logger/auth/passwords.ts";
import { ADMIN_PASSWORD, API, CLIENT, addUser, login, rpc, sleep, start, tokenRequest } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

// Every door that checks a password — POST /token, AdminAPI.Login, ChangePassword — shares one
// throttle per account and client address, per account, per device token and per client address
// (logger/auth/throttle.ts), over real HTTP.

const GIBENCH = { id: "gibench", secret: "" };

async function tokenFrom(base: string, form: Record<string, string>, client: { id: string; secret: string }, forwardedFor?: string) {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
  };
  if (forwardedFor) headers["X-Forwarded-For"] = forwardedFor;
  const res = await fetch(`${base}/token`, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const wrong = (username: string) => ({ grant_type: "password", username, password: "not-the-password" });

describe("sign-in throttling at the logger", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    for (const name of ["alice", "bob", "dave", "erin", "frank", "gina"]) await addUser(lg.url, admin, name, "Operator", `${name}-pass-12`);
  });
  afterAll(() => lg.stop());

  /** The five failures an account is allowed; the first block (1 s) starts with the fifth. */
  async function useUpFreeFailures(username: string) {
    for (let i = 0; i < 5; i++) {
      const res = await tokenRequest(lg.url, wrong(username));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    }
  }

  it("answers 429 slow_down with Retry-After once an account had its failures, without hashing", async () => {
    await useUpFreeFailures("alice");
    const hashesBefore = hashCount();
    const started = performance.now();
    // Even the right password is refused while the account waits.
    const refused = await tokenRequest(lg.url, { grant_type: "password", username: "ALICE", password: "alice-pass-12" });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "slow_down", retry_after: 1 });
    expect(refused.body.error_description).toBe("Too many failed sign-ins; try again in 1 s");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(hashCount()).toBe(hashesBefore);
    // The refusal came after the logger's pause (the attacker's client waits, not the CPU).
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("refuses AdminAPI.Login on the same account budget, as a ReturnState with a negative Value", async () => {
    await useUpFreeFailures("frank");
    const res = await rpc(lg.url, "AdminAPI.Login", { ClientID: "gibench", Username: "frank", Password: "frank-pass-12" });
    expect(res.status).toBe(429);
    expect(res.body.ReturnState).toEqual({ Value: -12, Description: "Too many failed sign-ins; try again in 1 s" });
    expect(res.headers.get("retry-after")).toBe("1");
    // And the other way round: Login's failures count for /token.
    await sleep(200);
    for (let i = 0; i < 5; i++) {
      const wrongLogin = await rpc(lg.url, "AdminAPI.Login", { ClientID: "gibench", Username: "dave", Password: "nope-nope" });
      expect(wrongLogin.status).toBe(401);
    }
    expect((await tokenRequest(lg.url, { grant_type: "password", username: "dave", password: "dave-pass-12" })).status).toBe(429);
  });

  it("lets another account of the same address in meanwhile", async () => {
    await useUpFreeFailures("erin");
    const [erin, bob, bobWrong] = await Promise.all([
      tokenRequest(lg.url, wrong("erin")),
      tokenRequest(lg.url, { grant_type: "password", username: "bob", password: "bob-pass-12" }),
      tokenRequest(lg.url, wrong("bob")),
    ]);
    expect(erin.status).toBe(429);
    expect(bob.status).toBe(200);
    expect(bobWrong.status).toBe(400);
  });

  it("lets the right password in again after the wait, and that resets the account", async () => {
    await useUpFreeFailures("gina");
    const refused = await tokenRequest(lg.url, { grant_type: "password", username: "gina", password: "gina-pass-12" });
    expect(refused.status).toBe(429);
    await sleep(Number(refused.headers.get("retry-after")) * 1000 + 100);
    expect((await tokenRequest(lg.url, { grant_type: "password", username: "gina", password: "gina-pass-12" })).status).toBe(200);
    // Reset: the next typo is a plain wrong password, not a wait.
    expect((await tokenRequest(lg.url, wrong("gina"))).status).toBe(400);
  });

  it("audits failed sign-ins and blocks (Topic Audit)", async () => {
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "Logger" }, Limit: 200 }, admin)).body;
    const texts = Messages.map((m: { Text: string }) => m.Text);
    expect(texts).toContain("Failed sign-in as alice from 127.0.0.1 (POST /token)");
    expect(texts).toContain("Failed sign-in as dave from 127.0.0.1 (AdminAPI.Login)");
    expect(texts).toContain("Sign-ins for account alice from 127.0.0.1 paused for 1 s after 5 failed attempts");
    expect(Messages[0]).toMatchObject({ Topic: "Audit", Type: "Warning", Sender: "Logger" });
    expect(JSON.stringify(Messages)).not.toMatch(/not-the-password|alice-pass-12/);
  });

  it("throttles ChangePassword's current-password check on the same account budget", async () => {
    const bob = (await login(lg.url, "bob", "bob-pass-12")).access; // a right password: bob starts from zero
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await rpc(lg.url, `${API}.ChangePassword`, { OldPassword: `guess-${i}`, NewPassword: "bob-new-pass-1" }, bob);
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.ReturnState).toMatchObject({ Value: -12 });
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit" }, Limit: 1 }, admin)).body;
    expect(Messages[0].Text).toBe("Sign-ins for account bob paused for 1 s after 5 failed attempts");
  });

  it("counts an over-long password as a failure without hashing it", async () => {
    await addUser(lg.url, admin, "carol", "Operator", "carol-pass-1");
    const before = hashCount();
    const res = await tokenRequest(lg.url, { grant_type: "password", username: "carol", password: "x".repeat(1025) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_grant");
    expect(hashCount()).toBe(before);
  });
});

describe("throttling by client address", () => {
  let lg: TestLogger;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
  });
  afterAll(() => lg.stop());

  it("stops one address spraying many accounts; X-Forwarded-For counts only from the console's client", { timeout: 40_000 }, async () => {
    // 30 guesses over 30 accounts from this address (127.0.0.1) are checked, then it must wait.
    const spray = await Promise.all(Array.from({ length: 30 }, (_, i) => tokenFrom(lg.url, wrong(`nobody${i}`), GIBENCH)));
    expect(spray.map((r) => r.status)).toEqual(Array(30).fill(400));
    // Keep guessing whenever allowed until the wait is long enough to look around in.
    let wait = 0;
    for (let i = 30; wait < 4; i++) {
      const r = await tokenFrom(lg.url, wrong(`nobody${i}`), GIBENCH);
      if (r.status === 429) wait = Number(r.headers.get("retry-after"));
    }
    const [liar, malformed, forwarded] = await Promise.all([
      tokenFrom(lg.url, wrong("someone"), GIBENCH, "198.51.100.7"), // a public client cannot name another address
      tokenFrom(lg.url, wrong("someone-else"), CLIENT, "not-an-ip"), // nor is a malformed header believed
      tokenFrom(lg.url, wrong("third"), CLIENT, "10.9.8.7, 198.51.100.7"), // the console says whose browser it signs in for (last entry)
    ]);
    expect(liar.status).toBe(429);
    expect(malformed.status).toBe(429);
    expect(forwarded.status).toBe(400);
    const rightAdmin = await tokenFrom(lg.url, { grant_type: "password", username: "admin", password: ADMIN_PASSWORD }, CLIENT, "198.51.100.8");
    expect(rightAdmin.status).toBe(200);
  });
});

// Issue 24: an attacker's address must not keep the account's owner out, and the owner's device
// (a device token from an earlier sign-in) must get in even while a botnet used up the account.
describe("no lock-out of the owner", () => {
  let lg: TestLogger;
  let admin: string;
  beforeAll(async () => {
    lg = await start({ adminPassword: ADMIN_PASSWORD });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    for (const name of ["hana", "ivan", "jill"]) await addUser(lg.url, admin, name, "Operator", `${name}-pass-12`);
  });
  afterAll(() => lg.stop());

  const right = (username: string) => ({ grant_type: "password", username, password: `${username}-pass-12` });

  /** Wrong guesses from made-up addresses, five each, until a fresh address is refused too: the account's budget is used up. */
  async function exhaustBudget(username: string): Promise<number> {
    for (let n = 1; ; n++) {
      const address = `203.0.113.${n}`;
      for (let i = 0; i < 5; i++) {
        const r = await tokenFrom(lg.url, wrong(username), CLIENT, address);
        if (r.status === 429) return Number(r.headers.get("retry-after"));
        expect(r.status).toBe(400);
      }
    }
  }

  it("lets the owner in from another address while an attacker's address is blocked on the account", { timeout: 40_000 }, async () => {
    // The attacker guesses whenever it may, until its next guess must wait a while.
    let wait = 0;
    while (wait < 4) {
      const r = await tokenFrom(lg.url, wrong("hana"), CLIENT, "203.0.113.66");
      if (r.status === 429) {
        wait = Number(r.headers.get("retry-after"));
        if (wait < 4) await sleep(wait * 1000);
      } else expect(r.status).toBe(400);
    }
    // Meanwhile the owner, elsewhere, gets in at once.
    expect((await tokenFrom(lg.url, right("hana"), CLIENT, "198.51.100.20")).status).toBe(200);
    expect((await tokenFrom(lg.url, wrong("hana"), CLIENT, "203.0.113.66")).status).toBe(429);
  });

  it("lets the owner's device in while attackers from many addresses used up the account's budget", { timeout: 60_000 }, async () => {
    const first = await tokenFrom(lg.url, right("ivan"), CLIENT, "198.51.100.21");
    expect(first.status).toBe(200);
    const device = first.body.device_token as string;
    expect(device).toMatch(/^d1\.\d+\.\d+\./);
    const other = (await tokenFrom(lg.url, right("jill"), CLIENT, "198.51.100.22")).body.device_token as string;

    const wait = await exhaustBudget("ivan");
    expect(wait).toBeGreaterThan(60);
    // A device that never signed in as ivan waits, whatever it sends as a token.
    const tampered = `${device.slice(0, -2)}${device.endsWith("A") ? "BB" : "AA"}`;
    for (const token of [undefined, other, tampered, "d1.1.9999999999.x.y"]) {
      const res = await tokenFrom(lg.url, { ...right("ivan"), ...(token ? { device_token: token } : {}) }, CLIENT, "198.51.100.21");
      expect(res.status, `device_token ${token}`).toBe(429);
    }
    // The owner's device gets in, and is handed a new token.
    const owner = await tokenFrom(lg.url, { ...right("ivan"), device_token: device }, CLIENT, "198.51.100.21");
    expect(owner.status).toBe(200);
    expect(owner.body.device_token).toMatch(/^d1\./);
    expect(owner.body.device_token).not.toBe(device);
    // AdminAPI.Login takes it too (scripts), from any address.
    const script = await rpc(lg.url, "AdminAPI.Login", { ClientID: "gibench", Username: "ivan", Password: "ivan-pass-12", DeviceToken: owner.body.device_token });
    expect(script.status).toBe(200);
    expect(script.body.DeviceToken).toMatch(/^d1\./);
    expect((await rpc(lg.url, "AdminAPI.Login", { ClientID: "gibench", Username: "ivan", Password: "ivan-pass-12" })).status).toBe(429);

    // Wrong passwords with the token count against it alone: five, then it waits; the budget is not charged.
    for (let i = 0; i < 5; i++) expect((await tokenFrom(lg.url, { ...wrong("ivan"), device_token: device }, CLIENT, "198.51.100.21")).status).toBe(400);
    const blocked = await tokenFrom(lg.url, { ...right("ivan"), device_token: device }, CLIENT, "198.51.100.21");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBe("1");
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "Logger" }, Limit: 20 }, admin)).body;
    const texts = Messages.map((m: { Text: string }) => m.Text);
    expect(texts).toContain("Sign-ins for account ivan on one device it signed in from before paused for 1 s after 5 failed attempts");
    expect(texts).toContain("Failed sign-in as ivan from 198.51.100.21 on a device it signed in from before (POST /token)");
    expect(JSON.stringify(Messages)).not.toContain(device);
  });

  it("tells the audit log when the account's budget is used up", async () => {
    const { Messages } = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Topic: "Audit", Sender: "Logger" }, Limit: 500 }, admin)).body;
    expect(Messages.map((m: { Text: string }) => m.Text)).toContain("Sign-ins for account ivan from devices it has not signed in from paused for 360 s after 20 failed attempts");
  });
});
