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
