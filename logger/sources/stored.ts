import { all, get, run } from "../store/db.ts";
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
export function loadSources(db: Db, onError: (message: string) => void): DataSource[] {
  const out: DataSource[] = [];
  for (const r of all<Row>(db, "SELECT * FROM data_sources ORDER BY ID")) {
    try {
      out.push(fromRow(r));
    } catch (err) {
      onError(`Data source ${r.Name} (${r.ID}) not loaded: ${(err as Error).message}`);
    }
  }
  return out;
}

export function loadSource(db: Db, id: number): DataSource | undefined {
  const r = get<Row>(db, "SELECT * FROM data_sources WHERE ID = ?", id);
  return r ? fromRow(r) : undefined;
}

export function sourceNameTaken(db: Db, name: string, exceptId: number): boolean {
  return get(db, "SELECT 1 FROM data_sources WHERE Name = ? AND ID <> ?", name, exceptId) !== undefined;
}

/**
 * Stores a validated source (ID ≤ 0 creates). Variables with VariableId "" get the next
 * never-used number; `password` undefined keeps the stored one, "" removes it.
 */
export function saveSource(db: Db, s: DataSource, password: string | undefined): DataSource {
  let id = s.ID;
  if (id <= 0) {
    id = run(db, "INSERT INTO data_sources (Name, Protocol, Config, Password) VALUES (?, ?, '{}', ?)", s.Name, s.Protocol, password ?? "");
  } else if (password !== undefined) {
    run(db, "UPDATE data_sources SET Password = ? WHERE ID = ?", password, id);
  }
  let next = get<{ NextVariable: number }>(db, "SELECT NextVariable FROM data_sources WHERE ID = ?", id)!.NextVariable;
  const Variables = s.Variables.map((v) => (v.VariableId === "" ? { ...v, VariableId: variableIdOf(id, next++) } : v));
  const stored = { ...s, ID: id, Variables } as DataSource;
  run(db, "UPDATE data_sources SET Name = ?, Protocol = ?, Config = ?, NextVariable = ? WHERE ID = ?", s.Name, s.Protocol, JSON.stringify(withoutPassword(stored)), next, id);
  return loadSource(db, id)!;
}

export function deleteSource(db: Db, id: number): void {
  run(db, "DELETE FROM data_sources WHERE ID = ?", id);
}
