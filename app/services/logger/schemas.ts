import { z } from "zod";

// The console's typed view of the logger HTTP contract (docs/logger-api.md). Every logger
// answer is validated against one of these before the console uses it.

export const returnState = z.object({ Value: z.number(), Description: z.string().optional().default("") });

export const tokenPair = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
  /** Our logger's proof of this sign-in on this device (a password grant's answer only; others have none). */
  device_token: z.string().max(256).optional(),
});
export type TokenPair = z.infer<typeof tokenPair>;

export const oauthError = z.object({ error: z.string(), error_description: z.string().optional() });

export const verifyAnswer = z.object({
  user_id: z.coerce.number(),
  username: z.string().optional(),
  permissions: z.array(z.string()),
  must_change_password: z.boolean().optional().default(false),
});
export type VerifyAnswer = z.infer<typeof verifyAnswer>;

export const loginRequiredAnswer = z.object({ LoginRequired: z.boolean() });

export const versionInfoAnswer = z.object({
  Value: z.object({
    Name: z.string(),
    Major: z.number().optional(),
    Minor: z.number().optional(),
    Build: z.number().optional(),
    BuildDateTime: z.string().optional(),
  }),
});

export const globalConfig = z.looseObject({
  DefaultStartPage: z.string().default("device"),
  Features: z.array(z.string()).default([]),
  LoginRequired: z.boolean().optional(),
  DefaultLanguage: z.string().optional(),
  DefaultTimezone: z.string().optional(),
  JupyterUrl: z.string().optional(),
  MapTileUrl: z.string().optional(),
  MapTileAttribution: z.string().optional(),
});
export type GlobalConfig = z.infer<typeof globalConfig>;
export const globalSettingsAnswer = z.object({ Config: globalConfig });

export const versionInformationAnswer = z.object({
  VersionInformation: z.array(
    z.looseObject({
      Name: z.string(),
      Major: z.number().optional(),
      Minor: z.number().optional(),
      Build: z.number().optional(),
      BuildDateTime: z.string().optional(),
    }),
  ),
});

export const timezonesAnswer = z.object({
  Timezones: z.object({ List: z.array(z.object({ Description: z.string(), Value: z.string() })) }),
});

export const setting = z.object({ ID: z.number(), Key: z.string(), Value: z.string() });
export const settingsAnswer = z.object({ Settings: z.array(setting) });

export const user = z.looseObject({
  ID: z.number(),
  Username: z.string(),
  EMail: z.string().optional().default(""),
  Role: z.number(),
  Timezone: z.string().optional().default(""),
  TimezoneDiffSec: z.number().optional().default(0),
  TimezoneUseDST: z.boolean().optional().default(true),
  Language: z.string().optional().default(""),
  Theme: z.string().optional().default("light"),
  MustChangePassword: z.boolean().optional().default(false),
  Version: z.number().optional(),
});
export type User = z.infer<typeof user>;
export const userAnswer = z.object({ User: user });
export const usersAnswer = z.object({ Users: z.array(user) });

export const role = z.looseObject({
  ID: z.number(),
  Name: z.string(),
  Description: z.string().optional().default(""),
  Permissions: z.array(z.string()),
  BuiltIn: z.boolean().optional().default(false),
  Version: z.number().optional(),
});
export type Role = z.infer<typeof role>;
export const rolesAnswer = z.object({ Roles: z.array(role) });

/**
 * What an alarm's text was written from (docs/logger-api.md, "Fields"): rendered in the reader's
 * language by app/ui/alarms/alarmText.ts. Optional, and a malformed one is dropped rather than
 * failing the answer: the English Text is shown then.
 */
