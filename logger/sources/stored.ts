import type { Db } from "../store/db.ts";
import { DataSourceInput, variableIdOf } from "./config.ts";
import type { DataSource } from "./config.ts";

// Rows of table data_sources (migration 8). The JSON in Config never holds the password: it is
// a column of its own, put back into Connection only for the driver.

type Row = { ID: number; Name: string; Protocol: string; Config: string; Password: string; NextVariable: number };

function withoutPassword(s: DataSource): object {
  if (s.Protocol === "modbus") return s;
  const { Password: _drop, ...Connection } = s.Connection;
  return { ...s, Connection };
}

function fromRow(r: Row): DataSource {
  // Parsed again: defaults added by a later version of the schema apply to old rows too.
  const parsed = DataSourceInput.parse({ ...(JSON.parse(r.Config) as object), ID: r.ID, Name: r.Name, Protocol: r.Protocol }) as DataSource;
  if (parsed.Protocol !== "modbus" && r.Password !== "") parsed.Connection.Password = r.Password;
  return parsed;
}

/** Every stored source; a row that no longer parses is reported and skipped, never fatal. */
export async function loadSources(db: Db, onError: (message: string) => void): Promise<DataSource[]> {
  const out: DataSource[] = [];
  for (const r of await db.all<Row>("SELECT * FROM data_sources ORDER BY ID")) {
    try {
      out.push(fromRow(r));
    } catch (err) {
      onError(`Data source ${r.Name} (${r.ID}) not loaded: ${(err as Error).message}`);
    }
  }
  return out;
}

export async function loadSource(db: Db, id: number): Promise<DataSource | undefined> {
  const r = await db.get<Row>("SELECT * FROM data_sources WHERE ID = ?", id);
  return r ? fromRow(r) : undefined;
}

export async function sourceNameTaken(db: Db, name: string, exceptId: number): Promise<boolean> {
  return (await db.get("SELECT 1 FROM data_sources WHERE Name = ? AND ID <> ?", name, exceptId)) !== undefined;
}

/**
 * Stores a validated source (ID ≤ 0 creates). Variables with VariableId "" get the next
 * never-used number; `password` undefined keeps the stored one, "" removes it. Several
 * statements: call it inside a tx.
 */
export async function saveSource(db: Db, s: DataSource, password: string | undefined): Promise<DataSource> {
  let id = s.ID;
  if (id <= 0) {
    id = (await db.get<{ ID: number }>("INSERT INTO data_sources (Name, Protocol, Config, Password) VALUES (?, ?, '{}', ?) RETURNING ID", s.Name, s.Protocol, password ?? ""))!.ID;
  } else if (password !== undefined) {
    await db.run("UPDATE data_sources SET Password = ? WHERE ID = ?", password, id);
  }
  let next = (await db.get<{ NextVariable: number }>("SELECT NextVariable FROM data_sources WHERE ID = ?", id))!.NextVariable;
  const Variables = s.Variables.map((v) => (v.VariableId === "" ? { ...v, VariableId: variableIdOf(id, next++) } : v));
  const stored = { ...s, ID: id, Variables } as DataSource;
  await db.run("UPDATE data_sources SET Name = ?, Protocol = ?, Config = ?, NextVariable = ? WHERE ID = ?", s.Name, s.Protocol, JSON.stringify(withoutPassword(stored)), next, id);
  return (await loadSource(db, id))!;
}

export async function deleteSource(db: Db, id: number): Promise<void> {
  await db.run("DELETE FROM data_sources WHERE ID = ?", id);
}
