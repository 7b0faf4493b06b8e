// The state a device is shown in (Map markers, their legend). Built from what Project State
// shows — the logger's Connected flag and heartbeat, the project's Running flag — plus active
// alarms on the device's variables. Client-safe: the Leaflet map colours markers with it too.
// "unknown": the logger is not answering, so the Map shows the devices as last read but neither
// their connection nor their alarms (an old "online" or a missing alarm mark would mislead).

export const DEVICE_STATES = ["alarm", "offline", "stale", "online", "unknown"] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** A heartbeat older than this means the device answers no more, though not yet flagged. */
export const STALE_AFTER_MS = 60_000;

export const STATE_COLOURS: Record<DeviceState, string> = {
  alarm: "#dc2626",
  offline: "#64748b",
  stale: "#d97706",
  online: "#16a34a",
  unknown: "#7c3aed",
};

/** `alarm` null: not known (the logger is not answering). */
export function deviceState(d: { connected: boolean; lastHeartbeat: number | null; running: boolean; alarm: boolean | null; now: number }): DeviceState {
  if (d.alarm === null) return "unknown";
  if (d.alarm) return "alarm";
  if (!d.connected) return "offline";
  if (!d.running || d.lastHeartbeat === null || d.now - d.lastHeartbeat > STALE_AFTER_MS) return "stale";
  return "online";
}