const alarmFields = z.object({
  Template: z.string(),
  Rule: z.string(),
  Variable: z.string(),
  Value: z.number().nullable(),
  Unit: z.string(),
  Precision: z.number().int().min(0).max(12),
  Type: z.string(),
  High: z.number().nullable(),
  Low: z.number().nullable(),
  RatePerSec: z.number().nullable(),
  StaleSec: z.number().nullable(),
  State: z.number().nullable(),
});
const messageFields = alarmFields.extend({ Event: z.string(), User: z.string().optional(), Comment: z.string().optional(), ShelvedUntil: z.string().nullable().optional() });

export const message = z.object({
  ID: z.number(),
  Sender: z.string(),
  Topic: z.string(),
  Type: z.string(),
  Text: z.string(),
  Args: z.array(z.string()).default([]),
  Fields: messageFields.optional().catch(undefined),
  Timestamp: z.string(),
});
export type Message = z.infer<typeof message>;
export const messagesAnswer = z.object({ Messages: z.array(message), Total: z.number().optional() });

export const dashboardItem = z.object({ ID: z.string(), Name: z.string(), IsDefault: z.boolean() });
export type DashboardItem = z.infer<typeof dashboardItem>;
export const dashboardListAnswer = z.object({ List: z.array(dashboardItem) });

export const downloadFileAnswer = z.object({ Content: z.string(), ContentType: z.string().optional() });

export const idAnswer = z.object({ ID: z.number() });
export const emptyAnswer = z.object({});

// ---- The data API (LOGGER-API.md, "Data"): a contract with existing clients ----
// Every field the contract lists is required with its type (int, float, str; `?` = optional), so
// a logger that breaks the contract fails here with the field's name. Loggia's own extras are
// optional: the console works against a logger of the family without them.

const int = z.number().int();
const id = z.union([z.string(), z.number()]).transform(String);

export const variable = z.looseObject({
  Id: z.string(),
  Name: z.string(),
  Unit: z.string(),
  DataFormat: z.string(),
  Direction: z.enum(["I", "O", "IO"]),
  Index: int,
  IndexIn: int,
  IndexOut: int,
  // Loggers of the family send -1 for "as measured"; the console formats 0–12 decimals itself.
  Precision: int.transform((p) => (p >= 0 && p <= 12 ? p : undefined)),
  RangeMin: z.number().nullable().optional(),
  RangeMax: z.number().nullable().optional(),
  // Loggia's extras (the source a variable is in comes from the contract's per-source listing).
  DeviceId: z.string().optional(),
  ModuleId: z.string().optional(),
  SourceId: z.string().optional(),
  SampleRateHz: z.number().optional(),
});
export type Variable = z.infer<typeof variable>;
export const variablesAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(variable) });

/** Outputs can be written: Direction O, or IO (an output read back as an input). */
export const isOutput = (v: Pick<Variable, "Direction">) => v.Direction !== "I";

export const onlineValuesAnswer = z.object({
  Success: z.boolean().optional(),
  Data: z.object({
    Values: z.array(z.union([z.number(), z.boolean().transform(Number)]).nullable()),
    Timestamps: z.array(z.number().nullable()).optional(),
    // Loggia: the last value each variable had and its time, kept while it has none.
    LastValues: z.array(z.union([z.number(), z.boolean().transform(Number)]).nullable()).optional(),
    LastTimestamps: z.array(z.number().nullable()).optional(),
  }),
});

export const source = z.looseObject({
  Id: id,
  Name: z.string(),
  Index: int,
  SampleRateHz: z.number(),
  AbsoluteStart: z.number(),
  LastTimeStamp: z.number(),
  AvailableTimeSec: z.number(),
});
export type Source = z.infer<typeof source>;
export const sourcesAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(source) });

export const sourceVariable = z.looseObject({ Id: z.string(), Name: z.string(), Index: int, Unit: z.string(), DataFormat: z.string(), GQLId: z.string().nullish() });
export const sourceVariablesAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(sourceVariable) });

