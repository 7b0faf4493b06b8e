import { randomUUID } from "node:crypto";
import type { Db } from "./db.ts";
import { all, get, run } from "./db.ts";

export type MetaEntry = { Key: string; Value: string };
export type Measurement = {
  ID: string;
  Name: string;
  Start: number;
  End: number | null;
  SourceId: string;
  Variables: string[];
  MetaData: MetaEntry[];
};

type Row = { ID: string; Name: string; Start: number; End: number | null; SourceId: string; Variables: string; MetaData: string };

const fromRow = (r: Row): Measurement => ({
  ID: r.ID,
  Name: r.Name,
  Start: r.Start,
  End: r.End,
  SourceId: r.SourceId,
  Variables: JSON.parse(r.Variables) as string[],
  MetaData: JSON.parse(r.MetaData) as MetaEntry[],
});

export function runningMeasurement(db: Db): Measurement | null {
  const r = get<Row>(db, "SELECT * FROM measurements WHERE End IS NULL");
  return r ? fromRow(r) : null;
}

export function getMeasurement(db: Db, id: string): Measurement | null {
  const r = get<Row>(db, "SELECT * FROM measurements WHERE ID = ?", id);
  return r ? fromRow(r) : null;
}

export function startMeasurement(db: Db, m: Omit<Measurement, "ID" | "End">): Measurement {
  const id = randomUUID();
  run(
    db,
    "INSERT INTO measurements (ID, Name, Start, End, SourceId, Variables, MetaData) VALUES (?, ?, ?, NULL, ?, ?, ?)",
    id,
    m.Name,
    m.Start,
    m.SourceId,
    JSON.stringify(m.Variables),
    JSON.stringify(m.MetaData),
  );
  return getMeasurement(db, id)!;
}

export function stopMeasurement(db: Db, id: string, end: number): Measurement {
  run(db, "UPDATE measurements SET End = ? WHERE ID = ?", end, id);
  return getMeasurement(db, id)!;
}

export type MeasurementFilter = { Start?: number; End?: number; Order: "asc" | "desc"; Limit: number };

/** Measurements that overlap [Start, End] (a running one reaches to now). */
export function listMeasurements(db: Db, f: MeasurementFilter, now: number): Measurement[] {
  const where: string[] = [];
  const params: number[] = [];
  if (f.End !== undefined) {
    where.push("Start <= ?");
    params.push(f.End);
  }
  if (f.Start !== undefined) {
    where.push("COALESCE(End, ?) >= ?");
    params.push(now, f.Start);
  }
  const sql = `SELECT * FROM measurements ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY Start ${f.Order === "asc" ? "ASC" : "DESC"}, ID LIMIT ?`;
  return all<Row>(db, sql, ...params, f.Limit).map(fromRow);
}

export function deleteMeasurement(db: Db, id: string): boolean {
  return db.prepare("DELETE FROM measurements WHERE ID = ?").run(id).changes > 0;
}

/** Sets the given keys (an empty Value removes the key); other keys stay. */
export function setMetaData(db: Db, id: string, entries: MetaEntry[]): Measurement | null {
  const m = getMeasurement(db, id);
  if (!m) return null;
  const map = new Map(m.MetaData.map((e) => [e.Key, e.Value]));
  for (const e of entries) {
    if (e.Value === "") map.delete(e.Key);
    else map.set(e.Key, e.Value);
  }
  const meta = [...map].map(([Key, Value]) => ({ Key, Value }));
  run(db, "UPDATE measurements SET MetaData = ? WHERE ID = ?", JSON.stringify(meta), id);
  return { ...m, MetaData: meta };
}

export type ProjectState = { ProjectName: string; Running: boolean; Since: number };

export function projectState(db: Db, now: number): ProjectState {
  const r = get<{ ProjectName: string; Running: number; Since: number }>(db, "SELECT * FROM project_state WHERE ID = 1");
  if (!r) {
    run(db, "INSERT INTO project_state (ID, ProjectName, Running, Since) VALUES (1, ?, 1, ?)", "Engine test cell", now);
    return { ProjectName: "Engine test cell", Running: true, Since: now };
  }
  return { ProjectName: r.ProjectName, Running: r.Running === 1, Since: r.Since };
}

export function setRunning(db: Db, running: boolean, now: number): void {
  projectState(db, now);
  run(db, "UPDATE project_state SET Running = ?, Since = ? WHERE ID = 1", running ? 1 : 0, now);
}
