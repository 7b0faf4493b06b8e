import { randomUUID } from "node:crypto";
import type { Db } from "./db.ts";

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

export async function runningMeasurement(db: Db): Promise<Measurement | null> {
  const r = await db.get<Row>("SELECT * FROM measurements WHERE End IS NULL");
  return r ? fromRow(r) : null;
}

export async function getMeasurement(db: Db, id: string): Promise<Measurement | null> {
  const r = await db.get<Row>("SELECT * FROM measurements WHERE ID = ?", id);
  return r ? fromRow(r) : null;
}

export async function startMeasurement(db: Db, m: Omit<Measurement, "ID" | "End">): Promise<Measurement> {
  const id = randomUUID();
  await db.run(
    "INSERT INTO measurements (ID, Name, Start, End, SourceId, Variables, MetaData) VALUES (?, ?, ?, NULL, ?, ?, ?)",
    id,
    m.Name,
    m.Start,
    m.SourceId,
    JSON.stringify(m.Variables),
    JSON.stringify(m.MetaData),
  );
  return (await getMeasurement(db, id))!;
}

export async function stopMeasurement(db: Db, id: string, end: number): Promise<Measurement> {
  await db.run("UPDATE measurements SET End = ? WHERE ID = ?", end, id);
  return (await getMeasurement(db, id))!;
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

/** WHERE terms for the source and id filters. */
function scopeTerms(f: MeasurementFilter, column = ""): { where: string[]; params: string[] } {
  const where: string[] = [];
  const params: string[] = [];
  if (f.SourceId !== undefined) {
    where.push(`${column}SourceId = ?`);
    params.push(f.SourceId);
  }
  if (f.Ids !== undefined) {
    where.push(f.Ids.length ? `${column}ID IN (${f.Ids.map(() => "?").join(", ")})` : "0 = 1");
    params.push(...f.Ids);
  }
  return { where, params };
}

/** Measurements that overlap [Start, End] (a running one reaches to now). */
export async function listMeasurements(db: Db, f: MeasurementFilter, now: number): Promise<Measurement[]> {
  const where: string[] = [];
  const params: (number | string)[] = [];
  if (f.End !== undefined) {
    where.push("Start <= ?");
    params.push(f.End);
  }
  if (f.Start !== undefined) {
    where.push("COALESCE(End, ?) >= ?");
    params.push(now, f.Start);
  }
  const scope = scopeTerms(f);
  where.push(...scope.where);
  params.push(...scope.params);
  const sql = `SELECT * FROM measurements ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY Start ${f.Order === "asc" ? "ASC" : "DESC"}, ID LIMIT ?`;
  return (await db.all<Row>(sql, ...params, f.Limit)).map(fromRow);
}

export async function deleteMeasurement(db: Db, id: string): Promise<boolean> {
  return (await db.run("DELETE FROM measurements WHERE ID = ?", id)) > 0;
}

/** Sets the given keys (an empty Value removes the key); other keys stay. Read and write in one tx. */
export function setMetaData(db: Db, id: string, entries: MetaEntry[]): Promise<Measurement | null> {
  return db.tx(async (q) => {
  const m = await getMeasurement(q, id);
  if (!m) return null;
  const map = new Map(m.MetaData.map((e) => [e.Key, e.Value]));
  for (const e of entries) {
    if (e.Value === "") map.delete(e.Key);
    else map.set(e.Key, e.Value);
  }
  const meta = [...map].map(([Key, Value]) => ({ Key, Value }));
  await q.run("UPDATE measurements SET MetaData = ? WHERE ID = ?", JSON.stringify(meta), id);
  return { ...m, MetaData: meta };
  });
}

export type ProjectState = { ProjectName: string; Running: boolean; Since: number };

export async function projectState(db: Db, now: number): Promise<ProjectState> {
  const r = await db.get<{ ProjectName: string; Running: number; Since: number }>("SELECT * FROM project_state WHERE ID = 1");
  if (!r) {
    // Two first readers at once both insert the same row: the second changes nothing.
    await db.run("INSERT INTO project_state (ID, ProjectName, Running, Since) VALUES (1, ?, 1, ?) ON CONFLICT (ID) DO NOTHING", "Engine test cell", now);
    return { ProjectName: "Engine test cell", Running: true, Since: now };
  }
  return { ProjectName: r.ProjectName, Running: r.Running === 1, Since: r.Since };
}

export async function setRunning(db: Db, running: boolean, now: number): Promise<void> {
  await projectState(db, now);
  await db.run("UPDATE project_state SET Running = ?, Since = ? WHERE ID = 1", running ? 1 : 0, now);
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

/**
 * SQL matching a key and a part of the value against two column expressions, the same on both
 * engines (lower() on both sides; the user's %, _ and backslash taken literally); its parameters are metaParams().
 */
const META_MATCH = (key: string, value: string) => `(? = '' OR lower(${key}) = lower(?)) AND (? = '' OR lower(${value}) LIKE lower(?) ESCAPE '\\')`;
const metaParams = (key: string, value: string) => [key, key, value, `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`];

/** The same match in JS, for the entries a measurement keeps in its own row: ASCII letters fold, as SQL's lower(). */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
function metaMatches(e: MetaEntry, key: string, value: string): boolean {
  return (key === "" || asciiLower(e.Key) === asciiLower(key)) && (value === "" || asciiLower(e.Value).includes(asciiLower(value)));
}

/** Device IDs whose metadata matches a search (the caller maps them to sources and variables). */
export async function devicesMatching(db: Db, key: string, value: string): Promise<string[]> {
  return (await db.all<{ ID: string }>(`SELECT DISTINCT ID FROM metadata WHERE Type = 'device' AND ${META_MATCH("Key", "Value")}`, ...metaParams(key, value))).map((r) => r.ID);
}

/**
 * Measurements overlapping [Start, End] that carry the key/value themselves, on one of their
 * variables, or on their device — for any of the searches given (a list of filters matches when
 * one of them does) — each with the scopes it matched on. Limit counts matches: the measurements
 * in range are matched first (their metadata and variables are JSON in their row, which the
 * engines read differently), then cut to Limit.
 */
export async function searchMeasurements(db: Db, f: MeasurementFilter, now: number, searches: MetaSearch | MetaSearch[]): Promise<(Measurement & { MatchedOn: MetaScope[] })[]> {
  const list = Array.isArray(searches) ? searches : [searches];
  const inRange = await listMeasurements(db, { ...f, Limit: Number.MAX_SAFE_INTEGER }, now);
  const terms = await Promise.all(
    list.map(async (s) => ({
      s,
      variables: new Set(
        (await db.all<{ ID: string }>(`SELECT DISTINCT ID FROM metadata WHERE Type = 'variable' AND ${META_MATCH("Key", "Value")}`, ...metaParams(s.Key, s.Value))).map((r) => r.ID),
      ),
      deviceSources: new Set(s.DeviceSources),
      deviceVariables: new Set(s.DeviceVariables),
    })),
  );
  const out: (Measurement & { MatchedOn: MetaScope[] })[] = [];
  for (const m of inRange) {
    const matched = new Set<MetaScope>();
    for (const { s, variables, deviceSources, deviceVariables } of terms) {
      if (m.MetaData.some((e) => metaMatches(e, s.Key, s.Value))) matched.add("measurement");
      if (m.Variables.some((v) => variables.has(v))) matched.add("variable");
      if (deviceSources.has(m.SourceId) || m.Variables.some((v) => deviceVariables.has(v))) matched.add("device");
    }
    const MatchedOn = (["measurement", "variable", "device"] as const).filter((x) => matched.has(x));
    if (MatchedOn.length) out.push({ ...m, MatchedOn });
    if (out.length >= f.Limit) break;
  }
  return out;
}

/** A measurement that is already over when it is recorded (a CSV import): explicit Start and End, never the running one. */
export async function addFinishedMeasurement(db: Db, m: Omit<Measurement, "ID" | "End"> & { End: number }): Promise<Measurement> {
  const id = randomUUID();
  await db.run(
    "INSERT INTO measurements (ID, Name, Start, End, SourceId, Variables, MetaData) VALUES (?, ?, ?, ?, ?, ?, ?)",
    id,
    m.Name,
    m.Start,
    m.End,
    m.SourceId,
    JSON.stringify(m.Variables),
    JSON.stringify(m.MetaData),
  );
  return (await getMeasurement(db, id))!;
}

/** Whether a source has any recorded measurement (a started one or an import). */
export async function hasMeasurements(db: Db, sourceId: string): Promise<boolean> {
  return (await db.get<{ n: number }>("SELECT 1 AS n FROM measurements WHERE SourceId = ? LIMIT 1", sourceId)) !== undefined;
}

/** Sources that hold an imported measurement (metadata Origin "… import"): retention spares them. */
export async function importedSources(db: Db): Promise<Set<string>> {
  const rows = await db.all<{ SourceId: string; MetaData: string }>("SELECT SourceId, MetaData FROM measurements WHERE MetaData LIKE ?", '%"Origin"%');
  const out = new Set<string>();
  for (const r of rows) if ((JSON.parse(r.MetaData) as MetaEntry[]).some((e) => e.Key === "Origin" && / import$/.test(e.Value))) out.add(r.SourceId);
  return out;
}
