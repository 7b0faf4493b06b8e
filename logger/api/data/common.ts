import { z } from "zod";
import type { DataContext } from "../../model/context.ts";
import { invalidParam, notFound } from "../../http/errors.ts";
import type { SeriesSource, SeriesVariable } from "../../store/series/store.ts";

/** The buffer is the recent end of the same store: the last hour. */
export const BUFFER_SEC = 3600;

export type Area = "buffer" | "history";

/** The range of a JavaScript date (±100,000,000 days around 1970). */
const MAX_EPOCH_MS = 8.64e15;
const EPOCH_RANGE = `Must be epoch milliseconds within ±${MAX_EPOCH_MS} (the range of a date)`;
// Bounded: a time like 1e300 made the bucket planner count past 2^53, where m + 1 === m, forever.
export const epochMs = z
  .number()
  .refine(Number.isFinite, { message: "Must be a finite number of epoch milliseconds" })
  .min(-MAX_EPOCH_MS, { message: EPOCH_RANGE })
  .max(MAX_EPOCH_MS, { message: EPOCH_RANGE });

/** Epoch ms of the oldest data a source still answers for (retention, and the buffer window). */
export function horizonMs(data: DataContext, src: SeriesSource, area: Area): number {
  const now = data.now();
  // Imported recordings keep everything (SeriesStore.retentionExempt).
  let h = src.RetentionSec && !data.store.retentionExempt.has(src.Id) ? now - src.RetentionSec * 1000 : Number.NEGATIVE_INFINITY;
  if (area === "buffer") h = Math.max(h, now - BUFFER_SEC * 1000);
  return h;
}

/** A stored variable, checked against the source the caller named. */
export function storedVariable(data: DataContext, sid: string, vid: string): { v: SeriesVariable; src: SeriesSource } {
  const v = data.store.variable(vid);
  if (!v) throw notFound(`Unknown variable ${vid}`);
  if (sid !== v.SourceId) {
    if (!data.store.source(sid)) throw notFound(`Unknown source ${sid}`);
    throw invalidParam(`Variable ${vid} does not belong to source ${sid}`);
  }
  return { v, src: data.store.source(sid)! };
}
