// The last good answer of each read, per sign-in, for the time the logger does not answer
// (issue 26 §2, docs/decisions/0015-value-quality-and-page-deadline.md): a page then renders what
// was known, marked with its age, instead of waiting for the logger or failing. Only for the
// session that received the answer (its random `sid`, new at every sign-in), only while the
// logger is away, and never for answers whose old value would mislead (alarm states: unknown
// rather than untrue) or that are large and short-lived (chart data: decision 0011 keeps pages).

import { countEntries } from "../diagnostics.server";

/** Answers kept at most (the least recently read go first). */
const MAX_KEPT = 4000;
/** An answer older than this is not shown any more, even during an outage. */
export const KEPT_MAX_AGE_MS = 24 * 3600_000;

interface Kept {
  at: number;
  value: unknown;
}

const kept = new Map<string, Kept>();
countEntries("keptAnswers", () => kept.size);

/** Remembers a good answer (the newest one wins). */
export function keepAnswer(key: string, value: unknown, at = Date.now()): void {
  kept.delete(key);
  kept.set(key, { at, value });
  if (kept.size > MAX_KEPT) {
    for (const k of kept.keys()) {
      if (kept.size <= MAX_KEPT * 0.9) break;
      kept.delete(k);
    }
  }
}

/** The kept answer for `key` and when it came, if not too old. */
export function keptAnswer<T>(key: string, now = Date.now()): { at: number; value: T } | undefined {
  const entry = kept.get(key);
  if (!entry) return undefined;
  if (now - entry.at > KEPT_MAX_AGE_MS) {
    kept.delete(key);
    return undefined;
  }
  return entry as { at: number; value: T };
}

/** Tests start empty. */
export function forgetKeptAnswers(): void {
  kept.clear();
}
