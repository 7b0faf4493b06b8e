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
