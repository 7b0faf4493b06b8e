import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { LoggerContext } from "../api/registry.ts";
import { changeToken } from "../store/db.ts";
import { sendJson } from "./respond.ts";

/**
 * A token that changes whenever anything a client may have cached changes: a row written to
 * the store by this process or by another one (the engine's change counters), or the in-memory
 * device model. Data samples (series.db) are not part of it: they change all the time.
 * Clients compare it to decide whether a cached answer is still the logger's answer.
 */
export function revisionOf(ctx: LoggerContext): string {
  const model = createHash("sha1").update(JSON.stringify(ctx.data.model)).digest("base64url").slice(0, 12);
  return `${changeToken(ctx.db)}.${model}`;
}

export function handleRevision(res: ServerResponse, ctx: LoggerContext): void {
  sendJson(res, 200, { Revision: revisionOf(ctx) });
}
