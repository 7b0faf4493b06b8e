import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import nodemailer from "nodemailer";
import { parseAllowList, resolveAllowed, type AllowList } from "./egress.ts";
import type { Db } from "../store/db.ts";
import { addDelivery, getTarget, updateDelivery } from "../store/notifications.ts";
import type { EmailConfig, Target, WebhookConfig } from "../store/notifications.ts";
import type { TraceLog } from "../trace.ts";

export type NotificationPayload = {
  Event: "activate" | "clear" | "acknowledge" | "test";
  RuleID: number | null;
  Rule: string;
  Severity: string;
  State: string;
  Value: number | null;
  Unit: string;
  Text: string;
  User: string;
  Comment: string;
  Timestamp: string;
};

export type NotifierOptions = {
  retryBaseMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  /** NOTIFY_ALLOW: hosts, addresses and ranges notifications may reach although private (egress.ts). */
  allow?: string | string[];
};

/** What a test delivery says about a failure: nothing that tells a closed port from a slow one. */
export const GENERIC_FAILURE = "Delivery failed";

/** HMAC-SHA256 over `<timestamp>.<body>`, hex: what a receiver recomputes with the shared secret. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/**
 * Sends alarm notifications to configured targets only, each delivery logged; a failed
 * attempt is retried with exponential backoff (base, 2×, 4×, …) up to maxAttempts.
 */
export class Notifier {
  private readonly db: Db;
  private readonly trace: TraceLog;
  private readonly retryBaseMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Where notifications may go although private (NOTIFY_ALLOW). */
  readonly allow: AllowList;

  constructor(db: Db, trace: TraceLog, o: NotifierOptions = {}) {
    this.db = db;
    this.trace = trace;
    this.retryBaseMs = o.retryBaseMs ?? 2000;
    this.maxAttempts = o.maxAttempts ?? 5;
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.allow = parseAllowList(o.allow);
  }

  /** Queues one delivery per enabled target; resolves once they are logged, before any is sent. */
  async notify(targetIds: readonly number[], payload: NotificationPayload): Promise<void> {
    for (const id of targetIds) {
      const target = await getTarget(this.db, id);
      if (!target?.Enabled) continue;
      const deliveryId = await addDelivery(this.db, { TargetID: target.ID, TargetName: target.Name, RuleID: payload.RuleID, Event: payload.Event }, new Date().toISOString());
      void this.attempt(deliveryId, target.ID, payload, 1);
    }
  }

