import { z } from "zod";
import type { MaintenanceInfo } from "./banner";
import { maintenanceCookie } from "./session.server";

const infoSchema = z.object({ Text: z.string().max(2000), Count: z.number().int().min(0), HiddenUntil: z.number() });

export async function readMaintenanceInfo(request: Request): Promise<MaintenanceInfo | null> {
  const raw = await maintenanceCookie.parse(request.headers.get("Cookie"));
  const parsed = infoSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function writeMaintenanceInfo(info: MaintenanceInfo) {
  return maintenanceCookie.serialize(info);
}
