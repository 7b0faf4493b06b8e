// Answers of the logger kept across requests while the logger's revision (GET /revision) says
// nothing changed. A dashboard on ten wall displays then costs the logger one revision check per
// page instead of a dozen reads. Keys always include the caller's access token: a cached answer
// is only ever served to the sign-in that received it.

import { countEntries } from "../diagnostics.server";

const MAX_ENTRIES = 5000;
/** Expired answers are dropped at most this often (a walk over the map, on the next insert). */
const SWEEP_MS = 1000;
let lastSweep = 0;

interface Entry {
  revision: string;
  expires: number;
  value: Promise<unknown>;
}

const entries = new Map<string, Entry>();
countEntries("loggerAnswers", () => entries.size);

/** The cached answer for key at this revision, or load() once for all concurrent callers. */
export function cachedAnswer<T>(key: string, revision: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.revision === revision && hit.expires > now) return hit.value as Promise<T>;
  const value = load();
  entries.delete(key);
  // Keys name the request (a history read's time range, the session's token), so most are never
  // asked again: an expired answer is dropped here rather than when 5000 had piled up — in the
  // soak (bench/soak.ts) those kept history answers and their drawn charts grew the console's
  // heap after GC by ~30 MB a minute, toward several hundred MB.
  if (now - lastSweep >= SWEEP_MS) {
    lastSweep = now;
    for (const [k, e] of entries) if (e.expires <= now) entries.delete(k);
  }
  entries.set(key, { revision, expires: now + ttlMs, value });
  // A failure is never remembered: the next caller asks again.
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  if (entries.size > MAX_ENTRIES) {
    // The oldest answers go first (Map order).
    for (const k of entries.keys()) {
      if (entries.size <= MAX_ENTRIES * 0.9) break;
      entries.delete(k);
    }
  }
  return value;
}

let pendingRevision: Promise<string | null> | null = null;

/**
 * Requests arriving while a revision check is under way share it instead of asking again. Only
 * a change made elsewhere (another console, a script) in that millisecond can be missed — this
 * console's own writes drop everything — and it is seen by the next request.
 */
export function sharedRevision(check: () => Promise<string | null>): Promise<string | null> {
  if (pendingRevision) return pendingRevision;
  const value = check().finally(() => {
    if (pendingRevision === value) pendingRevision = null;
  });
  pendingRevision = value;
  return value;
}

/** How many answers are kept (expired ones included until the next sweep). */
export function cachedAnswerCount(): number {
  return entries.size;
}

/** After this console changed something at the logger: no answer from before is reused. */
export function forgetCachedAnswers() {
  entries.clear();
  pendingRevision = null;
}