  /**
   * A test notification: one delivery, first attempt awaited (retries continue in the
   * background). Its answer is delivered or not, with a generic reason: how it failed
   * (refused, timed out, no such host) would tell the tester what listens where.
   */
  async test(target: Target, payload: NotificationPayload): Promise<{ DeliveryID: number; Delivered: boolean; Error: string }> {
    const deliveryId = await addDelivery(this.db, { TargetID: target.ID, TargetName: target.Name, RuleID: null, Event: "test" }, new Date().toISOString());
    const error = await this.attempt(deliveryId, target.ID, payload, 1);
    return { DeliveryID: deliveryId, Delivered: error === "", Error: error ? GENERIC_FAILURE : "" };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** One attempt; "" on success, else the error (a retry is scheduled when attempts remain). */
  private async attempt(deliveryId: number, targetId: number, payload: NotificationPayload, n: number): Promise<string> {
    // The target is read again on every attempt: an edit or removal meanwhile takes effect.
    const target = await getTarget(this.db, targetId);
    let error = "";
    try {
      if (!target) throw new Error("The target was removed");
      if (target.Type === "webhook") await this.postWebhook(target.Config, payload);
      else await this.sendEmail(target.Config, payload);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    // The delivery log (seen by everyone who may use rules) keeps only a generic reason for
    // failures, like the Test answer; the trace keeps the details for the administrator.
    const detail = error;
    if (error && target) error = GENERIC_FAILURE;
    if (this.closed) return error;
    const now = new Date().toISOString();
    const name = target?.Name ?? `#${targetId}`;
    if (!error) {
      await updateDelivery(this.db, deliveryId, "delivered", n, "", now);
      this.trace.add("info", "notify", `Delivered ${payload.Event} of ${payload.Rule} to ${name} (attempt ${n})`);
      return "";
    }
    if (n >= this.maxAttempts || !target) {
      await updateDelivery(this.db, deliveryId, "failed", n, error, now);
      this.trace.add("error", "notify", `Gave up delivering ${payload.Event} of ${payload.Rule} to ${name} after ${n} attempts: ${detail}`);
      return error;
    }
    await updateDelivery(this.db, deliveryId, "retrying", n, error, now);
    const delay = this.retryBaseMs * 2 ** (n - 1);
    this.trace.add("warn", "notify", `Delivery of ${payload.Event} of ${payload.Rule} to ${name} failed (attempt ${n}), retrying in ${delay} ms: ${detail}`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(deliveryId, targetId, payload, n + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
    return error;
  }

  /**
   * POST to the webhook, connected to the address checked by resolveAllowed() (never resolved
   * again) with the URL's host name for the Host header and TLS; no redirects are followed.
   */
  private async postWebhook(c: WebhookConfig, payload: NotificationPayload): Promise<void> {
    const body = JSON.stringify(payload);
    const timestamp = String(Date.now());
    const url = new URL(c.URL);
    const [{ address, family }] = await resolveAllowed(this.allow, url.hostname);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const status = await new Promise<number>((resolve, reject) => {
      const req = send(
        {
          host: address,
          family,
          port: url.port || (url.protocol === "https:" ? 443 : 80),
          path: url.pathname + url.search,
          method: "POST",
          // TLS checks the certificate against the URL's name, not the address.
          ...(url.protocol === "https:" && !isIP(hostname) ? { servername: hostname } : {}),
          headers: {
            Host: url.host,
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(body),
            "User-Agent": "Loggia-Logger",
            "X-Loggia-Event": payload.Event,
            "X-Loggia-Timestamp": timestamp,
            ...(c.Secret ? { "X-Loggia-Signature": `sha256=${signWebhook(c.Secret, timestamp, body)}` } : {}),
          },
          signal: AbortSignal.timeout(this.timeoutMs),
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    if (status < 200 || status >= 300) throw new Error(`HTTP ${status}`);
  }

  private async sendEmail(c: EmailConfig, payload: NotificationPayload): Promise<void> {
    // The SMTP host is resolved and checked first, and the connection goes to that address.
    const [{ address }] = await resolveAllowed(this.allow, c.SmtpHost);
    const transport = nodemailer.createTransport({
      host: address,
      // STARTTLS/TLS still verify the certificate against the configured name.
      tls: isIP(c.SmtpHost) ? undefined : { servername: c.SmtpHost },
      port: c.SmtpPort,
      secure: c.SmtpSecure,
      auth: c.SmtpUser ? { user: c.SmtpUser, pass: c.SmtpPassword } : undefined,
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    });
    try {
      await transport.sendMail({
        from: c.From,
        to: c.To,
        subject: `[Loggia] ${EVENT_LABEL[payload.Event]}: ${payload.Rule} (${payload.Severity})`,
        text: emailText(payload),
      });
    } finally {
      transport.close();
    }
  }
}

const EVENT_LABEL: Record<NotificationPayload["Event"], string> = {
  activate: "Alarm",
  clear: "Cleared",
  acknowledge: "Acknowledged",
  test: "Test notification",
};

function emailText(p: NotificationPayload): string {
  return [
    p.Text,
    "",
    `Rule: ${p.Rule}`,
    `Severity: ${p.Severity}`,
    `State: ${p.State}`,
    p.Value === null ? null : `Value: ${p.Value} ${p.Unit}`.trim(),
    p.User ? `By: ${p.User}` : null,
    p.Comment ? `Comment: ${p.Comment}` : null,
    `Time: ${p.Timestamp}`,
  ]
    .filter((l) => l !== null)
    .join("\n");
}
