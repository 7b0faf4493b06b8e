import { data } from "react-router";

/** Spec STYLE: several buttons post an `intent`; an unknown one is a 400. */
export function readIntent<T extends string>(formData: FormData, intents: readonly T[]): T {
  const intent = formData.get("intent");
  if (typeof intent === "string" && (intents as readonly string[]).includes(intent)) return intent as T;
  throw data({ reason: "bad-request" }, { status: 400 });
}

/** Destructive intents must carry the confirmation the dialog or confirm page adds. */
export function requireConfirmation(formData: FormData) {
  if (formData.get("confirm") !== "yes") throw data({ reason: "bad-request" }, { status: 400 });
}

/** A positive integer id from a form or query value, else 400. */
export function readId(value: FormDataEntryValue | string | null): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw data({ reason: "bad-request" }, { status: 400 });
  return id;
}

/** Paging offsets beyond this are no page anyone reaches by paging. */
const MAX_OFFSET = 1_000_000_000;

/**
 * A paging offset from the query: absent or empty is 0; anything else must be a whole number
 * within reach, else 400 (`offset=1e309` is Infinity, which the logger refuses — a 500 before).
 */
export function readOffset(value: string | null): number {
  if (value === null || value.trim() === "") return 0;
  const offset = Number(value);
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw data({ reason: "bad-request" }, { status: 400 });
  return offset;
}

/**
 * The last entry a page has of a log it reads on from (`since`): absent, empty or no number is
 * from the start (0); a number no sequence reaches (`since=1e308`, not a safe integer, which the
 * logger refuses) is 400, as for offsets.
 */
export function readSince(value: string | null): number {
  const since = Math.max(0, Math.trunc(Number(value)) || 0);
  if (!Number.isSafeInteger(since)) throw data({ reason: "bad-request" }, { status: 400 });
  return since;
}
