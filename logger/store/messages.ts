import type { Db } from "./db.ts";

export type MessageType = "Info" | "Warning" | "Error" | "Success";

/** Fields: what the text was made of, where the sender gives them (Alarming), else {}. */
export type Message = { ID: number; Sender: string; Topic: string; Type: string; Text: string; Args: string[]; Fields: Record<string, unknown>; Timestamp: string };

export type NewMessage = { Sender: string; Topic: string; Type: MessageType; Text: string; Args?: string[]; Fields?: Record<string, unknown> };

export async function postMessage(db: Db, m: NewMessage): Promise<number> {
  const row = await db.get<{ ID: number }>(
    "INSERT INTO messages (Sender, Topic, Type, Text, Args, Fields, Timestamp) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ID",
    m.Sender,
    m.Topic,
    m.Type,
    m.Text,
    JSON.stringify(m.Args ?? []),
    JSON.stringify(m.Fields ?? {}),
    new Date().toISOString(),
  );
  return row!.ID;
}

export async function audit(db: Db, sender: string, text: string): Promise<void> {
  await postMessage(db, { Sender: sender, Topic: "Audit", Type: "Info", Text: text });
}

/**
 * audit() for request contexts: a failure is also written to the trace, and the returned promise
 * is already observed, so a caller that does not await it cannot crash the process.
 */
export function auditAs(db: Db, sender: string, text: string, trace: { add(level: "error", source: string, message: string): void }): Promise<void> {
  const done = audit(db, sender, text);
  done.catch((err: unknown) => trace.add("error", "audit", `Audit message not written (${text}): ${(err as Error).message}`));
  return done;
}

export type MessageQuery = { Sender?: string; Topic?: string; Type?: string; Text?: string; From?: string; To?: string; Limit: number; Offset: number };

export async function queryMessages(db: Db, q: MessageQuery): Promise<{ Messages: Message[]; Total: number }> {
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
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM messages ${filter}`, ...params))!.n;
  const rows = await db.all<Omit<Message, "Args" | "Fields"> & { Args: string; Fields: string }>(
    `SELECT * FROM messages ${filter} ORDER BY ID DESC LIMIT ? OFFSET ?`,
    ...params,
    q.Limit,
    q.Offset,
  );
  return {
    Messages: rows.map((r) => ({ ...r, Args: JSON.parse(r.Args) as string[], Fields: JSON.parse(r.Fields || "{}") as Record<string, unknown> })),
    Total: total,
  };
}
