import type { AuthState } from "./auth-state.server";
import { deviceState, type DeviceState } from "./deviceState";
import { holds } from "./guards.server";
import { isLoggerAway, type LoggerClient } from "./logger/client.server";
import { alarmsAnswer, projectStateAnswer } from "./logger/schemas";
import { isRefusal } from "./submission.server";
import { loadVariables, readValues } from "./variables.server";

// What the Map shows of each device: where it is, its state (as Project State sees it, plus
// alarms) and a few current values. Same logger calls and answers as Project State.

/** Values shown per device: its first inputs that are numbers, not switches. */
export const KEY_VALUES_PER_DEVICE = 3;

export type KeyValue = { id: string; name: string; unit: string; precision?: number; value: number | null };

export type MapDevice = {
  id: string;
  name: string;
  type: string;
  state: DeviceState;
  location: { lat: number; lon: number; site: string } | null;
  lastHeartbeat: number | null;
  values: KeyValue[];
};

export async function loadMapDevices(logger: LoggerClient, auth: AuthState, now = Date.now()): Promise<MapDevice[]> {
  const [{ variables, devices }, { State }, alarmed] = await Promise.all([
    loadVariables(logger),
    logger.readFreshRpc("ProjectAPI.GetState", {}, projectStateAnswer),
    alarmedDevices(logger, auth),
  ]);
  const keyVariables = new Map(
    devices.map((d) => {
      const order = d.Modules.flatMap((m) => m.Variables);
      const mine = variables
        .filter((v) => (v.DeviceId ?? "") === d.ID || order.includes(v.Id))
        .filter((v) => v.Direction === "I" && v.DataFormat !== "BOOL")
        .sort((a, b) => rank(order, a.Id) - rank(order, b.Id));
      return [d.ID, mine.slice(0, KEY_VALUES_PER_DEVICE)] as const;
    }),
  );
  const values = await readValues(logger, [...keyVariables.values()].flat().map((v) => v.Id));
  // Read from kept answers (the logger away): where the devices were, not how they are now.
  const known = alarmed !== null && logger.outage === null;
  return devices.map((d) => {
    const heartbeat = d.LastHeartbeat === null || d.LastHeartbeat === undefined ? null : new Date(d.LastHeartbeat).getTime();
    return {
      id: d.ID,
      name: d.Name,
      type: d.Type,
      state: deviceState({ connected: d.Connected, lastHeartbeat: Number.isNaN(heartbeat) ? null : heartbeat, running: State.Running, alarm: known ? alarmed.has(d.ID) : null, now }),
      location: d.Location ? { lat: d.Location.Lat, lon: d.Location.Lon, site: d.Location.Site ?? "" } : null,
      lastHeartbeat: heartbeat,
      values: (keyVariables.get(d.ID) ?? []).map((v) => ({ id: v.Id, name: v.Name, unit: v.Unit, precision: v.Precision, value: values[v.Id] ?? null })),
    };
  });
}

const rank = (order: string[], id: string) => {
  const i = order.indexOf(id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
};

/** Devices with an active alarm (null: not known, the logger is away); alarms are only read for callers allowed to see them. */
async function alarmedDevices(logger: LoggerClient, auth: AuthState): Promise<Set<string> | null> {
  if (!holds(auth, "UseRulesNotifications")) return new Set();
  try {
    const { Alarms } = await logger.rpc("AlarmAPI.GetAlarms", { Filter: {} }, alarmsAnswer);
    return new Set(Alarms.filter((a) => a.Active && a.State !== "Shelved" && a.State !== "OutOfService" && a.DeviceId).map((a) => a.DeviceId));
  } catch (error) {
    if (isRefusal(error)) return new Set();
    if (isLoggerAway(error)) return null;
    throw error;
  }
}
