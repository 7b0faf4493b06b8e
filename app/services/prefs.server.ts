import { z } from "zod";
import { DEFAULT_SIDEBAR_WIDTH, LAYOUT_TYPES, LAYOUTS, SIDEBAR_WIDTHS, THEMES } from "~/schemas/preferences";
import { prefsCookie } from "./session.server";

const prefsSchema = z.object({
  theme: z.enum(THEMES).catch("light"),
  layout: z.enum(LAYOUTS).catch("horizontal-minimal"),
  layoutType: z.enum(LAYOUT_TYPES).catch("full-width"),
  sidebarWidth: z
    .number()
    .refine((w) => (SIDEBAR_WIDTHS as readonly number[]).includes(w))
    .catch(DEFAULT_SIDEBAR_WIDTH),
  /** Time zone for callers without a user record (no-login mode): IANA name or "". */
  timezone: z.string().max(64).catch(""),
  /** The browser's zone, reported by a small script; used when the user chose "browser". */
  browserZone: z.string().max(64).catch(""),
});
export type Prefs = z.infer<typeof prefsSchema>;
export const DEFAULT_PREFS: Prefs = {
  theme: "light",
  layout: "horizontal-minimal",
  layoutType: "full-width",
  sidebarWidth: DEFAULT_SIDEBAR_WIDTH,
  timezone: "",
  browserZone: "",
};

export async function readPrefs(request: Request): Promise<Prefs> {
  const raw = await prefsCookie.parse(request.headers.get("Cookie"));
  const parsed = prefsSchema.safeParse({ ...DEFAULT_PREFS, ...(raw && typeof raw === "object" ? raw : {}) });
  const prefs = parsed.success ? parsed.data : DEFAULT_PREFS;
  const browserZone = readBrowserZone(request);
  return browserZone ? { ...prefs, browserZone } : prefs;
}

export function writePrefs(prefs: Prefs) {
  return prefsCookie.serialize(prefs);
}

function readBrowserZone(request: Request): string {
  const match = /(?:^|;\s*)loggia_tz=([^;]+)/.exec(request.headers.get("Cookie") ?? "");
  const zone = match ? decodeURIComponent(match[1]) : "";
  return isTimeZone(zone) ? zone : "";
}

export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
