import type { Db } from "./db.ts";
import { all, get, run } from "./db.ts";

export type MessageType = "Info" | "Warning" | "Error" | "Success";

export type Message = { ID: number; Sender: string; Topic: string; Type: string; Text: string; Args: string[]; Timestamp: string };

export type NewMessage = { Sender: string; Topic: string; Type: MessageType; Text: string; Args?: string[] };

export function postMessage(db: Db, m: NewMessage): number {
  return run(
    db,
    "INSERT INTO messages (Sender, Topic, Type, Text, Args, Timestamp) VALUES (?, ?, ?, ?, ?, ?)",
    m.Sender,
    m.Topic,
    m.Type,
    m.Text,
    JSON.stringify(m.Args ?? []),
    new Date().toISOString(),
  );
}

export function audit(db: Db, sender: string, text: string): void {
  postMessage(db, { Sender: sender, Topic: "Audit", Type: "Info", Text: text });
}

export type MessageQuery = { Sender?: string; Topic?: string; Type?: string; Text?: string; From?: string; To?: string; Limit: number; Offset: number };

export function queryMessages(db: Db, q: MessageQuery): { Messages: Message[]; Total: number } {
  const where: string[] = [];
  const params: string[] = [];
  const add = (clause: string, value: string | undefined) => {
    if (value) {
      where.push(clause);
      params.push(value);
    }
  };
  add("Sender = ?", q.Sender);
  add("Topic = ?", q.Topic);
  add("Type = ?", q.Type);
  // Text: a case-insensitive substring; % and _ typed by the user are literal.
  add("Text LIKE ? ESCAPE '\\'", q.Text && `%${q.Text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  // Timestamps are stored as ISO strings with ms and Z, so text order is time order.
  add("Timestamp >= ?", q.From);
  add("Timestamp <= ?", q.To);
  const filter = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const total = get<{ n: number }>(db, `SELECT COUNT(*) AS n FROM messages ${filter}`, ...params)!.n;
  const rows = all<Omit<Message, "Args"> & { Args: string }>(
    db,
    `SELECT * FROM messages ${filter} ORDER BY ID DESC LIMIT ? OFFSET ?`,
    ...params,
    q.Limit,
    q.Offset,
  );
  return {
    Messages: rows.map((r) => ({ ...r, Args: JSON.parse(r.Args) as string[] })),
    Total: total,
  };
}
