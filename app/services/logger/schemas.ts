import { z } from "zod";

// The console's typed view of the logger HTTP contract (docs/logger-api.md). Every logger
// answer is validated against one of these before the console uses it.

export const returnState = z.object({ Value: z.number(), Description: z.string().optional().default("") });

export const tokenPair = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
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

export const message = z.object({
  ID: z.number(),
  Sender: z.string(),
  Topic: z.string(),
  Type: z.string(),
  Text: z.string(),
  Args: z.array(z.string()).default([]),
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

// ---- Live data (REST shapes of the real logger family; see docs/logger-api.md) ----

export const variable = z.looseObject({
  Id: z.string(),
  Name: z.string(),
  Unit: z.string().optional().default(""),
  DataFormat: z.string().optional().default("FLOAT"),
  Direction: z.enum(["I", "O"]).catch("I"),
  Index: z.number().optional(),
  Precision: z.number().int().min(0).max(12).optional().catch(undefined),
  RangeMin: z.number().nullable().optional(),
  RangeMax: z.number().nullable().optional(),
  DeviceId: z.string().optional(),
  ModuleId: z.string().optional(),
  SourceId: z.string().optional(),
  SampleRateHz: z.number().optional(),
});
export type Variable = z.infer<typeof variable>;
export const variablesAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(variable) });

export const onlineValuesAnswer = z.object({
  Success: z.boolean().optional(),
  Data: z.object({ Values: z.array(z.number().nullable()), Timestamps: z.array(z.number().nullable()).optional() }),
});

export const source = z.looseObject({
  Id: z.string(),
  Name: z.string(),
  SampleRateHz: z.number(),
  AbsoluteStart: z.number().nullable().optional(),
  LastTimeStamp: z.number().nullable().optional(),
  AvailableTimeSec: z.number().nullable().optional(),
  Variables: z.array(z.string()).optional().default([]),
});
export type Source = z.infer<typeof source>;
export const sourcesAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(source) });

export const measurement = z.looseObject({
  ID: z.union([z.string(), z.number()]).transform(String),
  Name: z.string(),
  Start: z.union([z.number(), z.string()]),
  End: z.union([z.number(), z.string()]).nullable().optional(),
  SourceId: z.string().optional(),
  Variables: z.array(z.string()).optional().default([]),
  MetaData: z.array(z.object({ Key: z.string(), Value: z.string() })).optional().default([]),
  /** Only in answers to a metadata search: where it matched. */
  MatchedOn: z.array(z.enum(["measurement", "variable", "device"])).optional(),
});
export type Measurement = z.infer<typeof measurement>;

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

export const projectStateAnswer = z.object({
  State: z.looseObject({
    ProjectName: z.string().optional().default(""),
    Running: z.boolean(),
    Since: z.union([z.string(), z.number()]).nullable().optional(),
    Measurement: measurement.nullable().optional(),
  }),
});

export const timeSeriesAnswer = z.object({
  Success: z.boolean().optional(),
  Data: z.object({
    TimeSeries: z.object({
      Start: z.number(),
      End: z.number(),
      Delta: z.number(),
      Size: z.number(),
      Values: z.array(z.array(z.number().nullable())),
      Min: z.array(z.array(z.number().nullable())).optional(),
      Max: z.array(z.array(z.number().nullable())).optional(),
    }),
  }),
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

export const measurementsAnswer = z.object({ Success: z.boolean().optional(), Data: z.array(measurement) });

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
