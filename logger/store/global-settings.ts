import type { Db } from "./db.ts";
import { get, run } from "./db.ts";

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

export function readConfig(db: Db): GlobalConfig {
  const row = get<{ Config: string }>(db, "SELECT Config FROM global_settings WHERE ID = 1");
  return row ? { ...DEFAULT_CONFIG, ...(JSON.parse(row.Config) as Partial<GlobalConfig>) } : { ...DEFAULT_CONFIG };
}

export function writeConfig(db: Db, config: GlobalConfig): void {
  run(
    db,
    "INSERT INTO global_settings (ID, Config) VALUES (1, ?) ON CONFLICT(ID) DO UPDATE SET Config = excluded.Config",
    JSON.stringify(config),
  );
}

export const loginRequired = (db: Db) => readConfig(db).LoginRequired !== false;