const metaEntries = z
  .union([z.array(z.object({ Key: z.string(), Value: z.string() })), z.record(z.string(), z.unknown()).transform((o) => Object.entries(o).map(([Key, v]) => ({ Key, Value: String(v) })))])
  // `?` in the contract: absent or null.
  .nullish()
  .transform((entries) => entries ?? []);

const measurementVariable = z.looseObject({
  Id: z.string(),
  Name: z.string(),
  DataFormat: z.string(),
  Direction: z.string(),
  Type: z.string(),
  Index: int,
  IndexIn: int,
  IndexOut: int,
  Precision: int,
  RangeMin: z.number(),
  RangeMax: z.number(),
  Unit: z.string(),
});

export type Measurement = {
  ID: string;
  Name: string;
  Start: number;
  /** null while it runs. */
  End: number | null;
  SourceId: string;
  Variables: string[];
  MetaData: { Key: string; Value: string }[];
  MatchedOn?: ("measurement" | "variable" | "device")[];
  /** "Measurement" (a recorded run) or e.g. "Continuous" (Loggia: a source's whole recording). */
  Kind: string;
};

/** A measurement of the contract, read into the console's shape (ID, Start, End, variable ids). */
export const measurement = z
  .looseObject({
    Id: id,
    // The contract's `?` fields may be absent or null.
    Name: z.string().nullish(),
    AbsoluteStart: z.number(),
    LastTimeStamp: z.number(),
    SampleRateHz: z.number(),
    SourceId: id,
    AvailableTimeSec: z.number().nullish(),
    Kind: z.string().nullish(),
    StartDate: z.string().nullish(),
    MetaData: metaEntries,
    Variables: z.array(z.union([z.string(), measurementVariable])),
    /** Loggia: null while the measurement runs (else the contract's LastTimeStamp is its end). */
    End: z.number().nullable().optional(),
    /** Loggia, only in answers to a metadata search: where it matched. */
    MatchedOn: z.array(z.enum(["measurement", "variable", "device"])).optional(),
  })
  .transform((m): Measurement => {
    // StartDate is the recorded start; AbsoluteStart what retention still keeps of it.
    const started = m.StartDate ? Date.parse(m.StartDate) : Number.NaN;
    return {
      ID: m.Id,
      Name: m.Name ?? m.Id,
      Start: Number.isFinite(started) ? started : m.AbsoluteStart,
      End: m.End === undefined ? m.LastTimeStamp : m.End,
      SourceId: m.SourceId,
      Variables: m.Variables.map((v) => (typeof v === "string" ? v : v.Id)),
      MetaData: m.MetaData,
      MatchedOn: m.MatchedOn,
      Kind: m.Kind ?? "Measurement",
    };
  });
export const measurementsAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(measurement) });

/** A measurement as Loggia's RPCs (ProjectAPI, MeasurementAPI) give it. */
export const rpcMeasurement = z.looseObject({
  ID: id,
  Name: z.string(),
  Start: z.union([z.number(), z.string()]),
  End: z.union([z.number(), z.string()]).nullable().optional(),
  SourceId: z.string().optional(),
  Variables: z.array(z.string()).optional().default([]),
  MetaData: z.array(z.object({ Key: z.string(), Value: z.string() })).optional().default([]),
});

export const device = z.looseObject({
  ID: z.union([z.string(), z.number()]).transform(String),
  Name: z.string(),
  Type: z.string().optional().default(""),
  Serial: z.string().optional().default(""),
  Firmware: z.string().optional().default(""),
  IPAddress: z.string().optional().default(""),
  Location: z.object({ Lat: z.number().min(-90).max(90), Lon: z.number().min(-180).max(180), Site: z.string().optional() }).nullable().optional().catch(null),
  Connected: z.boolean(),
  LastHeartbeat: z.union([z.string(), z.number()]).nullable().optional(),
  SourceId: z.string().optional(),
  SampleRateHz: z.number().optional(),
  Modules: z
    .array(z.looseObject({ ID: z.union([z.string(), z.number()]).transform(String), Name: z.string(), Type: z.string().optional().default(""), Variables: z.array(z.string()).default([]) }))
    .default([]),
});
export type Device = z.infer<typeof device>;
export const devicesAnswer = z.object({ Devices: z.array(device) });

