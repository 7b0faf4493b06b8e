import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { LoggerContext } from "../api/registry.ts";
import { get } from "../store/db.ts";
import { sendJson } from "./respond.ts";

/**
 * A token that changes whenever anything a client may have cached changes: a row written to
 * logger.db by this process (total_changes) or by another one (data_version), or the in-memory
 * device model. Data samples (series.db) are not part of it: they change all the time.
 * Clients compare it to decide whether a cached answer is still the logger's answer.
 */
export function revisionOf(ctx: LoggerContext): string {
  const row = get<{ t: number }>(ctx.db, "SELECT total_changes() AS t")!;
  const other = get<{ data_version: number }>(ctx.db, "PRAGMA data_version")!;
  const model = createHash("sha1").update(JSON.stringify(ctx.data.model)).digest("base64url").slice(0, 12);
  return `${row.t}.${other.data_version}.${model}`;
}

export function handleRevision(res: ServerResponse, ctx: LoggerContext): void {
  sendJson(res, 200, { Revision: revisionOf(ctx) });
}
