import en from "./en/translation.json";
import enDashboards from "./en/dashboards.json";
import enFileBrowser from "./en/fileBrowser.json";
import enGlobalSettings from "./en/globalSettings.json";
import enJupyter from "./en/jupyter.json";
import enLive from "./en/live.json";
import enRoles from "./en/roles.json";
import enUsers from "./en/users.json";
import it from "./it/translation.json";
import itDashboards from "./it/dashboards.json";
import itFileBrowser from "./it/fileBrowser.json";
import itGlobalSettings from "./it/globalSettings.json";
import itJupyter from "./it/jupyter.json";
import itLive from "./it/live.json";
import itRoles from "./it/roles.json";
import itUsers from "./it/users.json";

// Screen files are merged under their own key (t("users.title")), so screens own their texts.
export const resources = {
  en: { translation: { ...en, users: enUsers, roles: enRoles, globalSettings: enGlobalSettings, live: enLive, dashboards: enDashboards, fileBrowser: enFileBrowser, jupyter: enJupyter } },
  it: { translation: { ...it, users: itUsers, roles: itRoles, globalSettings: itGlobalSettings, live: itLive, dashboards: itDashboards, fileBrowser: itFileBrowser, jupyter: itJupyter } },
};
export const LANGUAGES = ["en", "it"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec §1: en is the default (id en-US); it has id it-IT. */
export const LOCALE_IDS: Record<Language, string> = { en: "en-US", it: "it-IT" };
