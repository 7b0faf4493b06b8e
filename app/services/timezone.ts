// Spec §4: a user's time zone is a name (with DST), a fixed offset in minutes, or the browser's.

export type ZoneMode = "name" | "offset" | "browser";

export interface ZoneFields {
  Timezone: string;
  TimezoneDiffSec: number;
  TimezoneUseDST: boolean;
}

export function zoneMode(u: ZoneFields): ZoneMode {
  if (u.Timezone) return "name";
  return u.TimezoneUseDST ? "browser" : "offset";
}

/** "+01:30" style offset, which Intl accepts as a timeZone. */
export function offsetZone(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(Math.trunc(minutes));
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** The IANA or offset zone to format dates in. */
export function effectiveZone(u: ZoneFields | null, browserZone: string, fallback: string): string {
  if (!u) return browserZone || fallback;
  switch (zoneMode(u)) {
    case "name":
      return u.Timezone;
    case "offset":
      return offsetZone(u.TimezoneDiffSec / 60);
    default:
      return browserZone || fallback;
  }
}
