import type { Db } from "./db.ts";
import type { MetaEntry } from "./measurements.ts";

export type MetaTarget = "variable" | "device";
export type MetaRow = { Type: MetaTarget; ID: string; Key: string; Value: string };

export function listMetaData(db: Db, type?: MetaTarget, id?: string): Promise<MetaRow[]> {
  const where: string[] = [];
  const params: string[] = [];
  if (type) where.push("Type = ?"), params.push(type);
  if (id) where.push("ID = ?"), params.push(id);
  return db.all<MetaRow>(`SELECT Type, ID, Key, Value FROM metadata ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY Type, ID, Key`, ...params);
}

/** Sets the given keys (an empty Value removes the key); other keys stay. */
export function setMetaEntries(db: Db, type: MetaTarget, id: string, entries: MetaEntry[]): Promise<MetaEntry[]> {
  return db.tx(async (q) => {
    for (const e of entries) {
      if (e.Value === "") await q.run("DELETE FROM metadata WHERE Type = ? AND ID = ? AND Key = ?", type, id, e.Key);
      else await q.run("INSERT INTO metadata (Type, ID, Key, Value) VALUES (?, ?, ?, ?) ON CONFLICT (Type, ID, Key) DO UPDATE SET Value = excluded.Value", type, id, e.Key, e.Value);
    }
    return (await listMetaData(q, type, id)).map(({ Key, Value }) => ({ Key, Value }));
  });
}
