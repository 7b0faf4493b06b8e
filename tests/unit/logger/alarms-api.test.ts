import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../../logger/alarms/notifier.ts";
import { ADMIN_PASSWORD, addUser, login, rpc, sleep, start } from "./helpers.ts";
import type { TestLogger } from "./helpers.ts";

const ALARM = "AlarmAPI";
const NOTIFY = "NotificationAPI";

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

type Hook = { headers: Record<string, string | string[] | undefined>; body: string };

describe("AlarmAPI, NotificationAPI and TraceAPI on simulated data", () => {
  let lg: TestLogger;
  let admin: string;
  let oilId: string;
  let pumpId: string;
  const mails: string[] = [];
  let smtp: SMTPServer;
  let smtpPort: number;
  const hooks: Hook[] = [];
  let failHooks = 0;
  let hookServer: Server;
  let hookUrl: string;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, done) {
        let text = "";
        stream.on("data", (c: Buffer) => (text += c.toString()));
        stream.on("end", () => {
          mails.push(text);
          done();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    smtpPort = ((smtp as unknown as { server: Server }).server.address() as AddressInfo).port;
    hookServer = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        hooks.push({ headers: req.headers, body });
        res.statusCode = failHooks-- > 0 ? 500 : 204;
        res.end();
      });
    });
    await new Promise<void>((r) => hookServer.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;

    // The receivers run on 127.0.0.1: allow-listed, as NOTIFY_ALLOW=127.0.0.1 would.
    lg = await start({ adminPassword: ADMIN_PASSWORD, simulator: { benchRateHz: 100 }, alarms: { retryBaseMs: 50, tickMs: 100, allow: "127.0.0.1" } });
    admin = (await login(lg.url, "admin", ADMIN_PASSWORD)).access;
    const vars = await fetch(`${lg.url}/online/structure/variables`, { headers: { Authorization: `Bearer ${admin}` } }).then((r) => r.json());
    oilId = vars.Data.find((v: { Name: string }) => v.Name === "Oil temperature").Id;
    pumpId = vars.Data.find((v: { Name: string }) => v.Name === "Pump enable").Id;
  });
  afterAll(async () => {
    await lg.stop();
    await new Promise((r) => smtp.close(() => r(undefined)));
    await new Promise((r) => hookServer.close(r));
  });

  const alarmOf = async (id: number) => (await rpc(lg.url, `${ALARM}.GetAlarms`, {}, admin)).body.Alarms.find((a: { ID: number }) => a.ID === id);

  it("validates rules: type needs, unknown variable, duplicate names", async () => {
    const noHigh = await rpc(lg.url, `${ALARM}.AddRule`, { Rule: { Name: "x", VariableId: oilId, Type: "high" } }, admin);
    expect(noHigh.status).toBe(400);
    expect(noHigh.body.ReturnState.Description).toBe("Invalid parameter Rule.High: Required for a high rule");
    const range = await rpc(lg.url, `${ALARM}.AddRule`, { Rule: { Name: "x", VariableId: oilId, Type: "range", Low: 5, High: 1 } }, admin);
    expect(range.body.ReturnState.Description).toContain("Rule.High: Must be above Low");
    const unknown = await rpc(lg.url, `${ALARM}.AddRule`, { Rule: { Name: "x", VariableId: "nope", Type: "high", High: 1 } }, admin);
    expect(unknown.body.ReturnState.Description).toBe("Invalid parameter Rule.VariableId: Unknown variable nope");
    const ok = await rpc(lg.url, `${ALARM}.AddRule`, { Rule: { Name: "Dup", VariableId: oilId, Type: "high", High: 1e6 } }, admin);
    expect(ok.status).toBe(200);
    const dup = await rpc(lg.url, `${ALARM}.AddRule`, { Rule: { Name: "dup", VariableId: oilId, Type: "high", High: 1e6 } }, admin);
    expect(dup.status).toBe(400);
    expect(dup.body.ReturnState).toEqual({ Value: -3, Description: "A rule named dup already exists", Code: "ruleNameTaken", Args: { name: "dup" } });
    const stale = await rpc(lg.url, `${ALARM}.SetRule`, { Rule: { ID: ok.body.ID, Version: 7, High: 5 } }, admin);
    expect(stale.status).toBe(409);
    expect((await rpc(lg.url, `${ALARM}.RemoveRule`, { ID: ok.body.ID }, admin)).status).toBe(200);
    expect((await rpc(lg.url, `${ALARM}.RemoveRule`, { ID: ok.body.ID }, admin)).status).toBe(404);
  });

  it("needs UseRulesNotifications", async () => {
    const viewer = await addUser(lg.url, admin, "viewer1", "Viewer");
    const res = await rpc(lg.url, `${ALARM}.GetSummary`, {}, viewer.token);
    expect(res.status).toBe(403);
    expect(res.body.ReturnState.Description).toBe("Permission denied: UseRulesNotifications required");
    const operator = await addUser(lg.url, admin, "operator1", "Operator");
    expect((await rpc(lg.url, `${ALARM}.GetSummary`, {}, operator.token)).status).toBe(200);
  });

  it("fires on simulated data, e-mails and posts a signed webhook, is acknowledged, shelved and unshelved", async () => {
    const mail = await rpc(lg.url, `${NOTIFY}.AddTarget`, { Target: { Name: "Shift mail", Type: "email", SmtpHost: "127.0.0.1", SmtpPort: smtpPort, From: "logger@plant.example", To: ["shift@plant.example"] } }, admin);
    const hook = await rpc(lg.url, `${NOTIFY}.AddTarget`, { Target: { Name: "Ops hook", Type: "webhook", URL: hookUrl, Secret: "s3cret" } }, admin);
    expect(mail.status).toBe(200);
    expect(hook.status).toBe(200);
    const targets = (await rpc(lg.url, `${NOTIFY}.GetTargets`, {}, admin)).body.Targets;
    expect(targets.find((t: { Name: string }) => t.Name === "Ops hook")).toEqual({ ID: hook.body.ID, Name: "Ops hook", Type: "webhook", Enabled: true, Version: 1, URL: hookUrl, HasSecret: true });

    // The oil is always far above -1000 °C: the rule fires on the first samples.
    const added = await rpc(
      lg.url,
      `${ALARM}.AddRule`,
      { Rule: { Name: "Oil impossible", VariableId: oilId, Type: "high", High: -1000, Severity: "high", NotifyTargets: [mail.body.ID, hook.body.ID], NotifyOn: ["activate", "acknowledge"] } },
      admin,
    );
    const id = added.body.ID;
    const alarm = await until("the alarm", async () => {
      const a = await alarmOf(id);
      return a?.State === "ActiveUnacknowledged" && a;
    });
    expect(alarm).toMatchObject({ Name: "Oil impossible", Severity: "high", Active: true, Unit: "°C", VariableName: "Oil temperature" });
    // What the English Text is made of, for a console that shows it in its reader's language (issue 28).
    expect(alarm.Fields).toEqual({ Template: "", Rule: "Oil impossible", Variable: "Oil temperature", Value: alarm.Value, Unit: "°C", Precision: expect.any(Number), Type: "high", High: -1000, Low: null, RatePerSec: null, StaleSec: null, State: null });
    expect(alarm.Text).toBe(`Oil impossible: Oil temperature = ${alarm.Value.toFixed(alarm.Fields.Precision)} °C (limit -1000)`);
    const raised = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Sender: "Alarming", Topic: "Oil impossible" }, Limit: 5 }, admin)).body.Messages.at(-1);
    expect(raised.Fields).toMatchObject({ Event: "Activated", Rule: "Oil impossible", Variable: "Oil temperature", Type: "high", High: -1000, User: "", Comment: "" });
    expect(typeof raised.Fields.Value).toBe("number");
    expect((await rpc(lg.url, `${ALARM}.GetSummary`, {}, admin)).body).toMatchObject({ Unacknowledged: 1, Active: 1 });

    const delivered = await until("the e-mail", async () => mails.find((m) => m.includes("Oil impossible")));
    expect(delivered).toContain("To: shift@plant.example");
    expect(delivered).toMatch(/Subject: \[Loggia\] Alarm: Oil impossible \(high\)/);
    const posted = await until("the webhook", async () => hooks.find((h) => h.body.includes("Oil impossible")));
    const signature = `sha256=${signWebhook("s3cret", String(posted.headers["x-loggia-timestamp"]), posted.body)}`;
    expect(posted.headers["x-loggia-signature"]).toBe(signature);
    expect(JSON.parse(posted.body)).toMatchObject({ Event: "activate", Rule: "Oil impossible", Severity: "high", State: "ActiveUnacknowledged" });

    const ack = await rpc(lg.url, `${ALARM}.Acknowledge`, { IDs: [id], Comment: "Known test rule" }, admin);
    expect(ack.body.Acknowledged).toEqual([id]);
    expect(await alarmOf(id)).toMatchObject({ State: "ActiveAcknowledged", AckedBy: "admin", AckComment: "Known test rule" });
    const again = await rpc(lg.url, `${ALARM}.Acknowledge`, { IDs: [id] }, admin);
    expect(again.body.ReturnState).toEqual({ Value: -3, Description: "This alarm does not await acknowledgement", Code: "notAwaitingAck", Args: {} });

    expect((await rpc(lg.url, `${ALARM}.Shelve`, { ID: id, DurationSec: 600, Reason: "" }, admin)).status).toBe(400);
    const shelved = await rpc(lg.url, `${ALARM}.Shelve`, { ID: id, DurationSec: 600, Reason: "Commissioning" }, admin);
    expect(shelved.body.State).toBe("Shelved");
    expect((await rpc(lg.url, `${ALARM}.GetSummary`, {}, admin)).body).toMatchObject({ Unacknowledged: 0, Active: 0, Shelved: 1 });
    expect((await rpc(lg.url, `${ALARM}.Unshelve`, { ID: id }, admin)).body.State).toBe("ActiveUnacknowledged");
    expect((await rpc(lg.url, `${ALARM}.Unshelve`, { ID: id }, admin)).status).toBe(400);

    const history = (await rpc(lg.url, `${ALARM}.GetHistory`, { Filter: { RuleID: id } }, admin)).body;
    expect(history.History.map((h: { Event: string }) => h.Event)).toEqual(["Unshelved", "Shelved", "Acknowledged", "Activated"]);
    expect(history.History[2]).toMatchObject({ User: "admin", Comment: "Known test rule", FromState: "ActiveUnacknowledged", ToState: "ActiveAcknowledged" });
    const messages = (await rpc(lg.url, "GI.system/MessagingAPI.GetMessages", { Filter: { Sender: "Alarming", Topic: "Oil impossible" } }, admin)).body;
    expect(messages.Total).toBe(4);
    expect(messages.Messages.at(-1)).toMatchObject({ Type: "Error", Args: ["Activated", "ActiveUnacknowledged"] });

    // Out of service: removed from annunciation, back in service it alarms again.
    await rpc(lg.url, `${ALARM}.SetRule`, { Rule: { ID: id, InService: false } }, admin);
    expect((await alarmOf(id)).State).toBe("OutOfService");
    await rpc(lg.url, `${ALARM}.RemoveRule`, { ID: id }, admin);
    const deliveries = (await rpc(lg.url, `${NOTIFY}.GetDeliveries`, {}, admin)).body.Deliveries;
    expect(deliveries.filter((d: { Status: string }) => d.Status === "delivered").length).toBeGreaterThanOrEqual(2);
  });

  it("retries a failing webhook with backoff and logs each delivery; targets in use cannot be removed", async () => {
    const hook = await rpc(lg.url, `${NOTIFY}.AddTarget`, { Target: { Name: "Flaky hook", Type: "webhook", URL: hookUrl, Secret: "k" } }, admin);
    failHooks = 2;
    const before = hooks.length;
    const test = await rpc(lg.url, `${NOTIFY}.Test`, { ID: hook.body.ID }, admin);
    expect(test.body).toMatchObject({ Delivered: false, Error: "Delivery failed" });
    const done = await until("the third attempt", async () => {
      const d = (await rpc(lg.url, `${NOTIFY}.GetDeliveries`, { TargetID: hook.body.ID }, admin)).body.Deliveries[0];
      return d.Status === "delivered" && d;
    });
    expect(done).toMatchObject({ Attempts: 3, Event: "test", TargetName: "Flaky hook", LastError: "" });
    expect(hooks.length - before).toBe(3);

    const rule = await rpc(lg.url, `${ALARM}.AddRule`, { Rule: { Name: "Pump", VariableId: pumpId, Type: "digital", State: 1, NotifyTargets: [hook.body.ID] } }, admin);
    const busy = await rpc(lg.url, `${NOTIFY}.RemoveTarget`, { ID: hook.body.ID }, admin);
    expect(busy.body.ReturnState.Description).toBe("Target Flaky hook is still used by: Pump");
    await rpc(lg.url, `${ALARM}.RemoveRule`, { ID: rule.body.ID }, admin);
    expect((await rpc(lg.url, `${NOTIFY}.RemoveTarget`, { ID: hook.body.ID }, admin)).status).toBe(200);

    const bad = await rpc(lg.url, `${NOTIFY}.AddTarget`, { Target: { Name: "x", Type: "webhook", URL: "ftp://example.com" } }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.ReturnState.Description).toMatch(/^Invalid parameter Target.URL/);
  });

  it("keeps a trace of requests, the simulator and alarms", async () => {
    const all = (await rpc(lg.url, "TraceAPI.GetEntries", {}, admin)).body;
    expect(all.Entries.some((e: { Component: string; Message: string }) => e.Component === "http" && e.Message.startsWith("POST /rpc/AlarmAPI.AddRule 200"))).toBe(true);
    expect(all.Entries.some((e: { Component: string }) => e.Component === "alarms")).toBe(true);
    expect(all.Entries.some((e: { Component: string }) => e.Component === "simulator")).toBe(true);
    const warn = (await rpc(lg.url, "TraceAPI.GetEntries", { Level: "warn" }, admin)).body.Entries;
    expect(warn.every((e: { Level: string }) => e.Level === "warn" || e.Level === "error")).toBe(true);
    const since = (await rpc(lg.url, "TraceAPI.GetEntries", { Since: all.Last, Limit: 5 }, admin)).body.Entries;
    expect(since.every((e: { Seq: number }) => e.Seq > all.Last)).toBe(true);
    expect((await rpc(lg.url, "TraceAPI.GetEntries", {})).status).toBe(401);
  });
});
