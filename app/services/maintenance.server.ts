import { createCookie } from "react-router";
import { z } from "zod";
import { env } from "./env.server";
import type { MaintenanceInfo } from "./banner";
import { maintenanceCookie } from "./session.server";

const infoSchema = z.object({ Text: z.string().max(2000), Count: z.number().int().min(0) });

/**
 * The text dismissed in this browser session: a session cookie (no expiry), so the banner stays
 * closed while the operator works and comes back in the next session until it is suppressed.
 */
const closedCookie = createCookie("loggia_maintenance_closed", { httpOnly: true, sameSite: "lax", path: "/", secrets: env.sessionSecrets });

export async function readMaintenanceInfo(request: Request): Promise<MaintenanceInfo | null> {
  const raw = await maintenanceCookie.parse(request.headers.get("Cookie"));
  const parsed = infoSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export async function readClosedText(request: Request): Promise<string | null> {
  const raw: unknown = await closedCookie.parse(request.headers.get("Cookie"));
  return typeof raw === "string" ? raw : null;
}

export async function writeDismissal(info: MaintenanceInfo): Promise<string[]> {
  return [await maintenanceCookie.serialize(info), await closedCookie.serialize(info.Text)];
}
