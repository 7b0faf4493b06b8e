import type { Db } from "./db.ts";
import { all, get, run } from "./db.ts";

// Notification targets and the log of every delivery (logger.db).

export type EmailConfig = { SmtpHost: string; SmtpPort: number; SmtpSecure: boolean; SmtpUser: string; SmtpPassword: string; From: string; To: string[] };
export type WebhookConfig = { URL: string; Secret: string };

export type Target =
  | { ID: number; Name: string; Type: "email"; Enabled: boolean; Config: EmailConfig; Version: number }
  | { ID: number; Name: string; Type: "webhook"; Enabled: boolean; Config: WebhookConfig; Version: number };

export type TargetInput = { Name: string; Enabled: boolean } & ({ Type: "email"; Config: EmailConfig } | { Type: "webhook"; Config: WebhookConfig });

type TargetRow = { ID: number; Name: string; Type: string; Enabled: number; Config: string; Version: number };

const toTarget = (r: TargetRow): Target => ({ ...r, Enabled: r.Enabled === 1, Config: JSON.parse(r.Config) }) as Target;

export function listTargets(db: Db): Target[] {
  return all<TargetRow>(db, "SELECT * FROM notification_targets ORDER BY Name COLLATE NOCASE").map(toTarget);
}

export function getTarget(db: Db, id: number): Target | undefined {
  const r = get<TargetRow>(db, "SELECT * FROM notification_targets WHERE ID = ?", id);
  return r && toTarget(r);
}

export function targetByName(db: Db, name: string): Target | undefined {
  const r = get<TargetRow>(db, "SELECT * FROM notification_targets WHERE Name = ?", name);
  return r && toTarget(r);
}

export function insertTarget(db: Db, t: TargetInput): number {
  return run(db, "INSERT INTO notification_targets (Name, Type, Enabled, Config) VALUES (?, ?, ?, ?)", t.Name, t.Type, t.Enabled ? 1 : 0, JSON.stringify(t.Config));
}

export function updateTarget(db: Db, id: number, t: TargetInput): void {
  run(db, "UPDATE notification_targets SET Name = ?, Type = ?, Enabled = ?, Config = ?, Version = Version + 1 WHERE ID = ?", t.Name, t.Type, t.Enabled ? 1 : 0, JSON.stringify(t.Config), id);
}

export function deleteTarget(db: Db, id: number): void {
  run(db, "DELETE FROM notification_targets WHERE ID = ?", id);
}

export type DeliveryStatus = "pending" | "retrying" | "delivered" | "failed";

export type Delivery = {
  ID: number;
  TargetID: number;
  TargetName: string;
  RuleID: number | null;
  Event: string;
  Status: DeliveryStatus;
  Attempts: number;
  LastError: string;
  Created: string;
  Updated: string;
};

export function addDelivery(db: Db, d: { TargetID: number; TargetName: string; RuleID: number | null; Event: string }, now: string): number {
  return run(db, "INSERT INTO notification_deliveries (TargetID, TargetName, RuleID, Event, Status, Created, Updated) VALUES (?, ?, ?, ?, 'pending', ?, ?)", d.TargetID, d.TargetName, d.RuleID, d.Event, now, now);
}

export function updateDelivery(db: Db, id: number, status: DeliveryStatus, attempts: number, error: string, now: string): void {
  run(db, "UPDATE notification_deliveries SET Status = ?, Attempts = ?, LastError = ?, Updated = ? WHERE ID = ?", status, attempts, error, now, id);
}

export function listDeliveries(db: Db, q: { TargetID?: number; Limit: number; Offset: number }): { Deliveries: Delivery[]; Total: number } {
  const filter = q.TargetID ? "WHERE TargetID = ?" : "";
  const params = q.TargetID ? [q.TargetID] : [];
  const total = get<{ n: number }>(db, `SELECT COUNT(*) AS n FROM notification_deliveries ${filter}`, ...params)!.n;
  const rows = all<Delivery>(db, `SELECT * FROM notification_deliveries ${filter} ORDER BY ID DESC LIMIT ? OFFSET ?`, ...params, q.Limit, q.Offset);
  return { Deliveries: rows, Total: total };
}
