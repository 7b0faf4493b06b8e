// The last good answer of each read, per sign-in, for the time the logger does not answer
// (issue 26 §2, docs/decisions/0015-value-quality-and-page-deadline.md): a page then renders what
// was known, marked with its age, instead of waiting for the logger or failing. Only for the
// session that received the answer (its random `sid`, new at every sign-in), only while the
// logger is away, and never for answers whose old value would mislead (alarm states: unknown
// rather than untrue) or that are large and short-lived (chart data: decision 0011 keeps pages).

import { countEntries } from "../diagnostics.server";

/** Answers kept at most (the least recently read go first). */
const MAX_KEPT = 4000;
/**
 * The size of the measured answers at most (JSON characters): fresh reads, a new object each time
 * (a screen's pages: Log Messages, a folder). Cached answers are not measured: the cache bounds
 * them, and every session keeps the same object.
 */
const MAX_KEPT_CHARS = 128 * 1024 * 1024;
/** One measured answer larger than this is not kept: an outage shows its screen's outage page instead. */
const MAX_ANSWER_CHARS = 8 * 1024 * 1024;
/** An answer older than this is not shown any more, even during an outage. */
export const KEPT_MAX_AGE_MS = 24 * 3600_000;

interface Kept {
  at: number;
  value: unknown;
  chars: number;
}

const kept = new Map<string, Kept>();
let keptChars = 0;
countEntries("keptAnswers", () => kept.size);

function forget(key: string): void {
  const entry = kept.get(key);
  if (!entry) return;
  keptChars -= entry.chars;
  kept.delete(key);
}

/** Remembers a good answer (the newest one wins); `measured`: counted against the size bound. */
export function keepAnswer(key: string, value: unknown, at = Date.now(), measured = false): void {
  forget(key);
  const chars = measured ? (JSON.stringify(value)?.length ?? 0) : 0;
  if (chars > MAX_ANSWER_CHARS) return;
  kept.set(key, { at, value, chars });
  keptChars += chars;
  if (kept.size > MAX_KEPT || keptChars > MAX_KEPT_CHARS) {
    for (const k of kept.keys()) {
      if (kept.size <= MAX_KEPT * 0.9 && keptChars <= MAX_KEPT_CHARS * 0.9) break;
      forget(k);
    }
  }
}

/** What is kept now: answers and their JSON characters (tests, diagnostics). */
export function keptTotals(): { answers: number; chars: number } {
  return { answers: kept.size, chars: keptChars };
}

/** The kept answer for `key` and when it came, if not too old. */
export function keptAnswer<T>(key: string, now = Date.now()): { at: number; value: T } | undefined {
  const entry = kept.get(key);
  if (!entry) return undefined;
  if (now - entry.at > KEPT_MAX_AGE_MS) {
    forget(key);
    return undefined;
  }
  return entry as { at: number; value: T };
}

/** Tests start empty. */
export function forgetKeptAnswers(): void {
  kept.clear();
  keptChars = 0;
}
