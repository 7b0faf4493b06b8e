import type { Widget } from "~/schemas/dashboards";
import { withCurrentValues } from "~/services/alarmFigures.server";
import { alarmRows, readAlarms } from "~/services/dashboards.server";
import type { LoggerClient } from "~/services/logger/client.server";
import type { AlarmItem } from "~/ui/dashboard/types";

/** Alarms the kiosk's strip shows at most (the most severe, then the newest). */
export const KIOSK_ALARMS = 4;
/** Active alarms, acknowledged or not, and returned ones still awaiting acknowledgement (issue 26 §4); shelved ones are not on the wall. */
const ON_THE_WALL = new Set(["ActiveUnacknowledged", "ReturnedUnacknowledged", "ActiveAcknowledged"]);

/** The strip's alarms, an error, or `unknown` while the logger does not answer (old alarms could be untrue). */
export type KioskAlarms = { rows: AlarmItem[]; total: number } | { error: string } | { unknown: true };

/** The strip's alarms, through the dashboard's own alarm read and ordering (one cached call). */
export async function kioskAlarms(logger: LoggerClient): Promise<KioskAlarms> {
  const read = await readAlarms(logger);
  if ("error" in read) return read.error === "dashboards.widget.unreachable" ? { unknown: true } : read;
  const strip = { Variables: [], Options: { MaxRows: KIOSK_ALARMS } } as unknown as Widget;
  return withCurrentValues(
    logger,
    alarmRows(
      read.list.filter((a) => ON_THE_WALL.has(a.State)),
      strip,
    ),
  );
}
