import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressRefused, embeddedIPv4, hostAllowListed, isSpecialAddress, parseAllowList, resolveAllowed } from "../../../logger/alarms/egress.ts";
import { ADMIN_PASSWORD, addUser, login, rpc, start, type TestLogger } from "./helpers.ts";

// No SSRF through notification targets: private, loopback and link-local destinations only
// when NOTIFY_ALLOW lists them, judged on the resolved address; targets chosen by
// administrators (or on the allow-list); Test answers that do not tell how a delivery failed.

describe("special addresses", () => {
  it.each([
    ["127.0.0.1", true], ["127.255.0.9", true], ["10.1.2.3", true], ["172.16.0.1", true], ["172.31.255.255", true], ["192.168.1.1", true],
    ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true], ["224.0.0.1", true], ["255.255.255.255", true],
    ["::1", true], ["::", true], ["fe80::1", true], ["fe80::1%eth0", true], ["fd12:3456::1", true], ["fc00::1", true], ["ff02::1", true],
    ["::ffff:127.0.0.1", true], ["::ffff:7f00:1", true], ["::ffff:10.0.0.1", true], ["::ffff:a9fe:a9fe", true], ["64:ff9b::a00:1", true], ["::127.0.0.1", true],
    ["not-an-address", true],
    // Not globally reachable either (IANA): documentation ranges, 6to4/Teredo/local NAT64 carrying IPv4.
    ["192.0.2.2", true], ["198.51.100.7", true], ["203.0.113.9", true], ["192.88.99.1", true],
    ["2001:db8::1", true], ["3fff::1", true], ["2002:7f00:1::", true], ["2001:0:4136:e378::1", true], ["64:ff9b:1::a00:1", true],
    ["8.8.8.8", false], ["172.32.0.1", false], ["93.184.216.34", false], ["2001:4860:4860::8888", false], ["::ffff:8.8.8.8", false], ["64:ff9b::808:808", false],
  ])("%s → %s", (address, special) => {
    expect(isSpecialAddress(address as string)).toBe(special);
  });
  it("finds IPv4 inside IPv6", () => {
    expect(embeddedIPv4("::ffff:192.168.0.1")).toBe("192.168.0.1");
    expect(embeddedIPv4("::ffff:c0a8:1")).toBe("192.168.0.1");
    expect(embeddedIPv4("2001:db8::1")).toBeNull();
    expect(embeddedIPv4("::1")).toBeNull();
  });
});

describe("the allow-list", () => {
  const list = parseAllowList("127.0.0.1, mail.plant.local 10.20.0.0/16 fd00::/8");
  it("names hosts, addresses and ranges", () => {
    expect(hostAllowListed(list, "127.0.0.1")).toBe(true);
    expect(hostAllowListed(list, "::ffff:127.0.0.1")).toBe(true);
    expect(hostAllowListed(list, "Mail.Plant.Local")).toBe(true);
    expect(hostAllowListed(list, "10.20.3.4")).toBe(true);
    expect(hostAllowListed(list, "[fd00::5]")).toBe(true);
    expect(hostAllowListed(list, "10.21.0.1")).toBe(false);
    expect(hostAllowListed(list, "localhost")).toBe(false);
    expect(() => parseAllowList("10.0.0.0/33")).toThrow(/NOTIFY_ALLOW/);
    expect(() => parseAllowList("http://x")).toThrow(/NOTIFY_ALLOW/);
  });
  it("is applied to the resolved address", async () => {
    await expect(resolveAllowed(parseAllowList(""), "localhost")).rejects.toBeInstanceOf(EgressRefused);
    await expect(resolveAllowed(parseAllowList(""), "0x7f000001")).rejects.toBeInstanceOf(EgressRefused);
    await expect(resolveAllowed(parseAllowList("localhost"), "localhost")).resolves.not.toHaveLength(0);
    await expect(resolveAllowed(parseAllowList("127.0.0.0/8 ::1"), "localhost")).resolves.not.toHaveLength(0);
    await expect(resolveAllowed(parseAllowList(""), "8.8.8.8")).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
  });
});

