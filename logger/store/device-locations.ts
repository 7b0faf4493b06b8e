import type { Device, DeviceLocation, Model } from "../model/types.ts";
import type { Db } from "./db.ts";
import { setMetaEntries } from "./metadata.ts";

// A device's location lives in its metadata (MetaDataAPI, Type "device"), so an administrator
// can move or clear it like any other key: Latitude and Longitude in decimal WGS84 degrees,
// Site a short place name. Both coordinates must be there and valid, else: no location.

export const LOCATION_KEYS = { lat: "Latitude", lon: "Longitude", site: "Site" } as const;

/** The rule for a coordinate value, or null when it is fine ("" removes the key). */
export function coordinateError(key: string, value: string): string | null {
  const limit = key === LOCATION_KEYS.lat ? 90 : key === LOCATION_KEYS.lon ? 180 : null;
  if (limit === null || value === "") return null;
  const n = parseCoordinate(value);
  return n === null || Math.abs(n) > limit ? `${key} must be a decimal number of degrees between -${limit} and ${limit}` : null;
}

function parseCoordinate(value: string): number | null {
  const text = value.trim();
  if (!/^[+-]?\d{1,3}(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Locations of all devices that have one, by device ID. */
export async function deviceLocations(db: Db): Promise<Map<string, DeviceLocation>> {
  const rows = await db.all<{ ID: string; Key: string; Value: string }>(
    "SELECT ID, Key, Value FROM metadata WHERE Type = 'device' AND Key IN (?, ?, ?)",
    LOCATION_KEYS.lat,
    LOCATION_KEYS.lon,
    LOCATION_KEYS.site,
  );
  const byId = new Map<string, Record<string, string>>();
  for (const r of rows) byId.set(r.ID, { ...byId.get(r.ID), [r.Key]: r.Value });
  const out = new Map<string, DeviceLocation>();
  for (const [id, keys] of byId) {
    const lat = parseCoordinate(keys[LOCATION_KEYS.lat] ?? "");
    const lon = parseCoordinate(keys[LOCATION_KEYS.lon] ?? "");
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    const site = keys[LOCATION_KEYS.site]?.trim();
    out.set(id, { Lat: lat, Lon: lon, ...(site ? { Site: site } : {}) });
  }
  return out;
}

/** Writes the model's location of newly seen devices into their metadata (never overwrites). */
export async function seedDeviceLocations(db: Db, model: Model, deviceIds: readonly string[]): Promise<void> {
  const known = await deviceLocations(db);
  for (const d of model.devices) {
    if (!deviceIds.includes(d.ID) || !d.Location || known.has(d.ID)) continue;
    await setMetaEntries(db, "device", d.ID, locationEntries(d));
  }
}

function locationEntries(d: Device) {
  const l = d.Location!;
  const entries: { Key: string; Value: string }[] = [
    { Key: LOCATION_KEYS.lat, Value: String(l.Lat) },
    { Key: LOCATION_KEYS.lon, Value: String(l.Lon) },
  ];
  if (l.Site) entries.push({ Key: LOCATION_KEYS.site, Value: l.Site });
  return entries;
}
