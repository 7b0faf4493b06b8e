import type { Db } from "./db.ts";
import { toPostgres } from "./postgres/dialect.ts";

// Append only: a released migration is never edited, a change is a new entry.
const migrations: string[] = [
  `
  CREATE TABLE roles (
    ID INTEGER PRIMARY KEY,
    Name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    Description TEXT NOT NULL DEFAULT '',
    Permissions TEXT NOT NULL DEFAULT '[]',
    BuiltIn INTEGER NOT NULL DEFAULT 0,
    Version INTEGER NOT NULL DEFAULT 1
  );
  CREATE TABLE users (
    ID INTEGER PRIMARY KEY,
    Username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    EMail TEXT NOT NULL DEFAULT '',
    Role INTEGER NOT NULL REFERENCES roles(ID),
    Timezone TEXT NOT NULL DEFAULT '',
    TimezoneDiffSec INTEGER NOT NULL DEFAULT 0,
    TimezoneUseDST INTEGER NOT NULL DEFAULT 1,
    Language TEXT NOT NULL DEFAULT '',
    Theme TEXT NOT NULL DEFAULT 'light',
    MustChangePassword INTEGER NOT NULL DEFAULT 0,
    PasswordHash TEXT NOT NULL,
    PasswordSalt TEXT NOT NULL,
    Version INTEGER NOT NULL DEFAULT 1
  );
  CREATE INDEX users_role ON users(Role);
  CREATE TABLE tokens (
    Hash TEXT PRIMARY KEY,
    Kind TEXT NOT NULL CHECK (Kind IN ('access', 'refresh')),
    UserID INTEGER NOT NULL REFERENCES users(ID) ON DELETE CASCADE,
    FamilyID TEXT NOT NULL,
    ClientID TEXT NOT NULL,
    ExpiresAt INTEGER NOT NULL,
    ConsumedAt INTEGER
  );
  CREATE INDEX tokens_family ON tokens(FamilyID);
  CREATE INDEX tokens_expiry ON tokens(ExpiresAt);
  CREATE TABLE global_settings (
    ID INTEGER PRIMARY KEY CHECK (ID = 1),
    Config TEXT NOT NULL
  );
  CREATE TABLE settings (
    ID INTEGER PRIMARY KEY,
    Key TEXT NOT NULL UNIQUE,
    Value TEXT NOT NULL
  );
  CREATE TABLE messages (
    ID INTEGER PRIMARY KEY AUTOINCREMENT,
    Sender TEXT NOT NULL,
    Topic TEXT NOT NULL,
    Type TEXT NOT NULL,
    Text TEXT NOT NULL,
    Args TEXT NOT NULL DEFAULT '[]',
    Timestamp TEXT NOT NULL
  );
  CREATE INDEX messages_sender ON messages(Sender, ID);
  CREATE TABLE dashboards (
    ID TEXT PRIMARY KEY,
    Name TEXT NOT NULL,
    IsDefault INTEGER NOT NULL DEFAULT 0,
    Content TEXT NOT NULL DEFAULT '{}',
    Version INTEGER NOT NULL DEFAULT 1,
    Updated TEXT NOT NULL
  );
  CREATE TABLE files (
    Name TEXT PRIMARY KEY,
    ContentType TEXT NOT NULL,
    Content BLOB NOT NULL,
    Updated TEXT NOT NULL
  );
  `,
  // Live data core: recording sessions and the acquisition state. Samples live in series.db.
  `
  CREATE TABLE measurements (
    ID TEXT PRIMARY KEY,
    Name TEXT NOT NULL,
    Start INTEGER NOT NULL,
    End INTEGER,
    SourceId TEXT NOT NULL,
    Variables TEXT NOT NULL DEFAULT '[]',
    MetaData TEXT NOT NULL DEFAULT '[]'
  );
  CREATE INDEX measurements_start ON measurements(Start);
  CREATE UNIQUE INDEX measurements_one_running ON measurements((End IS NULL)) WHERE End IS NULL;
  CREATE TABLE project_state (
    ID INTEGER PRIMARY KEY CHECK (ID = 1),
    ProjectName TEXT NOT NULL,
    Running INTEGER NOT NULL,
    Since INTEGER NOT NULL
  );
  `,
  // Alarming: rules, one alarm per rule (its current state), every transition, notification
  // targets and the log of each delivery.
  `
  CREATE TABLE alarm_rules (
    ID INTEGER PRIMARY KEY,
    Name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    VariableId TEXT NOT NULL,
    Type TEXT NOT NULL,
    Severity TEXT NOT NULL,
    High REAL,
    Low REAL,
    Deadband REAL NOT NULL DEFAULT 0,
    RatePerSec REAL,
    WindowSec REAL NOT NULL DEFAULT 1,
    StaleSec REAL,
    State INTEGER,
    OnDelaySec REAL NOT NULL DEFAULT 0,
    OffDelaySec REAL NOT NULL DEFAULT 0,
    Message TEXT NOT NULL DEFAULT '',
    InService INTEGER NOT NULL DEFAULT 1,
    NotifyTargets TEXT NOT NULL DEFAULT '[]',
    NotifyOn TEXT NOT NULL DEFAULT '[]',
    Version INTEGER NOT NULL DEFAULT 1
  );
  CREATE TABLE alarms (
    RuleID INTEGER PRIMARY KEY REFERENCES alarm_rules(ID) ON DELETE CASCADE,
    State TEXT NOT NULL,
    Active INTEGER NOT NULL DEFAULT 0,
    Value REAL,
    Since TEXT NOT NULL,
    ActivatedAt TEXT,
    AckedBy TEXT NOT NULL DEFAULT '',
    AckedAt TEXT,
    AckComment TEXT NOT NULL DEFAULT '',
    ShelvedUntil TEXT,
    ShelvedBy TEXT NOT NULL DEFAULT '',
    ShelveReason TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE alarm_history (
    ID INTEGER PRIMARY KEY AUTOINCREMENT,
    RuleID INTEGER NOT NULL,
    RuleName TEXT NOT NULL,
    VariableId TEXT NOT NULL,
    Severity TEXT NOT NULL,
    Event TEXT NOT NULL,
    FromState TEXT NOT NULL,
    ToState TEXT NOT NULL,
    Value REAL,
    User TEXT NOT NULL DEFAULT '',
    Comment TEXT NOT NULL DEFAULT '',
    Timestamp TEXT NOT NULL
  );
  CREATE INDEX alarm_history_time ON alarm_history(Timestamp);
  CREATE INDEX alarm_history_rule ON alarm_history(RuleID, ID);
  CREATE TABLE notification_targets (
    ID INTEGER PRIMARY KEY,
    Name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    Type TEXT NOT NULL,
    Enabled INTEGER NOT NULL DEFAULT 1,
    Config TEXT NOT NULL,
    Version INTEGER NOT NULL DEFAULT 1
  );
  CREATE TABLE notification_deliveries (
    ID INTEGER PRIMARY KEY AUTOINCREMENT,
    TargetID INTEGER NOT NULL,
    TargetName TEXT NOT NULL,
    RuleID INTEGER,
    Event TEXT NOT NULL,
    Status TEXT NOT NULL,
    Attempts INTEGER NOT NULL DEFAULT 0,
    LastError TEXT NOT NULL DEFAULT '',
    Created TEXT NOT NULL,
    Updated TEXT NOT NULL
  );
  `,
  // 4: key/value metadata of variables and devices (MetaDataAPI); measurements keep theirs in
  // their own row.
  `
  CREATE TABLE metadata (
    Type TEXT NOT NULL CHECK (Type IN ('variable', 'device')),
    ID TEXT NOT NULL,
    Key TEXT NOT NULL,
    Value TEXT NOT NULL,
    PRIMARY KEY (Type, ID, Key)
  );
  `,
  // 5: VNC targets an administrator configured (VncAPI); the console's proxy connects only to these.
  `
  CREATE TABLE vnc_targets (
    ID INTEGER PRIMARY KEY AUTOINCREMENT,
    Name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    Host TEXT NOT NULL,
    Port INTEGER NOT NULL,
    Password TEXT NOT NULL DEFAULT ''
  );
  `,
  // 6: the Simple Config screen's project config (bench sample rate and analog channels, JSON);
  // the project name stays in project_state. Revision guards concurrent edits.
  `
  CREATE TABLE project_config (
    ID INTEGER PRIMARY KEY CHECK (ID = 1),
    Config TEXT NOT NULL,
    Revision INTEGER NOT NULL
  );
  `,
  // 7: the seeded default dashboard gets the alarm list new installs are seeded with (issue 15 §4).
  // Only a dashboard still exactly as seeded: named "Test cell dashboard", the default, never
  // saved since (Version 1 — every save, in the console or by a script, raises it) and holding
  // exactly the old seed's widgets. Anything a user made, renamed, edited (an alarm list removed
  // included) or no longer has as default is left alone. Runs once, like every migration; the
  // widget is frozen here, so a later change to the seed does not change what this did.
  `
  UPDATE dashboards
  SET Content = json_insert(Content, '$.Widgets[#]', json('{"ID":"alarms","Type":"alarms","Title":"","X":0,"Y":8,"W":12,"H":3,"Variables":[],"Options":{"OnlyUnacknowledged":false,"MaxRows":10}}')),
      Version = Version + 1,
      Updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE Name = 'Test cell dashboard' AND IsDefault = 1 AND Version = 1
    AND json_extract(Content, '$.Columns') = 12
    AND (SELECT group_concat(id, ',') FROM (SELECT json_extract(value, '$.ID') AS id FROM json_each(Content, '$.Widgets') ORDER BY id))
      = 'door,hydraulics,notes,oil-pressure,pressures,pump,speed,strain,temperatures';
  INSERT INTO messages (Sender, Topic, Type, Text, Args, Timestamp)
  SELECT 'Logger', 'Audit', 'Info', 'Added an alarm list to the default dashboard Test cell dashboard', '[]', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE changes() > 0;
  `,
  // data sources (issue 16, decision 0010): one JSON config per row. The password is a column
  // of its own so the JSON handed out can never contain it. AUTOINCREMENT: a deleted source's ID
  // is never given again, since its variable ids (ds<ID>v<n>) still name its history;
  // NextVariable does the same for the variables of one source.
  `
  CREATE TABLE data_sources (
    ID INTEGER PRIMARY KEY AUTOINCREMENT,
    Name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    Protocol TEXT NOT NULL CHECK (Protocol IN ('mqtt', 'modbus', 'opcua')),
    Config TEXT NOT NULL,
    Password TEXT NOT NULL DEFAULT '',
    NextVariable INTEGER NOT NULL DEFAULT 1
  );
  `,
  // 9 (issue 28): operator annotations (a note at a time or over a span, epoch ms; End = Start
  // for a point), every saved version of each dashboard (the current one included: a data folder
  // from before starts its history at the version it has), and the fields an alarm message was
  // written from (JSON), so a reader sees it in their own language and number format.
  `
  CREATE TABLE annotations (
    ID INTEGER PRIMARY KEY AUTOINCREMENT,
    Start INTEGER NOT NULL,
    End INTEGER NOT NULL,
    Text TEXT NOT NULL,
    Tags TEXT NOT NULL DEFAULT '[]',
    Variables TEXT NOT NULL DEFAULT '[]',
    Author TEXT NOT NULL,
    AuthorID INTEGER,
    Created TEXT NOT NULL,
    Updated TEXT NOT NULL,
    Version INTEGER NOT NULL DEFAULT 1
  );
  CREATE INDEX annotations_start ON annotations(Start);
  CREATE INDEX annotations_end ON annotations(End);
  CREATE TABLE dashboard_versions (
    DashboardID TEXT NOT NULL,
    Version INTEGER NOT NULL,
    Name TEXT NOT NULL,
    Content TEXT NOT NULL,
    Author TEXT NOT NULL DEFAULT '',
    Updated TEXT NOT NULL,
    PRIMARY KEY (DashboardID, Version)
  );
  INSERT INTO dashboard_versions (DashboardID, Version, Name, Content, Author, Updated)
  SELECT ID, Version, Name, Content, '', Updated FROM dashboards;
  ALTER TABLE messages ADD COLUMN Fields TEXT NOT NULL DEFAULT '{}';
  `,
];