describe("NotificationAPI targets and deliveries", () => {
  let open: TestLogger;
  let guarded: TestLogger;
  let hookServer: Server;
  let hookPort: number;
  let hits = 0;
  let smtp: SMTPServer;
  let smtpPort: number;
  let mails = 0;

  beforeAll(async () => {
    hookServer = createServer((req, res) => {
      hits++;
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => hookServer.listen(0, "127.0.0.1", r));
    hookPort = (hookServer.address() as AddressInfo).port;
    smtp = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], onData: (s, _x, done) => (s.resume(), s.on("end", () => (mails++, done()))) });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    smtpPort = ((smtp as unknown as { server: Server }).server.address() as AddressInfo).port;
    // One logger with the allow-list tests are given, one without.
    open = await start({ adminPassword: ADMIN_PASSWORD, alarms: { allow: "127.0.0.1", retryBaseMs: 60_000 } });
    guarded = await start({ adminPassword: ADMIN_PASSWORD, alarms: { retryBaseMs: 60_000, timeoutMs: 2000 } });
  });
  afterAll(async () => {
    await open.stop();
    await guarded.stop();
    await new Promise((r) => hookServer.close(r));
    await new Promise((r) => smtp.close(() => r(undefined)));
  });

  const hook = (host: string) => ({ Name: `hook ${host} ${Math.random()}`, Type: "webhook", URL: `http://${host}:${hookPort}/hook` });

  it("refuses loopback, private and link-local literals unless allow-listed", async () => {
    const admin = (await login(guarded.url, "admin", ADMIN_PASSWORD)).access;
    for (const host of ["127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]", "169.254.169.254", "10.0.0.5", "0x7f000001"]) {
      const res = await rpc(guarded.url, "NotificationAPI.AddTarget", { Target: hook(host) }, admin);
      expect(res.status, host).toBe(400);
      expect(res.body.ReturnState.Description, host).toMatch(/NOTIFY_ALLOW/);
    }
    const mail = await rpc(guarded.url, "NotificationAPI.AddTarget", { Target: { Name: "m", Type: "email", SmtpHost: "192.168.1.10", From: "a@b.example", To: ["c@d.example"] } }, admin);
    expect(mail.status).toBe(400);
    const allowed = await rpc(open.url, "NotificationAPI.AddTarget", { Target: hook("127.0.0.1") }, (await login(open.url, "admin", ADMIN_PASSWORD)).access);
    expect(allowed.status).toBe(200);
  });

  it("checks the resolved address when sending, and the Test answer is generic", async () => {
    const admin = (await login(guarded.url, "admin", ADMIN_PASSWORD)).access;
    // A name (not a literal) that resolves to 127.0.0.1 passes the form check, not the send.
    const target = await rpc(guarded.url, "NotificationAPI.AddTarget", { Target: { Name: "sneaky", Type: "email", SmtpHost: "0x7f000001", SmtpPort: smtpPort, From: "a@b.example", To: ["c@d.example"] } }, admin);
    expect(target.status).toBe(200);
    const before = mails;
    const test = await rpc(guarded.url, "NotificationAPI.Test", { ID: target.body.ID }, admin);
    expect(test.body).toMatchObject({ Delivered: false, Error: "Delivery failed" });
    expect(mails).toBe(before);
    const trace = (await rpc(guarded.url, "TraceAPI.GetEntries", { Level: "warn" }, admin)).body.Entries.map((e: { Message: string }) => e.Message).join("\n");
    expect(trace).toMatch(/0x7f000001 is 127\.0\.0\.1, a loopback, link-local or private address/);
  });

  it("says the same for a closed port and a host that does not answer", async () => {
    const admin = (await login(open.url, "admin", ADMIN_PASSWORD)).access;
    const closed = await rpc(open.url, "NotificationAPI.AddTarget", { Target: { Name: "closed", Type: "webhook", URL: "http://127.0.0.1:1/x" } }, admin);
    const silent = await rpc(open.url, "NotificationAPI.AddTarget", { Target: { Name: "no such host", Type: "webhook", URL: "http://no-such-host.invalid/x" } }, admin);
    const a = await rpc(open.url, "NotificationAPI.Test", { ID: closed.body.ID }, admin);
    const b = await rpc(open.url, "NotificationAPI.Test", { ID: silent.body.ID }, admin);
    expect(a.body).toMatchObject({ Delivered: false, Error: "Delivery failed" });
    expect(b.body).toMatchObject({ Delivered: false, Error: "Delivery failed" });
    const deliveries = (await rpc(open.url, "NotificationAPI.GetDeliveries", {}, admin)).body.Deliveries as { TargetName: string; LastError: string }[];
    expect(deliveries.filter((d) => d.TargetName === "closed" || d.TargetName === "no such host").map((d) => d.LastError)).toEqual(["Delivery failed", "Delivery failed"]);
  });

  it("delivers to an allow-listed receiver", async () => {
    const admin = (await login(open.url, "admin", ADMIN_PASSWORD)).access;
    const t = await rpc(open.url, "NotificationAPI.AddTarget", { Target: hook("127.0.0.1") }, admin);
    const before = hits;
    const test = await rpc(open.url, "NotificationAPI.Test", { ID: t.body.ID }, admin);
    expect(test.body).toMatchObject({ Delivered: true, Error: "" });
    expect(hits).toBe(before + 1);
  });

  it("lets only administrators choose targets outside the allow-list", async () => {
    const admin = (await login(open.url, "admin", ADMIN_PASSWORD)).access;
    const operator = await addUser(open.url, admin, `op${Date.now()}`, "Operator");
    const outside = await rpc(open.url, "NotificationAPI.AddTarget", { Target: { Name: "public", Type: "webhook", URL: "https://hooks.example.com/x" } }, operator.token);
    expect(outside.status).toBe(403);
    expect(outside.body.ReturnState.Description).toMatch(/ManageGlobalSettings/);
    const inside = await rpc(open.url, "NotificationAPI.AddTarget", { Target: hook("127.0.0.1") }, operator.token);
    expect(inside.status).toBe(200);
    // An administrator's target elsewhere can be tested but not changed or removed by the operator.
    const adminTarget = await rpc(open.url, "NotificationAPI.AddTarget", { Target: { Name: "admin's", Type: "webhook", URL: "https://hooks.example.com/y" } }, admin);
    expect(adminTarget.status).toBe(200);
    expect((await rpc(open.url, "NotificationAPI.SetTarget", { Target: { ID: adminTarget.body.ID, URL: `http://127.0.0.1:${hookPort}/z` } }, operator.token)).status).toBe(403);
    expect((await rpc(open.url, "NotificationAPI.RemoveTarget", { ID: adminTarget.body.ID }, operator.token)).status).toBe(403);
    expect((await rpc(open.url, "NotificationAPI.SetTarget", { Target: { ID: inside.body.ID, URL: "https://hooks.example.com/z" } }, operator.token)).status).toBe(403);
    expect((await rpc(open.url, "NotificationAPI.RemoveTarget", { ID: inside.body.ID }, operator.token)).status).toBe(200);
  });
});