/**
 * Loggia's `State.Store` (docs/logger-api.md, ProjectAPI.GetState): whether the series store takes
 * writes, how full its outage buffer is, what the last outage cost. A logger without it (or with
 * a shape this console does not know) shows no storage card rather than failing the page.
 */
export const storeState = z.looseObject({
  Engine: z.string(),
  Writing: z.boolean(),
  FailingSince: z.number().nullable(),
  UnsavedBytes: z.number().min(0),
  UnsavedSec: z.number().min(0),
  LimitBytes: z.number().positive(),
  LimitSec: z.number().positive(),
  Fill: z.number().min(0).max(1),
  Full: z.boolean(),
  FullSince: z.number().nullable(),
  DroppedSamples: z.number().min(0),
  LastLoss: z.looseObject({ From: z.number(), To: z.number(), Samples: z.number() }).nullable(),
});
export type StoreState = z.infer<typeof storeState>;

export const projectStateAnswer = z.object({
  State: z.looseObject({
    ProjectName: z.string().optional().default(""),
    Running: z.boolean(),
    Since: z.union([z.string(), z.number()]).nullable().optional(),
    // Loggia: who last started or stopped acquisition.
    ChangedBy: z.string().nullable().optional(),
    Measurement: rpcMeasurement.nullable().optional(),
    Store: storeState.optional().catch(undefined),
  }),
});

const timeSeriesItem = z.object({
  TimeSeries: z.looseObject({
    Type: z.string(),
    Format: z.string(),
    Unit: z.string(),
    Start: z.number(),
    /** Time of the first value (epoch ms); value k is at AbsoluteStart + k·Delta. */
    AbsoluteStart: z.number(),
    Delta: z.number(),
    End: z.number(),
    Size: int,
    MeasurementId: id,
    Updating: z.boolean().nullish(),
    Values: z.array(z.array(z.number().nullable())),
    // Loggia: exact bucket extremes from rollups; without them charts draw lines without bands.
    Min: z.array(z.array(z.number().nullable())).optional(),
    Max: z.array(z.array(z.number().nullable())).optional(),
  }),
});
export const timeSeriesAnswer = z.object({
  Success: z.boolean().optional(),
  // The contract allows one object or a list; the console asks for one series and reads the first.
  Data: z.union([timeSeriesItem, z.array(timeSeriesItem).min(1)]).transform((d) => (Array.isArray(d) ? d[0]! : d)),
});
export type TimeSeries = z.infer<typeof timeSeriesAnswer>["Data"]["TimeSeries"];

// ---- Alarming, notifications and the trace log (docs/logger-api.md, "Alarming") ----

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export const ALARM_STATES = ["Normal", "ActiveUnacknowledged", "ActiveAcknowledged", "ReturnedUnacknowledged", "Shelved", "OutOfService"] as const;
export const RULE_TYPES = ["high", "low", "range", "rate", "stale", "digital"] as const;
export const NOTIFY_EVENTS = ["activate", "clear", "acknowledge"] as const;

export const alarmSummaryAnswer = z.object({ Unacknowledged: z.number(), Active: z.number(), Shelved: z.number().optional().default(0) });

export const alarm = z.looseObject({
  ID: z.number(),
  Name: z.string(),
  Severity: z.enum(SEVERITIES).catch("medium"),
  State: z.enum(ALARM_STATES),
  Active: z.boolean(),
  Value: z.number().nullable(),
  Since: z.string(),
  ActivatedAt: z.string().nullable(),
  AckedBy: z.string().default(""),
  AckedAt: z.string().nullable().optional(),
  AckComment: z.string().default(""),
  ShelvedUntil: z.string().nullable(),
  ShelvedBy: z.string().default(""),
  ShelveReason: z.string().default(""),
  VariableId: z.string(),
  VariableName: z.string(),
  DeviceId: z.string().default(""),
  Unit: z.string().default(""),
  Text: z.string().default(""),
  Fields: alarmFields.optional().catch(undefined),
});
export type Alarm = z.infer<typeof alarm>;
export const alarmsAnswer = alarmSummaryAnswer.extend({ Alarms: z.array(alarm) });

