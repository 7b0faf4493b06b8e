import { createCookie } from "react-router";
import { sealer } from "../../app/services/sealedCookie.server.ts";

// The console's session cookie as tests read and write it: sealed with the session secrets
// (app/services/sealedCookie.server.ts) inside a plain cookie value.
const cookie = createCookie("loggia_session", { path: "/" });

/**
 * The value of a `loggia_session` cookie holding `data`, sealed with `secrets` as the console
 * seals it: what a cookie kept from earlier (or copied) would be. Tests use it to present
 * sessions with dates of their choosing.
 */
export async function sealedSessionCookie(secrets: string[], data: Record<string, unknown>): Promise<string> {
  const header = (await cookie.serialize(await sealer(secrets).seal(data))).split(";")[0]!;
  return header.slice(header.indexOf("=") + 1);
}

/** The session data a `loggia_session` cookie value carries ({} when it does not open with `secrets`). */
export async function openSessionCookie(secrets: string[], value: string): Promise<Record<string, unknown>> {
  const sealed = await cookie.parse(`loggia_session=${value}`);
  const data = typeof sealed === "string" ? await sealer(secrets).open(sealed) : null;
  return (data ?? {}) as Record<string, unknown>;
}
