import type { Db } from "./db.ts";
import { all, run, tx } from "./db.ts";
import type { MetaEntry } from "./measurements.ts";

export type MetaTarget = "variable" | "device";
export type MetaRow = { Type: MetaTarget; ID: string; Key: string; Value: string };

export function listMetaData(db: Db, type?: MetaTarget, id?: string): MetaRow[] {
  const where: string[] = [];
  const params: string[] = [];
  if (type) where.push("Type = ?"), params.push(type);
  if (id) where.push("ID = ?"), params.push(id);
  return all<MetaRow>(db, `SELECT Type, ID, Key, Value FROM metadata ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY Type, ID, Key`, ...params);
}

/** Sets the given keys (an empty Value removes the key); other keys stay. */
export function setMetaEntries(db: Db, type: MetaTarget, id: string, entries: MetaEntry[]): MetaEntry[] {
  tx(db, () => {
    for (const e of entries) {
      if (e.Value === "") run(db, "DELETE FROM metadata WHERE Type = ? AND ID = ? AND Key = ?", type, id, e.Key);
      else run(db, "INSERT INTO metadata (Type, ID, Key, Value) VALUES (?, ?, ?, ?) ON CONFLICT (Type, ID, Key) DO UPDATE SET Value = excluded.Value", type, id, e.Key, e.Value);
    }
  });
  return listMetaData(db, type, id).map(({ Key, Value }) => ({ Key, Value }));
}
