import type { Db } from "./db.ts";

// Notification targets and the log of every delivery (logger.db).

export type EmailConfig = { SmtpHost: string; SmtpPort: number; SmtpSecure: boolean; SmtpUser: string; SmtpPassword: string; From: string; To: string[] };
export type WebhookConfig = { URL: string; Secret: string };

export type Target =
  | { ID: number; Name: string; Type: "email"; Enabled: boolean; Config: EmailConfig; Version: number }
  | { ID: number; Name: string; Type: "webhook"; Enabled: boolean; Config: WebhookConfig; Version: number };

export type TargetInput = { Name: string; Enabled: boolean } & ({ Type: "email"; Config: EmailConfig } | { Type: "webhook"; Config: WebhookConfig });

type TargetRow = { ID: number; Name: string; Type: string; Enabled: number; Config: string; Version: number };

const toTarget = (r: TargetRow): Target => ({ ...r, Enabled: r.Enabled === 1, Config: JSON.parse(r.Config) }) as Target;

export async function listTargets(db: Db): Promise<Target[]> {
  return (await db.all<TargetRow>("SELECT * FROM notification_targets ORDER BY Name COLLATE NOCASE")).map(toTarget);
}

export async function getTarget(db: Db, id: number): Promise<Target | undefined> {
  const r = await db.get<TargetRow>("SELECT * FROM notification_targets WHERE ID = ?", id);
  return r && toTarget(r);
}

export async function targetByName(db: Db, name: string): Promise<Target | undefined> {
  const r = await db.get<TargetRow>("SELECT * FROM notification_targets WHERE Name = ?", name);
  return r && toTarget(r);
}

export async function insertTarget(db: Db, t: TargetInput): Promise<number> {
  const row = await db.get<{ ID: number }>(
    "INSERT INTO notification_targets (Name, Type, Enabled, Config) VALUES (?, ?, ?, ?) RETURNING ID",
    t.Name,
    t.Type,
    t.Enabled ? 1 : 0,
    JSON.stringify(t.Config),
  );
  return row!.ID;
}

export async function updateTarget(db: Db, id: number, t: TargetInput): Promise<void> {
  await db.run("UPDATE notification_targets SET Name = ?, Type = ?, Enabled = ?, Config = ?, Version = Version + 1 WHERE ID = ?", t.Name, t.Type, t.Enabled ? 1 : 0, JSON.stringify(t.Config), id);
}

export async function deleteTarget(db: Db, id: number): Promise<void> {
  await db.run("DELETE FROM notification_targets WHERE ID = ?", id);
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

export async function addDelivery(db: Db, d: { TargetID: number; TargetName: string; RuleID: number | null; Event: string }, now: string): Promise<number> {
  const row = await db.get<{ ID: number }>(
    "INSERT INTO notification_deliveries (TargetID, TargetName, RuleID, Event, Status, Created, Updated) VALUES (?, ?, ?, ?, 'pending', ?, ?) RETURNING ID",
    d.TargetID,
    d.TargetName,
    d.RuleID,
    d.Event,
    now,
    now,
  );
  return row!.ID;
}

export async function updateDelivery(db: Db, id: number, status: DeliveryStatus, attempts: number, error: string, now: string): Promise<void> {
  await db.run("UPDATE notification_deliveries SET Status = ?, Attempts = ?, LastError = ?, Updated = ? WHERE ID = ?", status, attempts, error, now, id);
}

export async function listDeliveries(db: Db, q: { TargetID?: number; Limit: number; Offset: number }): Promise<{ Deliveries: Delivery[]; Total: number }> {
  const filter = q.TargetID ? "WHERE TargetID = ?" : "";
  const params = q.TargetID ? [q.TargetID] : [];
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM notification_deliveries ${filter}`, ...params))!.n;
  const rows = await db.all<Delivery>(`SELECT * FROM notification_deliveries ${filter} ORDER BY ID DESC LIMIT ? OFFSET ?`, ...params, q.Limit, q.Offset);
  return { Deliveries: rows, Total: total };
}
