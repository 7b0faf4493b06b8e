import en from "./en/translation.json";
import enAlarming from "./en/alarming.json";
import enDashboards from "./en/dashboards.json";
import enHistory from "./en/history.json";
import enFileBrowser from "./en/fileBrowser.json";
import enGlobalSettings from "./en/globalSettings.json";
import enJupyter from "./en/jupyter.json";
import enLive from "./en/live.json";
import enLog from "./en/log.json";
import enRoles from "./en/roles.json";
import enRules from "./en/rules.json";
import enTrace from "./en/trace.json";
import enUsers from "./en/users.json";
import enVnc from "./en/vnc.json";
import it from "./it/translation.json";
import itAlarming from "./it/alarming.json";
import itDashboards from "./it/dashboards.json";
import itHistory from "./it/history.json";
import itFileBrowser from "./it/fileBrowser.json";
import itGlobalSettings from "./it/globalSettings.json";
import itJupyter from "./it/jupyter.json";
import itLive from "./it/live.json";
import itLog from "./it/log.json";
import itRoles from "./it/roles.json";
import itRules from "./it/rules.json";
import itTrace from "./it/trace.json";
import itUsers from "./it/users.json";
import itVnc from "./it/vnc.json";

// Screen files are merged under their own key (t("users.title")), so screens own their texts.
export const resources = {
  en: { translation: { ...en, users: enUsers, roles: enRoles, globalSettings: enGlobalSettings, live: enLive, dashboards: enDashboards, alarming: enAlarming, rules: enRules, log: enLog, trace: enTrace, history: enHistory, fileBrowser: enFileBrowser, jupyter: enJupyter, vnc: enVnc } },
  it: { translation: { ...it, users: itUsers, roles: itRoles, globalSettings: itGlobalSettings, live: itLive, dashboards: itDashboards, alarming: itAlarming, rules: itRules, log: itLog, trace: itTrace, history: itHistory, fileBrowser: itFileBrowser, jupyter: itJupyter, vnc: itVnc } },
};
export const LANGUAGES = ["en", "it"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec §1: en is the default (id en-US); it has id it-IT. */
export const LOCALE_IDS: Record<Language, string> = { en: "en-US", it: "it-IT" };
