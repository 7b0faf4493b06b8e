import type { Db } from "./db.ts";

export type GlobalConfig = {
  DefaultStartPage: string;
  LoginRequired: boolean;
  Features: string[];
  DefaultLanguage: string;
  DefaultTimezone: string;
  [other: string]: unknown;
};

export const DEFAULT_CONFIG: GlobalConfig = {
  DefaultStartPage: "device",
  LoginRequired: true,
  Features: [
    "dashboard",
    "dashboardManager",
    "analytics",
    "export",
    "import",
    "devices",
    "structView",
    "variableOverview",
    "measurementUI",
    "versionInfo",
    "settings",
    // Needed no switch before issue 15 (no permission of their own): kept on for a fresh install.
    "vncview",
    "traceLog",
    "canscanner",
    "changelogUI",
    "help",
  ],
  DefaultLanguage: "en",
  DefaultTimezone: "UTC",
};

export async function readConfig(db: Db): Promise<GlobalConfig> {
  const row = await db.get<{ Config: string }>("SELECT Config FROM global_settings WHERE ID = 1");
  return row ? { ...DEFAULT_CONFIG, ...(JSON.parse(row.Config) as Partial<GlobalConfig>) } : { ...DEFAULT_CONFIG };
}

export async function writeConfig(db: Db, config: GlobalConfig): Promise<void> {
  await db.run(
    "INSERT INTO global_settings (ID, Config) VALUES (1, ?) ON CONFLICT(ID) DO UPDATE SET Config = excluded.Config",
    JSON.stringify(config),
  );
}

export const loginRequired = async (db: Db) => (await readConfig(db)).LoginRequired !== false;
