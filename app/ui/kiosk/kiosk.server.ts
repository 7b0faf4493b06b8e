import type { Widget } from "~/schemas/dashboards";
import { alarmRows, readAlarms } from "~/services/dashboards.server";
import type { LoggerClient } from "~/services/logger/client.server";
import type { AlarmItem } from "~/ui/dashboard/types";

/** Alarms the kiosk's strip shows at most (the most severe, then the newest). */
export const KIOSK_ALARMS = 4;
/** Active alarms, acknowledged or not; shelved and returned ones are not on the wall. */
const ACTIVE = new Set(["ActiveUnacknowledged", "ActiveAcknowledged"]);

export type KioskAlarms = { rows: AlarmItem[]; total: number } | { error: string };

/** The strip's alarms, through the dashboard's own alarm read and ordering (one cached call). */
export async function kioskAlarms(logger: LoggerClient): Promise<KioskAlarms> {
  const read = await readAlarms(logger);
  if ("error" in read) return read;
  const strip = { Variables: [], Options: { MaxRows: KIOSK_ALARMS } } as unknown as Widget;
  return alarmRows(
    read.list.filter((a) => ACTIVE.has(a.State)),
    strip,
  );
}