export const alarmHistoryEntry = z.looseObject({
  ID: z.number(),
  RuleID: z.number(),
  RuleName: z.string(),
  VariableId: z.string(),
  Severity: z.enum(SEVERITIES).catch("medium"),
  Event: z.string(),
  FromState: z.string(),
  ToState: z.string(),
  Value: z.number().nullable(),
  User: z.string(),
  Comment: z.string(),
  Timestamp: z.string(),
});
export type AlarmHistoryEntry = z.infer<typeof alarmHistoryEntry>;
export const alarmHistoryAnswer = z.object({ History: z.array(alarmHistoryEntry), Total: z.number() });
export const acknowledgeAnswer = z.object({ Acknowledged: z.array(z.number()) });
export const alarmStateAnswer = z.object({ State: z.enum(ALARM_STATES) });

/** AlarmAPI.GetLimits: where each limit rule's limits lie (drawn on charts, gauges and bars). */
export const alarmLimitsAnswer = z.object({
  Limits: z.array(
    z.object({
      RuleID: z.number(),
      Name: z.string(),
      VariableId: z.string(),
      Type: z.enum(["high", "low", "range"]),
      Severity: z.enum(SEVERITIES).catch("medium"),
      High: z.number().nullable(),
      Low: z.number().nullable(),
    }),
  ),
});
export type AlarmLimit = z.infer<typeof alarmLimitsAnswer>["Limits"][number];

export const alarmRule = z.looseObject({
  ID: z.number(),
  Name: z.string(),
  VariableId: z.string(),
  Type: z.enum(RULE_TYPES),
  Severity: z.enum(SEVERITIES),
  High: z.number().nullable(),
  Low: z.number().nullable(),
  Deadband: z.number(),
  RatePerSec: z.number().nullable(),
  WindowSec: z.number(),
  StaleSec: z.number().nullable(),
  State: z.number().nullable(),
  OnDelaySec: z.number(),
  OffDelaySec: z.number(),
  Message: z.string(),
  InService: z.boolean(),
  NotifyTargets: z.array(z.number()),
  NotifyOn: z.array(z.enum(NOTIFY_EVENTS)),
  Version: z.number(),
});
export type AlarmRule = z.infer<typeof alarmRule>;
export const alarmRulesAnswer = z.object({ Rules: z.array(alarmRule) });

export const notificationTarget = z.looseObject({
  ID: z.number(),
  Name: z.string(),
  Type: z.enum(["email", "webhook"]),
  Enabled: z.boolean(),
  Version: z.number(),
  URL: z.string().optional(),
  HasSecret: z.boolean().optional(),
  SmtpHost: z.string().optional(),
  SmtpPort: z.number().optional(),
  SmtpSecure: z.boolean().optional(),
  SmtpUser: z.string().optional(),
  HasPassword: z.boolean().optional(),
  From: z.string().optional(),
  To: z.array(z.string()).optional(),
});
export type NotificationTarget = z.infer<typeof notificationTarget>;
export const targetsAnswer = z.object({ Targets: z.array(notificationTarget) });

export const delivery = z.looseObject({
  ID: z.number(),
  TargetID: z.number(),
  TargetName: z.string(),
  RuleID: z.number().nullable(),
  Event: z.string(),
  Status: z.string(),
  Attempts: z.number(),
  LastError: z.string(),
  Created: z.string(),
  Updated: z.string(),
});
export type Delivery = z.infer<typeof delivery>;
export const deliveriesAnswer = z.object({ Deliveries: z.array(delivery), Total: z.number() });
export const testNotificationAnswer = z.object({ DeliveryID: z.number(), Delivered: z.boolean(), Error: z.string() });

