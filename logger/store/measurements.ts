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

export type MeasurementFilter = {
  Start?: number;
  End?: number;
  Order: "asc" | "desc";
  Limit: number;
  /** Only measurements of this source. */
  SourceId?: string;
  /** Only these measurements. */
  Ids?: string[];
};

/** WHERE terms for the source and id filters, numbered from ?first on. */
function scopeTerms(f: MeasurementFilter, first: number, column = ""): { where: string[]; params: string[] } {
  const where: string[] = [];
  const params: string[] = [];
  if (f.SourceId !== undefined) {
    where.push(`${column}SourceId = ?${first + params.length}`);
    params.push(f.SourceId);
  }
  if (f.Ids !== undefined) {
    where.push(`${column}ID IN (SELECT value FROM json_each(?${first + params.length}))`);
    params.push(JSON.stringify(f.Ids));
  }
  return { where, params };
}

/** Measurements that overlap [Start, End] (a running one reaches to now). */
export function listMeasurements(db: Db, f: MeasurementFilter, now: number): Measurement[] {
  const where: string[] = [];
  const params: (number | string)[] = [];
  if (f.End !== undefined) {
    where.push(`Start <= ?${params.length + 1}`);
    params.push(f.End);
  }
  if (f.Start !== undefined) {
    where.push(`COALESCE(End, ?${params.length + 1}) >= ?${params.length + 2}`);
    params.push(now, f.Start);
  }
  const scope = scopeTerms(f, params.length + 1);
  where.push(...scope.where);
  params.push(...scope.params);
  const sql = `SELECT * FROM measurements ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY Start ${f.Order === "asc" ? "ASC" : "DESC"}, ID LIMIT ?${params.length + 1}`;
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

/** Where a metadata search matched a measurement: its own entries, one of its variables', its device's. */
export type MetaScope = "measurement" | "variable" | "device";
export type MetaSearch = {
  /** Key, compared case-insensitively (ASCII); empty = any key. */
  Key: string;
  /** Part of the value, case-insensitively (ASCII); empty = any value. */
  Value: string;
  /** Sources and variables of the devices whose metadata matched (the model maps devices to them). */
  DeviceSources: string[];
  DeviceVariables: string[];
};

/** SQL matching ?1 (key) and ?2 (part of the value) against two column expressions. */
const META_MATCH = (key: string, value: string) => `(?1 = '' OR lower(${key}) = lower(?1)) AND (?2 = '' OR instr(lower(${value}), lower(?2)) > 0)`;

/** Device IDs whose metadata matches a search (the caller maps them to sources and variables). */
export function devicesMatching(db: Db, key: string, value: string): string[] {
  return all<{ ID: string }>(db, `SELECT DISTINCT ID FROM metadata WHERE Type = 'device' AND ${META_MATCH("Key", "Value")}`, key, value).map((r) => r.ID);
}

/**
 * Measurements overlapping [Start, End] that carry the key/value themselves, on one of their
 * variables, or on their device; each with the scopes it matched on. One query, so Limit counts
 * matches (not rows filtered afterwards).
 */
export function searchMeasurements(db: Db, f: MeasurementFilter, now: number, s: MetaSearch): (Measurement & { MatchedOn: MetaScope[] })[] {
  const where: string[] = [];
  const params: (string | number)[] = [s.Key, s.Value, JSON.stringify(s.DeviceSources), JSON.stringify(s.DeviceVariables)];
  if (f.End !== undefined) {
    where.push(`Start <= ?${params.length + 1}`);
    params.push(f.End);
  }
  if (f.Start !== undefined) {
    where.push(`COALESCE(End, ?${params.length + 1}) >= ?${params.length + 2}`);
    params.push(now, f.Start);
  }
  const scope = scopeTerms(f, params.length + 1, "m.");
  where.push(...scope.where);
  params.push(...scope.params);
  const sql = `SELECT * FROM (
      SELECT m.*,
        EXISTS (SELECT 1 FROM json_each(m.MetaData) j WHERE ${META_MATCH("j.value ->> '$.Key'", "j.value ->> '$.Value'")}) AS OnMeasurement,
        EXISTS (SELECT 1 FROM json_each(m.Variables) v JOIN metadata md ON md.Type = 'variable' AND md.ID = v.value WHERE ${META_MATCH("md.Key", "md.Value")}) AS OnVariable,
        (m.SourceId IN (SELECT value FROM json_each(?3)) OR EXISTS (SELECT 1 FROM json_each(m.Variables) v WHERE v.value IN (SELECT value FROM json_each(?4)))) AS OnDevice
      FROM measurements m ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ) WHERE OnMeasurement OR OnVariable OR OnDevice
    ORDER BY Start ${f.Order === "asc" ? "ASC" : "DESC"}, ID LIMIT ?${params.length + 1}`;
  params.push(f.Limit);
  return all<Row & { OnMeasurement: number; OnVariable: number; OnDevice: number }>(db, sql, ...params).map((r) => ({
    ...fromRow(r),
    MatchedOn: [r.OnMeasurement ? "measurement" : null, r.OnVariable ? "variable" : null, r.OnDevice ? "device" : null].filter((x): x is MetaScope => x !== null),
  }));
}

/** A measurement that is already over when it is recorded (a CSV import): explicit Start and End, never the running one. */
export function addFinishedMeasurement(db: Db, m: Omit<Measurement, "ID" | "End"> & { End: number }): Measurement {
  const id = randomUUID();
  run(
    db,
    "INSERT INTO measurements (ID, Name, Start, End, SourceId, Variables, MetaData) VALUES (?, ?, ?, ?, ?, ?, ?)",
    id,
    m.Name,
    m.Start,
    m.End,
    m.SourceId,
    JSON.stringify(m.Variables),
    JSON.stringify(m.MetaData),
  );
  return getMeasurement(db, id)!;
}

/** Whether a source has any recorded measurement (a started one or an import). */
export function hasMeasurements(db: Db, sourceId: string): boolean {
  return get<{ n: number }>(db, "SELECT 1 AS n FROM measurements WHERE SourceId = ? LIMIT 1", sourceId) !== undefined;
}
