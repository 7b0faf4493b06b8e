import { z } from "zod";
import { isLoggerAway, type LoggerClient } from "./logger/client.server";
import { downloadFileAnswer, settingsAnswer } from "./logger/schemas";

export interface Theme {
  mainColor: string;
  hoverColor: string;
  lightColor: string;
  /** A logger file name, or null for the default logo. */
  logo: string | null;
}

// Spec §9 defaults. Colours end up in a style attribute, so only plain colour syntax passes.
export const DEFAULT_THEME: Theme = { mainColor: "#3056a8", hoverColor: "#4c85ff", lightColor: "#e8eefb", logo: null };
const colour = z.string().trim().regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i);
const styling = z.object({
  logo: z.string().optional(),
  mainColor: colour.optional().catch(undefined),
  hoverColor: colour.optional().catch(undefined),
  lightColor: colour.optional().catch(undefined),
});

/** Spec §3: the WebUI setting holds `{styling: {...}}` or the same fields flat. */
export function parseWebUiSetting(value: string | undefined): Theme {
  if (!value) return DEFAULT_THEME;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return DEFAULT_THEME;
  }
  const source = json && typeof json === "object" && "styling" in json ? (json as { styling: unknown }).styling : json;
  const parsed = styling.safeParse(source);
  if (!parsed.success) return DEFAULT_THEME;
  const s = parsed.data;
  return {
    mainColor: s.mainColor ?? DEFAULT_THEME.mainColor,
    hoverColor: s.hoverColor ?? DEFAULT_THEME.hoverColor,
    lightColor: s.lightColor ?? DEFAULT_THEME.lightColor,
    logo: s.logo && s.logo !== "default_image" ? s.logo : null,
  };
}

const THEME_TTL_MS = 5_000;
let themeCache: { at: number; theme: Theme } | null = null;

/**
 * The site's look, read at most every THEME_TTL_MS; `fresh` reads it now (the Global Settings
 * screen, whose form shows the stored styling: its header must not show a copy from before a
 * change made elsewhere — another console, the logger's API).
 */
export async function loadTheme(logger: LoggerClient, fresh = false): Promise<Theme> {
  if (!fresh && themeCache && Date.now() - themeCache.at < THEME_TTL_MS) return themeCache.theme;
  let answer;
  try {
    answer = await logger.rpc("GI.system/SettingsManagementAPI.GetSetting", { ID: -1, Key: "WebUI" }, settingsAnswer);
  } catch (error) {
    // The logger away: the page keeps the site's look (the last one read, else the default).
    if (isLoggerAway(error)) return themeCache?.theme ?? DEFAULT_THEME;
    throw error;
  }
  const theme = parseWebUiSetting(answer.Settings.find((s) => s.Key === "WebUI")?.Value);
  themeCache = { at: Date.now(), theme };
  return theme;
}

export function forgetTheme() {
  themeCache = null;
}

// Spec §7: image results are cached. Keyed by file name; a new upload gets a new name or a
// forgetTheme() from the settings action.
const logoCache = new Map<string, { contentType: string; bytes: Uint8Array }>();

export async function loadLogo(logger: LoggerClient, fileName: string) {
  const hit = logoCache.get(fileName);
  if (hit) return hit;
  const answer = await logger.rpc("WebUIAPI.DownloadFile", { FileName: fileName }, downloadFileAnswer);
  const logo = { contentType: answer.ContentType ?? guessType(fileName), bytes: Buffer.from(answer.Content, "base64") };
  if (logoCache.size > 20) logoCache.clear();
  logoCache.set(fileName, logo);
  return logo;
}

function guessType(name: string) {
  if (/\.svg$/i.test(name)) return "image/svg+xml";
  if (/\.jpe?g$/i.test(name)) return "image/jpeg";
  return "image/png";
}