export const TRACE_LEVELS = ["debug", "info", "warn", "error"] as const;
export const traceEntry = z.object({ Seq: z.number(), Time: z.string(), Level: z.enum(TRACE_LEVELS), Component: z.string(), Message: z.string() });
export type TraceEntry = z.infer<typeof traceEntry>;
export const traceAnswer = z.object({ Entries: z.array(traceEntry), Last: z.number() });

const statNumber = z.number().nullable();
export const statisticsAnswer = z.object({
  Data: z.object({
    Start: z.number(),
    End: z.number(),
    Statistics: z.array(
      z.object({ SID: z.string(), VID: z.string(), Count: z.number(), Min: statNumber, Max: statNumber, Mean: statNumber, StdDev: statNumber, RMS: statNumber, First: statNumber, FirstTime: statNumber, Last: statNumber, LastTime: statNumber }),
    ),
  }),
});
export type VariableStatistics = z.infer<typeof statisticsAnswer>["Data"]["Statistics"][number];

// Files (docs/logger-api.md, "Files").
export const fileEntry = z.object({
  Name: z.string(),
  Type: z.enum(["folder", "file", "link", "other"]),
  Size: z.number(),
  Modified: z.string(),
  ContentType: z.string(),
});
export type FileEntry = z.infer<typeof fileEntry>;
export const fileListAnswer = z.object({ Data: z.object({ Path: z.string(), Entries: z.array(fileEntry) }) });
export const filePathAnswer = z.object({ Data: z.object({ Path: z.string() }).loose() });

// VNC targets (docs/logger-api.md, "VncAPI"): List never carries the password, Connect does
// (read only by the console's WebSocket proxy on the server).
export const vncTarget = z.object({ ID: z.number().int(), Name: z.string(), Host: z.string(), Port: z.number().int(), HasPassword: z.boolean() });
export type VncTarget = z.infer<typeof vncTarget>;
export const vncTargetsAnswer = z.object({ Targets: z.array(vncTarget) });
export const vncConnectAnswer = z.object({ ID: z.number().int(), Name: z.string(), Host: z.string().min(1), Port: z.number().int().min(1).max(65535), Password: z.string() });
export type VncConnectTarget = z.infer<typeof vncConnectAnswer>;

// ConfigAPI.GetProjectConfig / SetProjectConfig (Simple Config).
export const projectChannel = z.looseObject({
  VariableId: z.string(),
  Index: z.number(),
  Enabled: z.boolean(),
  Name: z.string(),
  Unit: z.string(),
  RangeMin: z.number(),
  RangeMax: z.number(),
  Precision: z.number(),
});
export const projectConfigAnswer = z.object({
  Config: z.looseObject({
    ProjectName: z.string(),
    DeviceName: z.string().nullable(),
    SampleRateHz: z.number().nullable(),
    Channels: z.array(projectChannel),
  }),
  SampleRates: z.array(z.number()),
  Revision: z.number(),
});
export type ProjectConfigAnswer = z.infer<typeof projectConfigAnswer>;

// ConfigAPI.GetStorage (issue 29): the figures behind "at this rate this disk holds ~N days".
const bytes = z.number().finite().min(0);
export const storageFigures = z.looseObject({
  Engine: z.enum(["embedded", "postgres"]),
  StoreBytes: bytes,
  FreeBytes: bytes.nullable(),
  BytesPerSample: z.number().finite().positive(),
  Measured: z.boolean(),
  SamplesPerDay: bytes,
  RetentionSec: z.number().finite().positive().nullable(),
});
export type StorageFigures = z.infer<typeof storageFigures>;
export const storageAnswer = z.object({ Storage: storageFigures });