/** The schema version a fully migrated database has. */
export const LATEST_SCHEMA_VERSION = migrations.length;

/** Brings the schema up to `upTo` (the latest by default; tests build an older data folder with less). */
/** The released migration texts (SQLite's dialect), oldest first: the PostgreSQL engine translates them. */
export const MIGRATIONS: readonly string[] = migrations;

/**
 * Brings the schema up to `upTo` (the latest by default; tests build an older data folder with
 * less). `texts` are the migrations in the engine's dialect (the released ones by default).
 */
export async function migrate(
  db: Db,
  upTo = migrations.length,
  // PostgreSQL gets the same migrations in its dialect (logger/store/postgres/dialect.ts).
  texts: readonly string[] = db.engine === "postgres" ? migrations.map((t, i) => toPostgres(i + 1, t)) : migrations,
): Promise<number> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    Version INTEGER PRIMARY KEY,
    AppliedAt TEXT NOT NULL
  )`);
  let current = await schemaVersion(db);
  for (let v = current + 1; v <= Math.min(upTo, texts.length); v++) {
    await db.tx(async (q) => {
      await q.exec(texts[v - 1]!);
      await q.run("INSERT INTO schema_migrations (Version, AppliedAt) VALUES (?, ?)", v, new Date().toISOString());
    });
    current = v;
  }
  return current;
}

export async function schemaVersion(db: Db): Promise<number> {
  const row = await db.get<{ v: number | null }>("SELECT MAX(Version) AS v FROM schema_migrations");
  return row?.v ?? 0;
}

export async function schemaAppliedAt(db: Db): Promise<string> {
  const row = await db.get<{ AppliedAt: string }>("SELECT AppliedAt FROM schema_migrations ORDER BY Version DESC LIMIT 1");
  return row?.AppliedAt ?? "";
}
